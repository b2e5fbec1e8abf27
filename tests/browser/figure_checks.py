"""What the book's interactive figures must show, checked against ``irmeans`` in the browser.

A check is a function of a :class:`Figure` (a figure on an open page) that
sets the figure's controls through their real input elements, reads what the
figure then shows, and compares it with the library; it returns one line per
setting it compared, for the test's report, and raises ``AssertionError``
on a mismatch.

A figure is given to a check in one of two ways:

- its spec names the check: ``usermeta = {"irmeans_check": "<name>"}``
  (Altair: ``chart.properties(usermeta={"irmeans_check": "<name>"})``);
- or, with no such name, its controls are exactly the parameters the check
  declares (``params``) or satisfy its ``match``.

Every registered check must find at least one figure on the site.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Callable

import irmeans

TOLERANCE = 5e-4  # the figures print three decimals


@dataclass
class Figure:
    """An interactive figure on an open page, driven like a reader would."""

    page: object
    id: str

    def js(self, function: str, *args):
        return self.page.evaluate(f"([id, ...args]) => window.irmeansTest.{function}(id, ...args)", [self.id, *args])

    def control(self, name: str):
        return self.page.locator(f"#{self.id} .vega-bindings [name='{name}']")

    def controls(self) -> list[dict]:
        return self.js("controls")

    def params(self) -> set[str]:
        return {c["name"] for c in self.controls()}

    def usermeta(self) -> dict:
        return self.js("usermeta")

    def set(self, name: str, value) -> None:
        """Set a control to ``value`` through its input element, and wait for the figure to redraw."""
        control = self.control(name)
        kind = control.first.evaluate("el => el.tagName === 'SELECT' ? 'select' : el.type")
        if kind == "checkbox":
            control.set_checked(bool(value))
        elif kind == "select":
            control.select_option(label=str(value))
        elif kind == "radio":
            self.page.locator(f"#{self.id} .vega-bindings [name='{name}'][value='{value}']").check()
        else:  # a range: what a drag does, one input event at the new value
            control.evaluate("(el, v) => { el.value = v; el.dispatchEvent(new Event('input', {bubbles: true})); }",
                             str(value))
        self.js("settle")

    def bounds(self, name: str) -> tuple[float, float]:
        """A range control's least and greatest value."""
        lo, hi = self.control(name).evaluate("el => [el.min, el.max]")
        return float(lo), float(hi)

    def options(self, name: str) -> list[str]:
        return self.control(name).evaluate("el => Array.from(el.options).map(o => o.text)")

    def signal(self, name: str):
        return self.js("signal", name)

    def shown(self) -> list[dict]:
        """Marks drawn from the data: ``marktype``, ``text`` (for text marks) and ``datum``."""
        return self.js("shown")

    def texts(self) -> list[dict]:
        return [m for m in self.shown() if m["marktype"] == "text"]


@dataclass
class Check:
    name: str
    run: Callable[[Figure], list[str]]
    params: frozenset[str] | None = None
    match: Callable[[set[str]], bool] | None = None

    def applies_to(self, figure_check: str | None, params: set[str]) -> bool:
        if figure_check is not None:
            return figure_check == self.name
        if self.params is not None:
            return params == self.params
        return self.match is not None and self.match(params)


CHECKS: dict[str, Check] = {}


def figure_check(name: str, params: set[str] | None = None, match=None):
    """Register a check under ``name``, for figures naming it or having these controls."""
    def register(run):
        CHECKS[name] = Check(name, run, frozenset(params) if params else None, match)
        return run
    return register


def check_for(figure: Figure) -> Check | None:
    """The check that applies to ``figure``, if any (a named but unknown check is an error)."""
    named = figure.usermeta().get("irmeans_check")
    if named is not None and named not in CHECKS:
        raise AssertionError(f"figure {figure.id} names the check {named!r}, which is not registered")
    found = [c for c in CHECKS.values() if c.applies_to(named, figure.params())]
    assert len(found) <= 1, f"figure {figure.id} matches several checks: {[c.name for c in found]}"
    return found[0] if found else None


def close(shown: str, expected: float) -> bool:
    return math.isclose(float(shown), expected, abs_tol=TOLERANCE)


# ----------------------------------------------------------------------------- chapter 1

#: The averages offered by chapter 1's select, as the library computes them.
AVERAGES = {
    "arithmetic mean": irmeans.arithmetic_mean,
    "geometric mean": irmeans.geometric_mean,
    "harmonic mean": irmeans.harmonic_mean,
    "median": irmeans.median,
}


@figure_check("averages", params={"weakest", "average"})
def averages(figure: Figure) -> list[str]:
    """Each average of the systems' per-topic scores as drawn, at both ends of the slider."""
    lines = []
    for average in figure.options("average"):
        assert average in AVERAGES, f"no irmeans function for the average {average!r}"
        for weakest in figure.bounds("weakest"):
            figure.set("average", average)
            figure.set("weakest", weakest)
            shown = figure.shown()
            scores = {}
            for mark in sorted((m for m in shown if {"topic", "score"} <= m["datum"].keys()),
                               key=lambda m: m["datum"]["topic"]):
                scores.setdefault(mark["datum"]["system"], []).append(mark["datum"]["score"])
            assert set(scores) == {"A", "B"}, f"per-topic scores drawn: {scores}"
            assert math.isclose(scores["A"][-1], weakest), "A's last topic is not the slider's value"
            expected = {s: AVERAGES[average](v) for s, v in scores.items()}
            values = {m["datum"]["system"]: m["text"] for m in figure.texts()
                      if re.fullmatch(r"-?\d+\.\d+", m["text"] or "")}
            assert values.keys() == expected.keys(), f"values shown: {values}"
            for system, value in values.items():
                assert close(value, expected[system]), (
                    f"{average} of {system} at weakest={weakest}: shown {value}, irmeans {expected[system]:.6f}")
            winner = "A" if expected["A"] > expected["B"] else "B" if expected["B"] > expected["A"] else "tie"
            verdicts = [m["text"] for m in figure.texts() if m["text"].startswith("Higher")]
            assert verdicts == [f"Higher: system {winner}"], f"verdict shown {verdicts}, expected {winner}"
            lines.append(f"{average}, weakest={weakest:g}: A {values['A']}, B {values['B']}, "
                         f"winner {winner} (irmeans {expected['A']:.4f}, {expected['B']:.4f})")
    return lines


# ----------------------------------------------------------------------------- chapter 2


def _is_ranking_figure(params: set[str]) -> bool:
    ranks = params - {"R"}
    return "R" in params and bool(ranks) and ranks == {f"rank{k}" for k in range(1, len(ranks) + 1)}


def _expected_measure(label: str, rels: list[int], R: int) -> float:
    if (at := re.fullmatch(r"P@(\d+)", label)) is not None:
        return irmeans.precision_at(rels, int(at.group(1)))
    return {
        "R-precision": lambda: irmeans.r_precision(rels, R),
        "AP": lambda: irmeans.average_precision(rels, num_relevant=R),
        "RR": lambda: irmeans.reciprocal_rank(rels),
    }[label]()


@figure_check("ranking", match=_is_ranking_figure)
def ranking(figure: Figure) -> list[str]:
    """P@k, R-precision, AP and RR of the ticked ranks and R, as irmeans computes them."""
    depth = len(figure.params()) - 1
    initial = [int(figure.signal(f"rank{k}")) for k in range(1, depth + 1)]
    settings = [
        (initial, int(figure.signal("R"))),
        ([1, 1, 0, 0, 1] + [0] * (depth - 6) + [1], depth - 2),
        ([0] * depth, 3),
        ([0, 0, 0, 1] + [0] * (depth - 4), 1),   # first relevant at rank 4: RR 1/4
        ([1] * 4 + [0] * (depth - 4), 2),       # R used is 4, not 2
    ]
    lines = []
    for rels, R in settings:
        for k, rel in enumerate(rels, start=1):
            figure.set(f"rank{k}", rel)
        figure.set("R", R)
        used = max(R, sum(rels), 1)
        texts = figure.texts()
        measures = {m["datum"]["measure"]: m["text"] for m in texts if "measure" in m["datum"]}
        assert measures, "no measure shown"
        for label, value in measures.items():
            expected = _expected_measure(label, rels, used)
            assert close(value, expected), f"{label} of {rels} with R={used}: shown {value}, irmeans {expected:.6f}"
        r_text = [m["text"] for m in texts if m["text"].startswith("R used")]
        assert r_text == [f"R used: {used}"], f"shown {r_text}, expected R used: {used}"
        ticked = "".join(map(str, rels))
        lines.append(f"ranks {ticked}, R={R} (used {used}): " + ", ".join(f"{k} {v}" for k, v in measures.items()))
    return lines
