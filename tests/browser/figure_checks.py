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
from collections.abc import Callable
from dataclasses import dataclass

import irmeans
import numpy as np
from irmeans_book import robertson
from scipy import stats


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
            control.evaluate(
                "(el, v) => { el.value = v; el.dispatchEvent(new Event('input', {bubbles: true})); }", str(value)
            )
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


def number(shown: str) -> float:
    """A number as a figure prints it (Vega's format writes a minus as "−")."""
    return float(shown.replace("\u2212", "-"))


def close(shown: str, expected: float) -> bool:
    """Whether ``shown`` is ``expected`` to the decimals it shows (half a unit of its last digit)."""
    decimals = len(shown.partition(".")[2])
    return math.isclose(number(shown), expected, abs_tol=0.5 * 10.0**-decimals + 1e-12)


def find(texts: list[dict], pattern: str) -> tuple[str, ...]:
    """The groups of the one text shown that matches ``pattern`` (from its start)."""
    found = [m for t in texts if (m := re.match(pattern, t["text"] or "")) is not None]
    assert len(found) == 1, f"{len(found)} texts shown match {pattern!r}: {[t['text'] for t in texts]}"
    return found[0].groups()


def expect(label: str, shown: str, expected: float) -> None:
    assert close(shown, expected), f"{label}: shown {shown}, irmeans {expected:.6f}"


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
            for mark in sorted(
                (m for m in shown if {"topic", "score"} <= m["datum"].keys()), key=lambda m: m["datum"]["topic"]
            ):
                scores.setdefault(mark["datum"]["system"], []).append(mark["datum"]["score"])
            assert set(scores) == {"A", "B"}, f"per-topic scores drawn: {scores}"
            assert math.isclose(scores["A"][-1], weakest), "A's last topic is not the slider's value"
            expected = {s: AVERAGES[average](v) for s, v in scores.items()}
            values = {
                m["datum"]["system"]: m["text"] for m in figure.texts() if re.fullmatch(r"-?\d+\.\d+", m["text"] or "")
            }
            assert values.keys() == expected.keys(), f"values shown: {values}"
            for system, value in values.items():
                assert close(value, expected[system]), (
                    f"{average} of {system} at weakest={weakest}: shown {value}, irmeans {expected[system]:.6f}"
                )
            winner = "A" if expected["A"] > expected["B"] else "B" if expected["B"] > expected["A"] else "tie"
            verdicts = [m["text"] for m in figure.texts() if m["text"].startswith("Higher")]
            assert verdicts == [f"Higher: system {winner}"], f"verdict shown {verdicts}, expected {winner}"
            lines.append(
                f"{average}, weakest={weakest:g}: A {values['A']}, B {values['B']}, "
                f"winner {winner} (irmeans {expected['A']:.4f}, {expected['B']:.4f})"
            )
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
        ([0, 0, 0, 1] + [0] * (depth - 4), 1),  # first relevant at rank 4: RR 1/4
        ([1] * 4 + [0] * (depth - 4), 2),  # R used is 4, not 2
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


# ----------------------------------------------------------------------------- chapter 3


def _per_system(marks: list[dict], field: str, key: str = "topic") -> dict[str, list[float]]:
    """``field`` of each system's marks, in the order of ``key``."""
    out: dict[str, list[float]] = {}
    for mark in sorted(marks, key=lambda m: m["datum"][key]):
        out.setdefault(mark["datum"]["system"], []).append(mark["datum"][field])
    return out


def _on_scale(scale: str, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Both systems' scores on chapter 3's scales, from their definitions."""
    if scale == "identity":
        return a, b
    if scale == "log":
        return np.log(a), np.log(b)
    if scale == "logit":
        return np.log(a / (1 - a)), np.log(b / (1 - b))
    if scale == "rank":  # ranks among the scores of both systems, ties sharing the average rank
        r = stats.rankdata(np.concatenate([a, b]))
        return r[: a.size], r[a.size :]
    raise AssertionError(f"no definition for the scale {scale!r}")


#: The mean of transformed scores mapped back to a score: what the figure names it, and irmeans' function.
MAPPED_BACK = {
    "identity": ("arithmetic mean", irmeans.arithmetic_mean),
    "log": ("geometric mean", irmeans.geometric_mean),
    "logit": ("logit mean", irmeans.logit_mean),
}


@figure_check("scales", params={"lowest", "scale"})
def scales(figure: Figure) -> list[str]:
    """The means on each scale, the winner and the mean mapped back, at three scores of A's last topic."""
    lines = []
    lo, hi = figure.bounds("lowest")
    for scale in figure.options("scale"):
        for lowest in (lo, 0.18, hi):  # 0.18: A's last score ties one of B's, so two ranks are shared
            figure.set("scale", scale)
            figure.set("lowest", lowest)
            points = [m for m in figure.shown() if {"topic", "score", "value"} <= m["datum"].keys()]
            scores = {s: np.array(v) for s, v in _per_system(points, "score").items()}
            assert set(scores) == {"A", "B"}, f"per-topic scores drawn: {scores}"
            assert math.isclose(scores["A"][-1], lowest), "A's last topic is not the slider's value"
            ta, tb = _on_scale(scale, scores["A"], scores["B"])
            drawn = _per_system(points, "value")
            assert np.allclose(drawn["A"], ta) and np.allclose(drawn["B"], tb), f"{scale} values drawn: {drawn}"
            ma, mb = irmeans.arithmetic_mean(ta), irmeans.arithmetic_mean(tb)
            texts = figure.texts()
            a, b = find(texts, r"Means: A (\S+), B (\S+)$")
            expect(f"mean of {scale} scores of A at lowest={lowest:g}", a, ma)
            expect(f"mean of {scale} scores of B at lowest={lowest:g}", b, mb)
            winner = "A" if ma > mb else "B" if mb > ma else "tie"
            assert find(texts, r"Higher on average: (\S+)$") == (winner,), f"{scale}, {lowest:g}: winner {winner}"
            line = f"{scale}, lowest={lowest:g}: means A {a}, B {b}, higher {winner}"
            (name,) = find(texts, r"Mapped back: (.+)$")
            if scale in MAPPED_BACK:
                back_name, back = MAPPED_BACK[scale]
                assert name == back_name, f"{scale} mapped back is the {back_name}, shown: {name}"
                a, b = find(texts, r"A (\S+), B (\S+)$")
                expect(f"{back_name} of A at lowest={lowest:g}", a, back(scores["A"]))
                expect(f"{back_name} of B at lowest={lowest:g}", b, back(scores["B"]))
                line += f"; {back_name} A {a}, B {b}"
            else:
                assert not [t for t in texts if re.match(r"A \S+, B \S+$", t["text"] or "")], (
                    "ranks have no way back, yet a mapped-back value is shown"
                )
            lines.append(line)
    return lines


# ----------------------------------------------------------------------------- chapter 4

#: The five topic scores of Ravana & Moffat (2009), Table 1, the systems chapter 4's figure starts from.
TABLE1_SCORES = {
    "S1": (0.1, 0.1, 0.3, 0.8, 0.1),
    "S2": (0.0, 0.4, 0.2, 0.4, 0.3),
    "S3": (0.1, 0.5, 0.3, 0.2, 0.2),
    "S4": (0.2, 0.2, 0.3, 0.2, 0.2),
}


def _harmonic_or_none(x, eps=0.0):
    try:
        return irmeans.harmonic_mean(x, eps=eps)
    except ValueError:  # a zero score and no ε: undefined
        return None


#: Chapter 4's six averages with ε = ``e`` where they take one; None where undefined.
SIX_AVERAGES = {
    "AM": lambda x, e: irmeans.arithmetic_mean(x),
    "GM": lambda x, e: irmeans.geometric_mean(x),
    "εGM": lambda x, e: irmeans.geometric_mean(x, eps=e),
    "HM": lambda x, e: _harmonic_or_none(x),
    "εHM": lambda x, e: _harmonic_or_none(x, eps=e),
    "MD": lambda x, e: irmeans.median(x),
}


@figure_check("six averages", params={"system", "first", "k"})
def six_averages(figure: Figure) -> list[str]:
    """AM, GM, εGM, HM, εHM and MD of the five scores drawn, and ε, at four settings."""
    assert figure.options("system") == list(TABLE1_SCORES), figure.options("system")
    lines = []
    # S1 with topic 1 at 0.75: GM 0.282523, which a value rounded to 4 decimals before printing 3 shows as 0.282.
    for system, first, k in (
        ("S2", 0.0, -2.0),
        ("S3", 0.35, -1.5),
        ("S1", 0.0, 0.5),
        ("S4", 1.0, -4.0),
        ("S1", 0.75, -4.0),
    ):
        figure.set("system", system)
        figure.set("first", first)
        figure.set("k", k)
        bars = [m for m in figure.shown() if m["marktype"] == "rect" and {"topic", "score"} <= m["datum"].keys()]
        scores = [m["datum"]["score"] for m in sorted(bars, key=lambda m: m["datum"]["topic"])]
        assert np.allclose(scores, (first, *TABLE1_SCORES[system][1:])), f"{system}, first={first}: drawn {scores}"
        texts = figure.texts()
        shown = {m["datum"]["average"]: m["text"] for m in texts if "average" in m["datum"]}
        assert sorted(shown) == sorted(SIX_AVERAGES), f"averages shown: {shown}"
        eps = 10.0**k
        for name, value in shown.items():
            expected = SIX_AVERAGES[name](scores, eps)
            if expected is None:
                assert value == "undefined", f"{name} of {scores} is undefined, shown {value}"
            else:
                expect(f"{name} of {scores} with ε = {eps:g}", value, expected)
        (e,) = find(texts, r"ε = (\S+) \(in εGM and εHM\)")
        assert math.isclose(number(e), eps, rel_tol=5e-4), f"ε shown {e}, slider at 10^{k}"
        lines.append(f"{system}, topic 1 = {first:g}, ε = {e}: " + ", ".join(f"{n} {v}" for n, v in shown.items()))
    return lines


# ----------------------------------------------------------------------------- chapter 5

#: GMAP's ε in Robertson (2006), and in chapters 5 and 7.
GMAP_EPS = 1e-5


@figure_check("boost", params={"amount", "which"})
def boost(figure: Figure) -> list[str]:
    """MAP and GMAP of Robertson's 50 scores after the boost, and their gains, as irmeans computes them."""
    ap = robertson.load_example()
    base_map, base_gmap = irmeans.arithmetic_mean(ap), irmeans.geometric_mean(ap, eps=GMAP_EPS)
    lines = []
    for which, amount in (
        ("lowest 25", 0.05),
        ("highest 25", 0.1),
        ("all 50", 0.025),
        ("all 50", 0.0),  # no boost: the scores as they are
        ("lowest 25", 0.005),
    ):
        figure.set("which", which)
        figure.set("amount", amount)
        boosted = robertson.boost(ap, amount, which.split()[0])
        m, g = irmeans.arithmetic_mean(boosted), irmeans.geometric_mean(boosted, eps=GMAP_EPS)
        texts = figure.texts()
        shown = find(texts, r"MAP (\S+) \((\S+)\),\s+GMAP (\S+) \((\S+)\)")
        for label, value, expected in zip(
            ("MAP", "MAP gain", "GMAP", "GMAP gain"), shown, (m, m - base_map, g, g - base_gmap)
        ):
            expect(f"{label} after +{amount:g} to {which}", value, expected)
        for label, expected in (("MAP", m), ("GMAP", g)):
            # The label of the histogram's rule, in two lines: its text is the array ["MAP", "0.334"].
            (value,) = find(texts, rf"{label},(\S+)$")
            expect(f"{label} marked on the histogram after +{amount:g} to {which}", value, expected)
        counts = [b["datum"]["count"] for b in figure.shown() if b["marktype"] == "rect" and "count" in b["datum"]]
        assert sum(counts) == ap.size, f"the histogram counts {sum(counts)} topics"
        lines.append(
            f"+{amount:g} to {which}: MAP {shown[0]} ({shown[1]}), GMAP {shown[2]} ({shown[3]}) "
            f"(irmeans {m:.4f}, {g:.4f})"
        )
    return lines


# ----------------------------------------------------------------------------- chapter 6


@figure_check("epsilon", params={"log10_eps", "data_set"})
def epsilon(figure: Figure) -> list[str]:
    """The additive and floor ε-geometric means and the arithmetic mean, at four ε on both data sets."""
    data = {
        "S2 (Ravana & Moffat)": np.array(TABLE1_SCORES["S2"]),
        "Boost example (chapter 5)": robertson.load_example(),
    }
    assert figure.options("data_set") == list(data), figure.options("data_set")
    lines = []
    for name, log10_eps in ((n, e) for n in data for e in (-8.0, -5.0, -2.0, -0.5)):
        figure.set("data_set", name)
        figure.set("log10_eps", log10_eps)
        x, eps = data[name], 10.0**log10_eps
        e, add, floor, am = find(figure.texts(), r"ε = (\S+):\s+additive (\S+),\s+floor (\S+),\s+arithmetic (\S+)")
        assert math.isclose(number(e), eps, rel_tol=0.05), f"ε shown {e}, slider at 10^{log10_eps}"
        expect(f"additive εGM of {name}, ε = {eps:g}", add, irmeans.geometric_mean(x, eps=eps, form="add"))
        expect(f"floor εGM of {name}, ε = {eps:g}", floor, irmeans.geometric_mean(x, eps=eps, form="floor"))
        expect(f"arithmetic mean of {name}", am, irmeans.arithmetic_mean(x))
        lines.append(f"{name}, ε = {e}: additive {add}, floor {floor}, arithmetic {am}")
    return lines


# ----------------------------------------------------------------------------- chapter 7


@figure_check("verdicts", params={"gain", "loss"})
def verdicts(figure: Figure) -> list[str]:
    """MAP, GMAP and the paired t-tests of the changed scores against the baseline, at five settings."""
    from irmeans_book.chapters.ch07_map_gmap_mrr import feedback_scores  # the change the chapter defines

    base = robertson.load_example()
    order = np.argsort(base, kind="stable")  # the figure's topics, hardest first
    lines = []
    # At gain 0.15, loss 0.5 the t on the logs is −2.84499: rounded to 4 decimals before printing 2 it reads −2.85.
    for gain, loss in ((0.2, 0.3), (0.5, 0.1), (1.0, 0.95), (0.05, 0.6), (0.35, 0.0), (0.15, 0.5)):
        figure.set("gain", gain)
        figure.set("loss", loss)
        new = feedback_scores(base, gain, loss)
        dots = [m for m in figure.shown() if m["marktype"] == "symbol" and {"new", "baseline"} <= m["datum"].keys()]
        drawn = np.array(
            [
                [float(m["datum"]["baseline"]), float(m["datum"]["new"])]
                for m in sorted(dots, key=lambda m: m["datum"]["topic"])
            ]
        )
        assert drawn.shape == (base.size, 2), f"{len(dots)} topics drawn"
        assert np.allclose(drawn[:, 0], base[order]) and np.allclose(drawn[:, 1], new[order], atol=5e-5), (
            f"gain {gain}, loss {loss}: per-topic scores drawn differ from the change's"
        )
        texts = figure.texts()
        shown = {
            "MAP": find(texts, r"MAP\s+(\S+) → (\S+)$"),
            "GMAP": find(texts, r"GMAP\s+(\S+) → (\S+)$"),
            "t-test on AP": find(texts, r"t on AP:\s+(\S+), p = (\S+)$"),
            "t-test on log(AP+ε)": find(texts, r"t on log:\s+(\S+), p = (\S+)$"),
        }
        t_ap = stats.ttest_rel(new, base)
        t_log = stats.ttest_rel(np.log(new + GMAP_EPS), np.log(base + GMAP_EPS))
        expected = {
            "MAP": (irmeans.arithmetic_mean(base), irmeans.arithmetic_mean(new)),
            "GMAP": (irmeans.geometric_mean(base, eps=GMAP_EPS), irmeans.geometric_mean(new, eps=GMAP_EPS)),
            "t-test on AP": (t_ap.statistic, t_ap.pvalue),
            "t-test on log(AP+ε)": (t_log.statistic, t_log.pvalue),
        }
        for label, values in shown.items():
            for part, value, want in zip(
                ("baseline", "new") if "MAP" in label else ("t", "p"), values, expected[label]
            ):
                expect(f"{label} {part} at gain {gain}, loss {loss}", value, want)
        lines.append(f"gain {gain}, loss {loss}: " + "; ".join(f"{k} {' / '.join(v)}" for k, v in shown.items()))
    return lines


# ----------------------------------------------------------------------------- chapter 8


def _log(x, eps):
    return np.log(np.asarray(x, dtype=float) + eps)


def _logit(x, eps):
    """The scale of irmeans.logit_mean: log((x + ε) / (1 − x + ε))."""
    x = np.asarray(x, dtype=float)
    return np.log(x + eps) - np.log1p(-x + eps)


@figure_check("log and logit", params={"eps"})
def log_and_logit(figure: Figure) -> list[str]:
    """Both curves at the scores 0 and 1, and the marked points, for every ε of the select."""
    lines = []
    for label in figure.options("eps"):
        figure.set("eps", label)
        eps = float(label)
        shown = figure.shown()
        for m in (m for m in shown if m["marktype"] == "symbol"):
            d = m["datum"]
            y = {"log": _log, "logit": _logit}[d["scale"]](d["x"], eps)
            assert math.isclose(d["y"], y, abs_tol=1e-9), f"ε = {label}: {d['scale']} of {d['x']} drawn at {d['y']}"
        e, log0, logit0, log1, logit1 = find(
            [m for m in shown if m["marktype"] == "text"],
            r"ε = (\S+):\s+score 0 → log (\S+), logit (\S+);\s+score 1 → log (\S+), logit (\S+)$",
        )
        assert math.isclose(number(e), eps), f"ε shown {e}, chosen {label}"
        for name, value, expected in (
            ("log(0 + ε)", log0, _log(0, eps)),
            ("logit(0, ε)", logit0, _logit(0, eps)),
            ("log(1 + ε)", log1, _log(1, eps)),
            ("logit(1, ε)", logit1, _logit(1, eps)),
        ):
            expect(f"{name}, ε = {label}", value, expected)
        lines.append(f"ε = {e}: score 0 → log {log0}, logit {logit0}; score 1 → log {log1}, logit {logit1}")
    return lines


#: Chapter 8's three averages, each the arithmetic mean on a scale.
THREE_AVERAGES = {
    "arithmetic mean": lambda x, eps: irmeans.arithmetic_mean(x),
    "geometric mean": lambda x, eps: irmeans.geometric_mean(x, eps=eps),
    "logit mean": lambda x, eps: irmeans.logit_mean(x, eps=eps),
}
SCALES = {"score": lambda x, eps: np.asarray(x, dtype=float), "log(score + ε)": _log, "logit(score, ε)": _logit}


@figure_check("three averages", params={"dataset", "scale", "eps"})
def three_averages(figure: Figure) -> list[str]:
    """The scores drawn on each scale, and both systems' three averages and the higher, per data set and ε."""
    assert figure.options("scale") == list(SCALES), figure.options("scale")
    labels = figure.options("eps")
    lines = []
    for dataset in figure.options("dataset"):
        for label in (labels[0], labels[len(labels) // 2], labels[-1]):
            figure.set("dataset", dataset)
            figure.set("eps", label)
            eps = float(label)
            scores = None
            for scale, on_scale in SCALES.items():
                figure.set("scale", scale)
                dots = [m for m in figure.shown() if m["marktype"] == "symbol" and "topic" in m["datum"]]
                drawn = {s: np.array(v) for s, v in _per_system(dots, "value").items()}
                assert set(drawn) == {"X", "Y"}, f"systems drawn: {set(drawn)}"
                if scores is None:  # the first scale is the scores themselves
                    scores = drawn
                for s, x in scores.items():
                    assert np.allclose(drawn[s], on_scale(x, eps), atol=5e-6), f"{dataset}, {scale}: {s} drawn"
            shown = {m["datum"]["average"]: m["text"] for m in figure.texts() if "average" in m["datum"]}
            assert sorted(shown) == sorted(THREE_AVERAGES), f"averages shown: {shown}"
            for average, text in shown.items():
                verdict, x, y = re.fullmatch(r"(a tie|higher: [XY]),X (\S+),Y (\S+)", text).groups()
                want = {s: THREE_AVERAGES[average](v, eps) for s, v in scores.items()}
                expect(f"{average} of X, {dataset}, ε = {label}", x, want["X"])
                expect(f"{average} of Y, {dataset}, ε = {label}", y, want["Y"])
                higher = "X" if want["X"] > want["Y"] else "Y" if want["Y"] > want["X"] else None
                assert verdict == (f"higher: {higher}" if higher else "a tie"), f"{average}: {verdict}, {want}"
                lines.append(f"{dataset}, ε = {label}, {average}: X {x}, Y {y}, {verdict}")
    return lines


# ----------------------------------------------------------------------------- more checks, in their own modules

#: Modules of more checks, registered with :func:`figure_check` like the ones above; each is imported if present.
MORE_CHECKS = ("figure_checks_real_data",)

for _module in MORE_CHECKS:
    try:
        __import__(_module)
    except ModuleNotFoundError as _missing:
        if _missing.name != _module:
            raise
