"""`make course`: the book's site for a course that grades its exercises, in ``_build/course/html``.

Usage: ``python book/scripts/course_site.py [--out _build/course] [--no-pdf]``.

The site is built as ``make site`` builds it (from the chapters' stored outputs), with
``irmeans_course`` set (``book/extensions/irmeans_course.py``): no solutions, no self-check answers,
no link to the instructor's edition, and the chapters it serves without their solutions. It is
then checked as the site is (``book/scripts/check_site.py``), and for all of that too
(:func:`check_site.course_problems`). Last, the student's edition of the PDF is printed from the
course's own single page and copied into the site (``book/scripts/make_pdf.py --course``; not with
``--no-pdf``); the instructor's edition is neither printed nor copied. The project's ``_config.yml``
is left as it is: the configuration with ``irmeans_course`` set is written into the output folder.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

import check_site
import make_pdf
import yaml

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "_build" / "course"


def course_config(out: Path) -> Path:
    """The site's configuration with ``irmeans_course`` set, written into ``out`` (:func:`make_pdf.site_config`)."""
    out.mkdir(parents=True, exist_ok=True)
    path = out / "_config.yml"
    config = make_pdf.site_config(course=True)
    path.write_text(yaml.safe_dump(config, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def build(out: Path) -> Path:
    """Build the course's site under ``out``; return its folder of HTML, ``out/html``."""
    jupyter_book = Path(sys.executable).with_name("jupyter-book")
    shutil.rmtree(out / "_build", ignore_errors=True)
    command = [str(jupyter_book), "build", "-W", "-n", "--keep-going"]
    command += ["--path-output", str(out), "--config", str(course_config(out)), str(ROOT)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).splitlines()[-30:])
        raise RuntimeError(f"the course's site failed to build:\n{tail}")
    site = out / "html"
    shutil.rmtree(site, ignore_errors=True)
    shutil.move(out / "_build" / "html", site)
    return site


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=OUT, help="folder of the course's build (its site in html/)")
    parser.add_argument("--no-pdf", action="store_true", help="leave out the student's edition of the PDF")
    args = parser.parse_args(argv)
    site = build(args.out)
    if not args.no_pdf:
        make_pdf.main(["--course", "--out", str(args.out / "pdf"), "--site", str(site)])
    found = check_site.problems(site) + check_site.course_problems(site)
    for line in found:
        print(line, file=sys.stderr)
    print(f"the course's site: {site} ({len(found)} problem(s))")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
