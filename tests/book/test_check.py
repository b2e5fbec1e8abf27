"""``make check``, the two-minute check: what it runs, and the slow tests it leaves to ``make test``.

The slow tests are named in tests/book/conftest.py; a name there that no test has any more would leave a slow
test in the check unnoticed, so each must be a module of tests/book and each single test one of its module's.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BOOK_TESTS = ROOT / "tests" / "book"
_spec = importlib.util.spec_from_file_location("book_conftest", BOOK_TESTS / "conftest.py")
_conftest = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_conftest)
SLOW_MODULES, SLOW_TESTS = _conftest.SLOW_MODULES, _conftest.SLOW_TESTS


def test_every_slow_name_is_a_test_of_the_book():
    for module in SLOW_MODULES:
        assert (BOOK_TESTS / module).is_file(), module
    for test in SLOW_TESTS:
        module, name = test.split("::")
        assert re.search(rf"^def {name}\(", (BOOK_TESTS / module).read_text(encoding="utf-8"), re.M), test


def test_make_check_runs_lint_the_library_and_the_books_quick_tests():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = makefile.split("\ncheck: venv\n", 1)[1].split("\n\n", 1)[0]
    assert "$(MAKE) --no-print-directory lint" in recipe
    assert 'tests/lib -m "not property and not combinations"' in recipe
    assert 'tests/trec -m "not property and not combinations"' in recipe
    assert 'tests/book -m "not slow"' in recipe
    assert "slow: " in (ROOT / "pyproject.toml").read_text(encoding="utf-8")  # the marker is declared
