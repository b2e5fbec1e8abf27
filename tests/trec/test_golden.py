"""``irmeans eval`` against trec_eval 10's own output on the real-shaped fixtures.

``fixtures/golden/FIXTURE.FLAGSET.txt`` is what trec_eval 10.0 printed (made by
``fixtures/make_golden.py`` from a trec_eval binary; not run here).  Every flag set that
names its measures must give the same bytes; the flag set without ``-m`` (trec_eval prints
its ``official`` set, irmeans ``all_trec`` and its extra lines) must give the same value on
every line trec_eval printed.
"""

import io
import os
import sys

import pytest
from irmeans.cli import main

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "fixtures")
sys.path.insert(0, FIXTURES)

from make_golden import FIXTURES as NAMES  # noqa: E402
from make_golden import FLAG_SETS  # noqa: E402

CASES = [(f, s) for f in NAMES for s in FLAG_SETS]


def run(argv, monkeypatch):
    out, err = io.BytesIO(), io.StringIO()
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(out, encoding="utf-8", errors="surrogateescape"))
    monkeypatch.setattr(sys, "stderr", err)
    status = main(argv)
    sys.stdout.flush()
    return status, out.getvalue(), err.getvalue()


def table(text):
    rows = {}
    for line in text.splitlines():
        name, topic, value = line.split(b"\t")
        rows[(name.strip(), topic)] = value
    return rows


def test_every_fixture_has_every_golden_file():
    assert len(CASES) == len(os.listdir(os.path.join(FIXTURES, "golden"))) == 4 * 16


@pytest.mark.parametrize("fixture, flag_set", CASES)
def test_same_output_as_trec_eval(fixture, flag_set, monkeypatch):
    with open(os.path.join(FIXTURES, "golden", f"{fixture}.{flag_set}.txt"), "rb") as fh:
        golden = fh.read()
    flags = FLAG_SETS[flag_set]
    qrels, run_file = (os.path.join(FIXTURES, f"{fixture}.{ext}") for ext in ("qrels", "run"))
    status, out, err = run(["eval", *flags, qrels, run_file], monkeypatch)
    assert status == 0, err
    if "-m" in flags:
        if out != golden:
            mine, theirs = out.splitlines(), golden.splitlines()
            diff = [(a, b) for a, b in zip(mine, theirs) if a != b][:5]
            pytest.fail(f"{len(mine)} lines vs {len(theirs)}; first differences: {diff}")
    else:
        mine, theirs = table(out), table(golden)
        assert {k: mine.get(k) for k in theirs} == theirs
    if fixture == "robust" and "-c" not in flags:
        assert "1 topic in" in err and "320" in err  # judged, not in the run: left out with a warning
