"""Sphinx extension of the book's site: self-check exercises the reader answers on the page.

A self-check exercise is a sphinx-exercise ``{exercise}`` with the class
``selfcheck``, whose label names an answer function registered in
:mod:`irmeans_book.selfcheck`. When a page is written as HTML, this extension
calls that function (so the answer is what the library computes at build
time), and appends to the exercise

- a form: a labelled text box for a number, or a group of radio buttons for a
  choice, a "Check" button, and a feedback line that screen readers announce
  (``role="status"``);
- the exercise's ``{hint}`` admonitions, moved into a hidden block that the
  page's script shows after a wrong answer.

The answer, its tolerance and the text shown once it is found are data
attributes of the form; ``selfcheck.js`` and ``selfcheck.css`` (in
``book/static/``, served by the site, added only to pages with a self-check)
do the rest in the browser. Nothing is fetched from elsewhere, and the
notebooks are not re-executed for it: the exercise text is a markdown cell.

In Jupyter (jupyterlab-myst) the same markdown shows as an exercise with its
hint: the reader works the answer out in a code cell.

A label with no registered answer, or an answer function that fails, is a
build warning (an error under ``-W``).
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util import logging
from sphinx.util.typing import ExtensionMetadata

SCRIPT = "selfcheck.js"
STYLE = "selfcheck.css"
CLASS = "selfcheck"
FORM_CLASS = "selfcheck-form"

if TYPE_CHECKING:
    from irmeans_book.selfcheck import Choice, Number

logger = logging.getLogger(__name__)


def _attr(value: object) -> str:
    return html.escape(str(value), quote=True)


def form_html(label: str, answer: Number | Choice) -> str:
    """The HTML of the answer form of exercise ``label`` for ``answer`` (a Number or a Choice).

    Examples
    --------
    >>> from irmeans_book.selfcheck import Choice, Number
    >>> h = form_html("sc-x", Number(0.5, decimals=2))
    >>> 'data-answer="0.5"' in h and 'data-tolerance="0.01"' in h and '<label for="sc-x-answer">' in h
    True
    >>> 'type="radio"' in form_html("sc-y", Choice(("A", "B"), "B"))
    True
    """
    from irmeans_book.selfcheck import Number

    feedback = f"{label}-feedback"
    if isinstance(answer, Number):
        kind = "number"
        data = f'data-answer="{_attr(repr(answer.value))}" data-tolerance="{_attr(repr(answer.tolerance))}"'
        field = (
            f'<label for="{label}-answer">Your answer ({answer.decimals} decimal'
            f"{'' if answer.decimals == 1 else 's'})</label> "
            f'<input id="{label}-answer" class="selfcheck-input" type="text" inputmode="decimal" '
            f'autocomplete="off" spellcheck="false" aria-describedby="{feedback}">'
        )
    else:
        kind = "choice"
        data = f'data-answer="{_attr(answer.answer)}"'
        options = "".join(
            f'<label class="selfcheck-option"><input type="radio" name="{label}-choice" '
            f'value="{_attr(option)}"> {html.escape(option)}</label>'
            for option in answer.options
        )
        field = (
            f'<fieldset class="selfcheck-options" aria-describedby="{feedback}">'
            f"<legend>Your answer</legend>{options}</fieldset>"
        )
    return (
        f'<form class="{FORM_CLASS}" data-kind="{kind}" {data} data-shown="{_attr(answer.shown)}" '
        f'data-label="{_attr(label)}" novalidate>'
        f'{field} <button type="submit" class="selfcheck-button">Check</button>'
        f'<p id="{feedback}" class="selfcheck-feedback" role="status" aria-live="polite"></p>'
        "</form>\n"
    )


def _body(exercise: nodes.Element) -> nodes.Element:
    """The part of an exercise node that holds its text (sphinx-exercise's content section)."""
    for child in exercise.children:
        if isinstance(child, nodes.section):
            return child
    return exercise


def _is_selfcheck(node: Any) -> bool:
    return isinstance(node, nodes.Element) and CLASS in node.get("classes", []) and bool(node.get("label"))


def add_forms(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Give every self-check exercise of an HTML page its form and its hidden hint."""
    if app.builder.format != "html":
        return
    from irmeans_book import selfcheck

    for exercise in list(doctree.findall(_is_selfcheck)):
        label = exercise["label"]
        try:
            answer = selfcheck.answer(label)
        except Exception as error:  # a wrong label or a failing function: say which, and where
            logger.warning(f"self-check {label!r}: {type(error).__name__}: {error}", location=exercise)
            continue
        body = _body(exercise)
        hints = [hint for hint in body.findall(nodes.hint)]
        for hint in hints:
            hint.parent.remove(hint)
        body += nodes.raw("", form_html(label, answer), format="html")
        if hints:
            body += nodes.raw("", f'<div class="selfcheck-hint" id="{_attr(label)}-hint" hidden>', format="html")
            body.extend(hints)
            body += nodes.raw("", "</div>\n", format="html")


def add_assets(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: nodes.document | None
) -> None:
    """The script and style sheet, on exactly the pages with a self-check."""
    if doctree is None:
        return
    if any(FORM_CLASS in node.astext() for node in doctree.findall(nodes.raw)):
        app.add_js_file(SCRIPT, loading_method="defer")  # in html-page-context: this page only
        app.add_css_file(STYLE)


def setup(app: Sphinx) -> ExtensionMetadata:
    app.setup_extension("sphinx_exercise")
    app.connect("doctree-resolved", add_forms)
    app.connect("html-page-context", add_assets)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
