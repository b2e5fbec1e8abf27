"""Ready to publish: `python -m build` makes a source archive and a wheel that `twine check --strict` passes
(book/scripts/release.py, which `make dist` runs); the version is written once and cited as it is. The wheel is
installed and run in an environment of its own by `make standalone`, which `make test` runs: the library's tests
run there, on it. (`release.py --try-in VENV` does the same by hand.)

The build and the check take about 5 s.
"""

from __future__ import annotations

import email
import re
import sys
import tarfile
import zipfile
from pathlib import Path

import irmeans
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "book" / "scripts"))
import release  # noqa: E402 - a script of the book's, not an installed module

#: What the wheel must ship besides the code: the licences and the data files with their provenance.
WHEEL_DATA = [
    "irmeans/py.typed",
    "irmeans/datasets/data/README.md",
    f"irmeans-{irmeans.__version__}.dist-info/licenses/LICENSE",
    f"irmeans-{irmeans.__version__}.dist-info/licenses/LICENSE-CC-BY-SA-4.0",
]


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> list[Path]:
    return release.build(tmp_path_factory.mktemp("dist"))


def test_build_makes_one_sdist_and_one_wheel_of_this_version(dist):
    sdist, wheel = dist
    assert sdist.name == f"irmeans-{irmeans.__version__}.tar.gz"
    assert wheel.name == f"irmeans-{irmeans.__version__}-py3-none-any.whl"


def test_twine_check_passes_both(dist):
    printed = release.check(dist)
    assert printed.count("PASSED") == 2 and "WARNING" not in printed and "FAILED" not in printed


def test_twine_check_fails_a_description_pypi_would_not_render(tmp_path, dist):
    """The check can fail: the same wheel, its description declared reStructuredText that does not parse."""
    bad = tmp_path / dist[1].name
    with zipfile.ZipFile(dist[1]) as src, zipfile.ZipFile(bad, "w") as out:
        for item in src.infolist():
            data = src.read(item)
            if item.filename.endswith("dist-info/METADATA"):
                data = data.replace(b"Description-Content-Type: text/markdown", b"Description-Content-Type: text/x-rst")
                data += b"\n\n.. broken:: directive\n  `unclosed\n"
            out.writestr(item, data)
    with pytest.raises(RuntimeError, match="(?s)twine check.*long_description. has syntax errors"):
        release.check([bad])


def test_the_files_hold_the_licences_the_data_and_the_metadata(dist):
    sdist, wheel = dist
    with tarfile.open(sdist) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    folder = "lib/irmeans/"
    assert {"pyproject.toml", "README.md", "LICENSE", "LICENSE-CC-BY-SA-4.0", folder + "py.typed"} <= names
    shipped = {p.name for p in (ROOT / "lib" / "irmeans" / "datasets" / "data").iterdir() if p.is_file()}
    assert {n.rsplit("/", 1)[-1] for n in names if n.startswith(folder + "datasets/data/")} == shipped
    assert not {n for n in names if n.startswith(("tests/", "book/", "chapters/", "_build/", ".venv"))}
    with zipfile.ZipFile(wheel) as whl:
        listed = set(whl.namelist())
        meta = email.message_from_bytes(whl.read(f"irmeans-{irmeans.__version__}.dist-info/METADATA"))
    assert set(WHEEL_DATA) <= listed
    assert {f"irmeans/datasets/data/{n}" for n in shipped} <= listed
    assert meta["Version"] == irmeans.__version__
    assert meta["License-Expression"] == "MIT AND CC-BY-SA-4.0"
    assert {re.split(r"[<>=!; ]", r)[0] for r in meta.get_all("Requires-Dist") if "extra ==" not in r} == {
        "numpy",
        "scipy",
        "pyarrow",
    }
    # The repository's address is a placeholder until there is a public home: no release names it.
    assert not meta.get_all("Project-URL") and "github.com/irmeans" not in meta.as_string()


def test_the_readme_shows_what_the_installed_wheel_prints():
    """`make standalone` installs the wheel into an environment of its own and runs the library's tests and
    ``irmeans eval`` there; what the README's quick start shows for it is what the release checks."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    _, shown = release.EXAMPLE_EVAL
    assert re.search(r"^examples/runs/baseline\.txt\tmap\s+\tall\t" + re.escape(shown.rsplit("\t", 1)[1]), readme, re.M)
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = makefile.split("\nstandalone:", 1)[1].split("\n\n", 1)[0]
    assert " dist" in recipe.splitlines()[0] and "$(DIST)/irmeans-*.whl" in recipe


def test_the_version_is_cited_as_released():
    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    assert citation["version"] == irmeans.__version__
    assert citation["cff-version"] == "1.2.0" and citation["title"] and citation["authors"]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    release_section = readme.split("## Releasing", 1)[1].split("\n## ", 1)[0]
    for needed in ("make dist", "CITATION.cff", "lib/irmeans/__init__.py", "twine upload"):
        assert needed in release_section, needed
