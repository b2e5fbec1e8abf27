"""Self-check exercises on the site: a reader types a right and a wrong answer and is told which it is."""

from __future__ import annotations

import re

import pytest
import sitetools
from irmeans_book.selfcheck import Choice, Number, answer
from visit import open_page, reading, run_axe
from your_scores_cases import ENTRIES

NUMBER_PAGE, NUMBER_LABEL = "chapters/04-averaging.html", "sc-ch4-s1-ehm"
CHOICE_PAGE, CHOICE_LABEL = "chapters/04-averaging.html", "sc-ch4-first-ehm"


def _form(page, label):
    return page.locator(f'form.selfcheck-form[data-label="{label}"]')


def _feedback(form) -> str:
    return form.locator(".selfcheck-feedback").inner_text().strip()


def _answer_number(page, label, text):
    form = _form(page, label)
    form.get_by_label(re.compile("Your answer")).fill(text)
    form.get_by_role("button", name="Check").click()
    return _feedback(form)


def _wrong_number(right: Number) -> str:
    return f"{right.value + 10 * right.tolerance + 0.05:.{right.decimals}f}"


@pytest.fixture(scope="module")
def averaging(browser, base_url):
    page, log = open_page(browser, base_url, NUMBER_PAGE)
    yield page, log
    page.context.close()


def test_a_wrong_number_gets_the_hint_and_a_right_one_is_confirmed(averaging):
    page, log = averaging
    right = answer(NUMBER_LABEL)
    hint = page.locator(f"#{NUMBER_LABEL}-hint")
    assert hint.is_hidden()

    said = _answer_number(page, NUMBER_LABEL, _wrong_number(right))
    assert said.startswith("Not quite"), said
    assert hint.is_visible() and "Add ε to every score" in hint.inner_text()
    assert _form(page, NUMBER_LABEL).locator("input").get_attribute("aria-invalid") == "true"

    said = _answer_number(page, NUMBER_LABEL, right.shown)
    assert said == f"Right: {right.shown}.", said
    assert _form(page, NUMBER_LABEL).locator("input").get_attribute("aria-invalid") == "false"
    # Typed as a reader might: a decimal comma.
    assert _answer_number(page, NUMBER_LABEL, right.shown.replace(".", ",")).startswith("Right")
    assert not (log.errors or log.failed or log.outside), log


def test_an_answer_is_read_by_the_boxes_rule(averaging):
    """The self-checks took "0,275" and the "your scores" boxes split it: one rule now (a comma between digits is
    a decimal comma when the text holds no '.' and no ';'), in selfcheck.js as in irmeans_book.yourscores."""
    page, _ = averaging
    read = "(t) => window.irmeansSelfcheck.parseNumber(t)"
    single = [(text, numbers[0]) for text, numbers in ENTRIES if len(numbers) == 1]
    assert single
    for text, number in single:
        assert page.evaluate(read, text) == pytest.approx(number), text
    for text, numbers in ENTRIES:
        if len(numbers) > 1:
            assert page.evaluate(f"(t) => Number.isNaN(({read})(t))", text), text


def test_what_is_not_a_number_is_said_so(averaging):
    page, _ = averaging
    said = _answer_number(page, NUMBER_LABEL, "about a fifth")
    assert said.startswith("Type a number"), said


def test_a_choice_right_and_wrong(averaging):
    page, _ = averaging
    right = answer(CHOICE_LABEL)
    assert isinstance(right, Choice)
    form = _form(page, CHOICE_LABEL)
    form.get_by_role("button", name="Check").click()
    assert _feedback(form).startswith("Choose one"), _feedback(form)
    wrong = next(option for option in right.options if option != right.answer)
    form.get_by_role("radio", name=wrong, exact=True).check()
    form.get_by_role("button", name="Check").click()
    assert _feedback(form).startswith("Not quite")
    assert page.locator(f"#{CHOICE_LABEL}-hint").is_visible()
    form.get_by_role("radio", name=right.answer, exact=True).check()
    form.get_by_role("button", name="Check").click()
    assert _feedback(form) == f"Right: {right.answer}."


def test_feedback_is_announced_and_the_forms_pass_axe(averaging):
    page, _ = averaging
    for label in (NUMBER_LABEL, CHOICE_LABEL):
        feedback = _form(page, label).locator(".selfcheck-feedback")
        assert feedback.get_attribute("role") == "status" and feedback.get_attribute("aria-live") == "polite"
    violations = [v for v in run_axe(page)["violations"] if "selfcheck" in str(v)]
    assert not violations, violations


# On the tour of the site (visit.py), last, on a phone-wide screen: every form of every chapter answered.
@reading("self-checks answered", widths=(390,), modes=("dark",), stage="moved", pages=sitetools.made_from_a_notebook)
def _answered(page, where):
    found = []
    forms = page.locator("form.selfcheck-form")
    for i in range(forms.count()):
        form = forms.nth(i)
        label = form.get_attribute("data-label")
        right = answer(label)
        form.scroll_into_view_if_needed()
        if isinstance(right, Number):
            form.locator("input").fill(right.shown)
        else:
            form.get_by_role("radio", name=right.answer, exact=True).check()
        form.get_by_role("button", name="Check").click()
        # The form fits a phone's column: nothing sticks out to the right.
        overflow = form.evaluate("f => f.scrollWidth - f.clientWidth")
        found.append(
            {"label": label, "said": _feedback(form), "expected": f"Right: {right.shown}.", "overflow": overflow}
        )
    return found


def test_every_selfcheck_on_the_site_accepts_its_answer(tour):
    """Every form of every page: the answer the library computed is accepted, on a phone-wide screen too."""
    forms = [(key[0], f) for key, found in tour.found("self-checks answered").items() for f in found]
    assert len(forms) >= 14, forms
    wrong = [(path, f) for path, f in forms if f["said"] != f["expected"] or f["overflow"] > 1]
    assert not wrong, wrong


#: Each answer box's and each figure's text box's border against what is behind it (WCAG 1.4.11: the border is
#: all that shows the field).
BORDERS = """() => {
  const rgb = (c) => { const m = c.match(/rgba?\\(([\\d.]+),\\s*([\\d.]+),\\s*([\\d.]+)(?:,\\s*([\\d.]+))?/); return m ? [+m[1], +m[2], +m[3], m[4] === undefined ? 1 : +m[4]] : null; };
  const lum = ([r, g, b]) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }; return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const contrast = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const behind = (el) => { for (let e = el.parentElement; e; e = e.parentElement) { const c = rgb(getComputedStyle(e).backgroundColor); if (c && c[3] > 0.5) return c; } return [255, 255, 255, 1]; };
  return Array.from(document.querySelectorAll("input.selfcheck-input, .irmeans-figure .vega-bindings input[type=text]"))
    .filter((el) => el.getBoundingClientRect().width)
    .map((el) => ({ field: el.name || el.id, contrast: Math.round(100 * contrast(rgb(getComputedStyle(el).borderTopColor), behind(el))) / 100 }));
}"""


@reading("answer box borders", widths=(1366,), stage="opened", pages=sitetools.made_from_a_notebook)
def _borders(page, where):
    return page.evaluate(BORDERS)


@pytest.mark.parametrize("mode", ["light", "dark"])
def test_every_answer_box_is_outlined_at_3_to_1(tour, mode):
    """The answer box's border, all that shows the field, was 1.33:1 on a light page and 2.25:1 on a dark one."""
    found = {key: f for key, f in tour.found("answer box borders").items() if key[2] == mode}
    boxes = [(key[0], f) for key, fields in found.items() for f in fields]
    assert len(boxes) >= 14, boxes
    faint = [(path, f) for path, f in boxes if f["contrast"] < 3]
    assert not faint, faint
