"""Sphinx extension of the book's site: the site for a course that grades its exercises (``irmeans_course``).

With ``irmeans_course: true`` in the configuration (``make course`` sets it; ``_config.yml`` has it
false), the site

- has no solutions: sphinx-exercise's ``hide_solutions`` leaves every ``{solution}`` out of
  the pages and of the search index;
- gives the self-check exercises no answer box: they stay exercises, their hints shown as in
  Jupyter, and their answers (the box's data) are nowhere in the HTML (the class
  ``selfcheck`` is taken off before :mod:`irmeans_selfcheck` looks for it);
- leaves out the text of class :data:`irmeans_book.course.WITH_SOLUTIONS` (what links or
  describes the instructor's edition), and shows that of class
  :data:`irmeans_book.course.COURSE_ONLY`, which any other build leaves out;
- serves its chapters without their solutions: the copies the pages' download button links
  (``_sources/``), and those of its source archive (``book/extensions/irmeans_site.py``).

The instructor's PDF is neither linked nor copied into a course's site: ``book/scripts/course_site.py``
prints the student's edition alone.
"""

from __future__ import annotations

from pathlib import Path

from docutils import nodes
from irmeans_book import course
from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.util.typing import ExtensionMetadata

#: The configuration value: true for a course's site.
CONFIG = "irmeans_course"
#: The class irmeans_selfcheck gives its answer box to.
SELFCHECK = "selfcheck"


def is_course(app: Sphinx) -> bool:
    """Whether this build is a course's site."""
    return bool(getattr(app.config, CONFIG, False))


def _hide_solutions(app: Sphinx, config: Config) -> None:
    if getattr(config, CONFIG, False):
        config.hide_solutions = True


def _edition_text(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Take out the other edition's text; in a course's site, make the self-checks plain exercises."""
    left_out = course.WITH_SOLUTIONS if is_course(app) else course.COURSE_ONLY
    for node in list(doctree.findall(lambda n: isinstance(n, nodes.Element) and left_out in n.get("classes", []))):
        node.parent.remove(node)
    if is_course(app):
        for node in doctree.findall(lambda n: isinstance(n, nodes.Element) and SELFCHECK in n.get("classes", [])):
            node["classes"] = [c for c in node["classes"] if c != SELFCHECK]


def _sources_without_solutions(app: Sphinx, exception: Exception | None) -> None:
    """The chapters the pages' download button gives, without their solutions (a course's site only)."""
    if exception is not None or not is_course(app) or app.builder.format != "html":
        return
    sources = Path(app.outdir) / "_sources"
    for path in sorted(sources.rglob("*")) if sources.is_dir() else []:
        if path.is_file() and path.suffix in (".ipynb", ".md", ".txt"):
            relative = Path("chapters") / path.name.removesuffix(".txt")
            path.write_bytes(course.course_copy(relative, path.read_bytes()))


def setup(app: Sphinx) -> ExtensionMetadata:
    app.add_config_value(CONFIG, False, "env", [bool])
    app.setup_extension("sphinx_exercise")
    # After sphinx-exercise's own config-inited handlers, before any directive runs.
    app.connect("config-inited", _hide_solutions, priority=600)
    # Before irmeans_selfcheck (500) gives the self-checks their answer boxes.
    app.connect("doctree-resolved", _edition_text, priority=400)
    app.connect("build-finished", _sources_without_solutions)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
