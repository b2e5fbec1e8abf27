"""Every control of every interactive figure changes what the figure shows; the numbers are the library's."""

from __future__ import annotations

import json

import pytest
from figure_checks import CHECKS, Figure, check_for
from test_site_figure_contrast import has_figures
from visit import open_page, reading


def _picture_and_signal(figure: Figure, name: str):
    return figure.js("picture"), json.dumps(figure.signal(name))


def _moves(figure: Figure, control: dict):
    """Ways a reader moves a control, tried in turn until one changes the figure."""
    locator = figure.control(control["name"])
    if control["kind"] == "checkbox":
        yield "clicked", lambda: locator.click()
    elif control["kind"] == "select":
        current = locator.evaluate("el => el.selectedIndex")
        for index, label in enumerate(control["options"]):
            if index != current:
                yield f"chose {label!r}", lambda index=index: locator.select_option(index=index)
    elif control["kind"] == "radio":
        for index in range(locator.count()):
            yield f"picked option {index + 1}", lambda index=index: locator.nth(index).check()
    elif control["kind"] == "text":  # a box for the reader's own scores: type some
        yield "typed 0.9, 0.8, 0.7", lambda: locator.fill("0.9, 0.8, 0.7")
    else:  # range: the keyboard moves it as a reader would
        at_max = locator.evaluate("el => +el.value >= +el.max")
        for key in (["ArrowLeft"] if at_max else ["ArrowRight"]) + ["Home", "End"]:
            yield f"pressed {key}", lambda key=key: (locator.focus(), figure.page.keyboard.press(key))


#: Until the live region under a figure says something new (it speaks a quarter of a second after the last change).
SAID_ANEW = """([id, before]) => {
  const region = document.getElementById(`${id}-now`);
  return Boolean(region) && region.textContent !== before && region.textContent.trim() !== "";
}"""


def exercise(figure: Figure) -> list[dict]:
    """Move each control of ``figure``; whether and how the figure's state and picture changed, and what its
    text alternative and its live region said before and after."""
    results = []
    for control in figure.controls():
        if control["kind"] == "radio" and any(r["name"] == control["name"] for r in results):
            continue
        result = {"control": control["name"], "kind": control["kind"], "changed": False, "move": None}
        for move, do in _moves(figure, control):
            before = _picture_and_signal(figure, control["name"])
            words = figure.js("words")
            do()
            figure.js("settle")
            after = _picture_and_signal(figure, control["name"])
            result["move"] = move
            if after[0] != before[0] and after[1] != before[1]:
                result["changed"] = True
                try:
                    figure.page.wait_for_function(SAID_ANEW, arg=[figure.id, words["now"]], timeout=10_000)
                except Exception:  # noqa: BLE001 - said nothing: recorded, and the test says so
                    pass
                result["words"] = {"before": words, "after": figure.js("words")}
                result["signals"] = {c["name"]: figure.signal(c["name"]) for c in figure.controls()}
                break
        results.append(result)
    return results


# Last on the tour (visit.py), at 1366 px: every control of every figure is moved, after every reading of
# the page as it loaded, and every library check that applies is run.
@reading("controls moved", widths=(1366,), modes=("dark",), stage="moved", pages=has_figures)
def _controls_moved(page, where):
    found = {}
    for figure_id in page.evaluate("() => window.irmeansTest.figureIds()"):
        figure = Figure(page, figure_id)
        check, result = check_for(figure), None
        controls = exercise(figure)
        if check is not None:
            try:
                result = (check.name, check.run(figure), None)
            except AssertionError as e:
                result = (check.name, [], str(e))
        found[figure_id] = {"controls": controls, "check": result, "usermeta": figure.usermeta()}
    return found


@pytest.fixture(scope="module")
def exercised(tour, output_dir):
    """Every control of every figure moved, and every applicable library check run, page by page."""
    controls, checks = {}, {}
    for (path, _, _), figures in tour.found("controls moved").items():
        for figure_id, found in figures.items():
            key = f"{path}#{figure_id}"
            controls[key] = found["controls"]
            if found["check"] is not None:
                checks[key] = found["check"]
    (output_dir / "figures.json").write_text(
        json.dumps({"controls": controls, "checks": checks}, indent=1), encoding="utf-8"
    )
    return controls, checks


def test_every_control_changes_its_figure(exercised):
    controls, _ = exercised
    assert any(controls.values()), "no figure has a control"
    stuck = [
        f"{key}: {c['control']} ({c['kind']}) — last tried: {c['move']}"
        for key, found in controls.items()
        for c in found
        if not c["changed"]
    ]
    assert not stuck, "controls that change nothing:\n" + "\n".join(stuck)


def _stored_words(usermeta: dict, signals: dict) -> str | None:
    """The state the figure's spec stores for these values of its controls (irmeans_book.plots.states)."""
    stored = usermeta.get("irmeans_states")
    if not stored:
        return None
    for row in stored["rows"]:
        values = [signals[name] for name in stored["controls"]]
        if all(
            abs(a - b) <= 1e-9 * max(1, abs(a)) if isinstance(a, float | int) and not isinstance(a, bool) else a == b
            for a, b in zip(values, row[:-1])
        ):
            return row[-1]
    return None


def test_every_figures_words_follow_its_controls_and_a_change_is_announced(tour):
    """A figure's description never changed when its controls moved: after TREC-5 was chosen in Fig. 9.1 it still
    described TREC-8, and read-outs ("Higher: system A") changed silently. Each control of each figure is moved:
    the figure's text alternative (on its element and its SVG) then says what it shows at the new setting (for a
    figure whose spec stores each setting's words, exactly those), and its live region says it."""
    moved, silent, wrong, stored = 0, [], [], 0
    for (path, _, _), figures in tour.found("controls moved").items():
        for figure_id, found in figures.items():
            meta = found["usermeta"]
            for c in found["controls"]:
                if not c["changed"]:
                    continue
                moved += 1
                where = f"{path}#{figure_id} {c['control']} ({c['move']})"
                before, after = c["words"]["before"], c["words"]["after"]
                if after["live"] != "polite" or not after["now"] or after["now"] == before["now"]:
                    silent.append(f"{where}: the live region said {after['now']!r} (before: {before['now']!r})")
                if after["label"] == before["label"] or after["svg"] != after["label"]:
                    wrong.append(f"{where}: the text alternative did not follow: {after['label'][-160:]!r}")
                said = _stored_words(meta, c["signals"])
                if said is not None:
                    stored += 1
                    if after["label"] != f"{meta['irmeans_overview']} {said}" or after["now"] != said:
                        wrong.append(f"{where}: {after['label'][-160:]!r} is not the stored {said!r}")
    assert moved >= 30 and stored >= 15, (moved, stored)
    assert not silent, "\n".join(silent)
    assert not wrong, "\n".join(wrong)


def test_figures_show_what_irmeans_computes(exercised):
    _, checks = exercised
    failed = {key: error for key, (_, _, error) in checks.items() if error}
    assert not failed, "\n".join(f"{key}: {error}" for key, error in failed.items())


def test_every_registered_check_found_its_figure(exercised):
    _, checks = exercised
    used = {name for name, _, _ in checks.values()}
    assert used == set(CHECKS), f"checks that found no figure on the site: {set(CHECKS) - used}"


def _titles(page, figure_id: str) -> list[str]:
    """The lines of the figure's titles as drawn."""
    return page.locator(
        f"#{figure_id} svg .role-title-text text, #{figure_id} svg .role-title-text tspan"
    ).evaluate_all("ts => ts.map(t => t.textContent.trim())")


@pytest.mark.parametrize(
    ("path", "control", "choice", "before", "after"),
    [
        ("chapters/03-scales.html", "scale", "log", "Each topic, as scored", "Each topic, on the log scale"),
        (
            "chapters/08-logit.html",
            "scale",
            "score",
            "Topic by topic on logit(score, ε),",
            "Topic by topic, as scored,",
        ),
    ],
)
def test_a_panel_title_names_the_scale_chosen(browser, base_url, path, control, choice, before, after):
    """Figs. 3.2 and 8.2 were titled "on the chosen scale", on the page and on a slide, whatever was chosen."""
    page, log = open_page(browser, base_url, path, viewport={"width": 1366, "height": 900})
    figure_id = next(
        f for f in page.evaluate("() => window.irmeansTest.figureIds()") if control in Figure(page, f).params()
    )
    assert before in _titles(page, figure_id), _titles(page, figure_id)
    Figure(page, figure_id).set(control, choice)
    assert after in _titles(page, figure_id), _titles(page, figure_id)
    assert not log.errors, log.errors
    page.context.close()
