"""The report of a :class:`~irmeans.comparison.result.Comparison` for people: results first, then the notes.

The text report opens with one line saying what was compared, then gives the results: a
verdict in words for each pair, the differences, the tests; the notes (the scale of each
t-test, the Holm family, the randomization test's floor and which test marks the verdicts,
the intervals, Robertson's check) come after them. It is at most :data:`WIDTH` columns wide,
counted as a terminal counts them, and never breaks a line inside a number and its label
("Holm p = 0.13"), an interval or a name: a word wider than the line stands alone on a line
of its own. Where names are too wide for a table's row, each pair is named on a line above
its rows.

Each pair is turned so that the system the first average prefers comes first and its
differences are positive (unless a baseline was given: then each system comes first, against
the baseline); several measures' reports share the first measure's order. Every interval is
said to be unadjusted (the bootstrap's, for that one comparison) and every p-value said raw or
Holm-adjusted, and where an interval and the marking test disagree (an interval that excludes
0 beside a test that does not mark the difference, or the reverse) the verdict says so in words.

The Markdown and LaTeX reports are the same three tables (verdicts, differences, tests), each
with its notes as its caption. CSV, JSON and the DataFrame keep A and B as given and every
column, under their own names.

>>> import irmeans
>>> scores = {"A": {"1": 0.0, "2": 0.8, "3": 0.8, "4": 0.8}, "B": {"1": 0.4, "2": 0.4, "3": 0.4, "4": 0.4}}
>>> report = text_report(irmeans.compare(scores, ["am"], bootstrap=200))
>>> print(report.split("# Tests")[1].splitlines()[2])
A  B  am       1.00  0.391  0.391      0.625  0.625
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._display import GLUE, shown, width, wrap
from .significance import FLOOR_SHARE
from .tables import Table, counted, sentence, text_lines

# A Comparison is typed as Any here: its module imports this one, and the library's modules form no cycle.
Comparison = Any

__all__ = [
    "text_report",
    "runs_label",
    "glued_label",
    "verdict_lines",
    "report_tables",
    "turned_pairs",
    "notes",
    "p_text",
    "robust_cell",
    "WIDTH",
]

#: The widest line of the report.
WIDTH = 100

_TESTS = {"randomization": "the randomization test", "t": "the t-test on each average's scale", "sign": "the sign test"}


def _glued(text: str) -> str:
    """A name or a label, shown, that no line may break inside."""
    return shown(text).replace(" ", GLUE)


#: Between the runs and the qrels' path in the label of scores the command line evaluated (:func:`runs_label`).
_AGAINST = " runs against "


def runs_label(measure: str, runs: int, qrels: str) -> str:
    """The label of the scores of ``runs`` runs evaluated by ``measure`` against the qrels at ``qrels``: a report
    breaks its lines between its words, never inside the path.

    >>> runs_label("map", 3, "examples/qrels.txt")
    'map of 3 runs against examples/qrels.txt'
    """
    return f"{measure} of {runs}{_AGAINST}{qrels}"


def glued_label(label: str) -> str:
    """A matrix's label for the text's lines: a name glued whole, a :func:`runs_label` glued in its path alone.

    >>> glued_label("map of 3 runs against my runs/qrels.txt").split(" ")[-1] == "my" + GLUE + "runs/qrels.txt"
    True
    """
    head, against, path = label.partition(_AGAINST)
    return f"{shown(head)}{against}{_glued(path)}" if against else _glued(label)


def _wrap(text: str, first: str = "# ", rest: str = "#   ") -> list[str]:
    return wrap(text, WIDTH, first, rest)


def p_text(p: float) -> str:
    """A p-value to read: three significant digits; below the smallest double as such, not 0.

    >>> p_text(0.012345), p_text(0.0), p_text(float("nan"))
    ('0.0123', '<1e-300', '-')
    """
    if math.isnan(p):
        return "-"
    return "<1e-300" if p < 1e-300 else f"{p:.3g}"


def turned_pairs(c: Comparison) -> np.ndarray:
    """Pairs shown the other way round (B first), (pairs,): without a baseline, where the first average prefers B.

    >>> import irmeans
    >>> c = irmeans.compare({"A": {"1": 0.1, "2": 0.2}, "B": {"1": 0.3, "2": 0.5}}, ["am"], bootstrap=10)
    >>> turned_pairs(c).tolist()
    [True]
    """
    if c.baseline is not None:
        return np.zeros(c.first.size, dtype=bool)
    return np.asarray(c.better[0] < 0)


def _what(c: Comparison) -> str:
    """What was compared, in a line: the scores, their size, the pairs and their order."""
    m = c.matrix
    n_pairs = c.first.size
    if c.baseline:
        what = f"each system against {_glued(c.baseline)} (system first)"
    else:
        what = f"all {n_pairs:,} pairs" if n_pairs > 1 else "one pair"
        what += f", the system the {c.averages[0].label} prefers first"
    return f"{glued_label(m.label or 'scores')}, {m.shape[0]} systems x {m.shape[1]} topics; {what}"


def _family(c: Comparison) -> str:
    n_pairs = c.first.size
    if c.holm_family is None:
        pairs = counted(n_pairs, "pair")
        return f"{pairs} x {counted(len(c.averages), 'average')}; the sign test over the {pairs}"
    return (
        f"of every measure compared together: {counted(n_pairs, 'pair')} x {counted(len(c.averages), 'average')} "
        "a measure; the sign test over the pairs of every measure"
    )


def _flips(c: Comparison) -> str:
    return (
        f"all {c.permutations:,} sign vectors (exact)"
        if c.exact
        else f"{c.permutations:,} random sign vectors (seed {c.seed})"
    )


def notes(c: Comparison) -> dict[str, list[str]]:
    """What the report's numbers mean, a list of sentences for each of its parts: ``verdicts`` (what was
    compared, the test that marks the verdicts, Robertson's check), ``differences`` (units and intervals) and
    ``tests`` (scales, the randomization test's floor, Holm's family).

    Examples
    --------
    >>> import irmeans
    >>> c = irmeans.compare({"A": {"1": 0.1, "2": 0.3, "3": 0.2}, "B": {"1": 0.2, "2": 0.1, "3": 0.1}}, ["am"])
    >>> print(notes(c)["tests"][0])
    Each t-test runs on the average's scale: AM on x
    """
    return {part: [note.replace(GLUE, " ") for note in said] for part, said in _notes(c).items()}


def _notes(c: Comparison) -> dict[str, list[str]]:
    """:func:`notes`, names and labels joined by :data:`~irmeans._display.GLUE` (for the text's lines)."""
    scales = "; ".join(
        f"{a.label} on {a.scale}" if not np.isnan(c.tests.p_t[k]).all() else f"{a.label}: none (no finite scale)"
        for k, a in enumerate(c.averages)
    )
    level = f"{c.confidence:.0%}"
    robertson = (
        "Robertson's check names the first transformation of the scores that reverses the AM's verdict ("
        + ", ".join(c.family)
        + f"); it counts a reversal as substantial only when the reversed difference's own {level} interval "
        "excludes 0, a reading of irmeans' own: Robertson asks only whether transformations that would change "
        "the conclusions substantially are easy to find"
    )
    return {
        "verdicts": [
            f"Compared: {_what(c)}",
            _marking(c),
            "Sign test: the topics A wins, loses and ties, and its p, Holm-adjusted over the pairs",
            robertson,
        ],
        "differences": [
            "Differences are A - B in each average's own units (a GM's and a logit mean's mapped back to scores)",
            f"{level} bootstrap intervals over {c.bootstrap:,} resamples of the topics, each unadjusted: the "
            f"interval of one comparison, not corrected for the {counted(c.comparisons, 'comparison')} made",
        ],
        "tests": [
            f"Each t-test runs on the average's scale: {scales}",
            f"Randomization test: {_flips(c)}; its smallest possible p is {c.p_floor:.3g}, {c.p_floor_holm:.3g} "
            "after Holm (^ marks a p on it)",
            f"The tests' p-values raw, and Holm-adjusted over the {counted(c.comparisons, 'comparison')} of each "
            f"test ({_family(c)})",
        ],
    }


def _marking(c: Comparison) -> str:
    """Which test marks the verdicts, and why when it was not the one asked for or cannot reach α."""
    said = f"Verdicts are marked by {_TESTS[c.test]}, Holm-adjusted p < {c.alpha:g}"
    floor_high = c.p_floor_holm > FLOOR_SHARE * c.alpha
    if c.test == "randomization" or not floor_high:
        if c.test == "randomization" and floor_high:
            return said + (
                f". Warning: its smallest Holm-adjusted p, {c.p_floor_holm:.3g}, is not well below α: "
                + _how_to_lower(c)
            )
        return said + "."
    why = f"the randomization test's smallest Holm-adjusted p, {c.p_floor_holm:.3g}, is not well below α"
    return said + (f", since {why}: {_how_to_lower(c)}" if c.requested_test == "auto" else ".")


def _how_to_lower(c: Comparison) -> str:
    if c.exact:
        return f"its {c.permutations:,} sign vectors are every one there is for {c.matrix.shape[1]} topics."
    needed = math.ceil(c.comparisons / (FLOOR_SHARE * c.alpha)) - 1
    return f"-n {needed:,} (sign vectors) would bring it to {FLOOR_SHARE:g} α."


def robust_cell(v: Any) -> str:
    """Robertson's check of a :class:`~irmeans.comparison.verdicts.Verdict` in a few words: the first
    transformation that reverses it, and how.

    >>> import irmeans
    >>> c = irmeans.compare({"A": {"1": 0.0, "2": 0.8, "3": 0.8, "4": 0.8},
    ...                      "B": {"1": 0.4, "2": 0.4, "3": 0.4, "4": 0.4}}, ["am"], bootstrap=200)
    >>> robust_cell(c.verdicts()[0])
    'yes, log(x + 1e-05) within noise'
    """
    if v.reversed_by is None:
        return "yes" if v.robust else "no, the AM ties them"
    return f"no, {v.reversed_by} reverses it" if v.substantial else f"yes, {v.reversed_by} within noise"


def _number(x: float, digits: int) -> str:
    return f"{x:+.{digits}f}"


def _tie(*words: str) -> str:
    return GLUE.join(words)


@dataclass(frozen=True)
class _Said:
    """What one average says of one pair, the pair turned as shown: the difference, its unadjusted interval, the
    marking test's Holm-adjusted p, whether it is marked, and whether that p is the test's floor."""

    difference: float
    low: float
    high: float
    p: float
    marked: bool
    floor: bool


def _average_words(said: _Said, label: str, a: str, b: str, level: str, test: str, digits: int) -> str:
    """One average's verdict on a pair, with its numbers and, where the interval and the marking test disagree,
    a sentence that says so."""
    d, lo, hi, p = said.difference, said.low, said.high, said.p
    interval = "unadjusted " + _tie(level, "CI", _number(lo, digits), "to", _number(hi, digits))
    numbers = f"{_number(d, digits)}, {interval}, {_tie('Holm', 'p', '=', p_text(p))}"
    excludes = lo > 0 or hi < 0
    if math.isnan(p):
        ahead = a if d > 0 else b
        return f"{ahead} ahead under the {label}, untested: {_TESTS[test]} does not apply to it ({numbers})"
    if said.marked:
        better, worse = (a, b) if d > 0 else (b, a)
        words = f"{better} is better than {worse} under the {label} ({numbers}"
        if said.floor:
            words += ", on the test's floor: no smaller p was possible"
        if not excludes:
            words += "; the test, Holm-adjusted, marks it though the unadjusted interval holds 0"
        return words + ")"
    if said.floor:  # not marked, but no p could be smaller with these sign vectors
        ahead = a if d > 0 else b
        return (
            f"{ahead} ahead under the {label}, unresolved: its p is the test's floor, which more sign "
            f"vectors (-n) would lower ({numbers})"
        )
    words = f"no clear difference under the {label} ({numbers}"
    if excludes:
        words += "; the unadjusted interval excludes 0, but the test, Holm-adjusted, does not mark it"
    return words + ")"


def verdict_lines(c: Comparison, digits: int = 4, turned: np.ndarray | None = None) -> list[str]:
    """A verdict in words for each pair, wrapped at :data:`WIDTH` columns.

    Which system each average finds better (or no clear difference), with the difference, its
    unadjusted interval and the marking test's Holm-adjusted p, and a word where the interval
    and the test disagree; whether the averages disagree; Robertson's check; the sign test.

    Parameters
    ----------
    c : Comparison
    digits : int, default 4
        Decimals of the differences and intervals.
    turned : ndarray of bool, shape (pairs,), optional
        The pairs to show B first; by default :func:`turned_pairs`.

    Returns
    -------
    list of str

    Examples
    --------
    >>> import irmeans
    >>> c = irmeans.compare({"A": {"1": 0.5, "2": 0.6, "3": 0.7}, "B": {"1": 0.1, "2": 0.2, "3": 0.2}}, ["am"])
    >>> print(verdict_lines(c)[0])
    A vs B: A is better than B under the AM (+0.4333, unadjusted 95% CI +0.4000 to +0.5000,
    """
    names = [_glued(n) for n in c.matrix.systems]
    labels = [_glued(a.label) for a in c.averages]
    level = f"{c.confidence:.0%}"
    turned = turned_pairs(c) if turned is None else turned
    # every derived array once, not once a pair, and each pair's numbers turned with it
    signs = np.where(turned, -1.0, 1.0)
    marked = c.significant
    on_floor = c.on_floor() if c.test == "randomization" else np.zeros(marked.shape, dtype=bool)
    columns = zip(
        (signs * c.difference).T.tolist(),
        np.minimum(signs * c.ci_low, signs * c.ci_high).T.tolist(),
        np.maximum(signs * c.ci_low, signs * c.ci_high).T.tolist(),
        np.asarray(c.p_holm).T.tolist(),
        marked.T.tolist(),
        on_floor.T.tolist(),
    )
    sign, rob, disagree = c.tests.sign, c.robertson, c.disagree
    lines = []
    for j, (i_a, i_b, numbers) in enumerate(zip(c.first.tolist(), c.second.tolist(), columns)):
        s = -1.0 if turned[j] else 1.0
        a, b = (names[i_b], names[i_a]) if turned[j] else (names[i_a], names[i_b])
        parts = [
            _average_words(_Said(*said), labels[k], a, b, level, c.test, digits) for k, said in enumerate(zip(*numbers))
        ]
        text = f"{a} vs {b}: " + "; ".join(parts) + "."
        if disagree[j]:
            text += " The averages disagree on which is ahead."
        if rob.reversed_by[j] is not None:
            r_low, r_high = sorted((s * rob.low[j], s * rob.high[j]))
            reversal = f"{s * rob.difference[j]:+.3g} on its scale, unadjusted " + _tie(
                "CI", f"{r_low:+.3g}", "to", f"{r_high:+.3g}"
            )
            how = "substantially" if rob.substantial[j] else "within the noise"
            text += f" Robertson: {_glued(rob.reversed_by[j])} reverses the AM's verdict {how} ({reversal})."
        elif rob.robust[j]:
            text += " Robertson: no transformation reverses the AM's verdict."
        else:
            text += " Robertson: the AM ties them, no verdict to reverse."
        wins, losses = (sign.losses[j], sign.wins[j]) if turned[j] else (sign.wins[j], sign.losses[j])
        held = _tie("Holm", "p", "=", p_text(c.tests.p_sign_holm[j]))
        text += f" Sign test: {a} ahead on {wins} topics, behind on {losses} ({held})."
        lines += wrap(text, WIDTH, "", "    ")
    return lines


def report_tables(c: Comparison, digits: int = 4, turned: np.ndarray | None = None) -> tuple[Table, Table, Table]:
    """The report's three tables, the pairs turned as in the text (:func:`turned_pairs`): the verdicts (a row per
    pair), the differences with their unadjusted intervals, and the tests' raw and Holm-adjusted p-values (a row
    per pair and average), each with its :func:`notes`.

    Examples
    --------
    >>> import irmeans
    >>> c = irmeans.compare({"A": {"1": 0.5, "2": 0.6, "3": 0.7}, "B": {"1": 0.1, "2": 0.2, "3": 0.2}}, ["am"])
    >>> verdicts, differences, tests = report_tables(c)
    >>> differences.columns
    ('A', 'B', 'average', "A's", "B's", 'A - B', '95% CI low', 'high')
    >>> verdicts.rows[0]
    ('A', 'B', '>*', '3-0-0 (0.25)', 'no', 'yes')
    """
    turned = turned_pairs(c) if turned is None else turned
    return (_verdicts_table(c, turned), *_number_tables(c, digits, turned))


def _verdicts_table(c: Comparison, turned: np.ndarray) -> Table:
    """A row per pair: which system each average prefers and whether it is marked, the sign test, whether the
    averages disagree, Robertson's check."""
    names = c.matrix.systems
    s = np.where(turned, -1, 1)
    a_idx, b_idx = np.where(turned, c.second, c.first), np.where(turned, c.first, c.second)
    better, sig = s * c.better, c.significant
    symbol = {1: ">", -1: "<", 0: "="}
    rows = []
    for j, v in enumerate(c.verdicts()):
        wins, losses = (v.losses, v.wins) if turned[j] else (v.wins, v.losses)
        rows.append(
            (
                names[a_idx[j]],
                names[b_idx[j]],
                *(symbol[int(better[k, j])] + ("*" if sig[k, j] else "") for k in range(len(c.averages))),
                f"{wins}-{losses}-{v.ties} ({p_text(v.p_sign_holm)})",
                "yes" if v.disagree else "no",
                robust_cell(v),
            )
        )
    said = notes(c)
    marks = (
        f"Under each average: > A is ahead, < B is, = neither; * where the marking test's Holm-adjusted "
        f"p < {c.alpha:g}. Disagree: one average prefers A, another B"
    )
    averages = tuple(a.spec for a in c.averages)
    columns = ("A", "B", *averages, "sign test (Holm p)", "disagree", "Robertson")
    return Table("Verdicts", columns, rows, [said["verdicts"][0], marks, *said["verdicts"][1:]])


def _number_tables(c: Comparison, digits: int, turned: np.ndarray) -> tuple[Table, Table]:
    """The differences with their unadjusted intervals, and the tests' raw and Holm-adjusted p-values: a row per
    pair and average."""
    names = c.matrix.systems
    s = np.where(turned, -1.0, 1.0)  # (pairs,): each pair's numbers turned with it, once for all
    a_idx, b_idx = np.where(turned, c.second, c.first), np.where(turned, c.first, c.second)
    diff, t = s * c.difference, s * c.tests.t
    low = np.minimum(s * c.ci_low, s * c.ci_high)
    high = np.maximum(s * c.ci_low, s * c.ci_high)
    mean_a, mean_b = c.means[:, a_idx], c.means[:, b_idx]
    marks = np.where(c.on_floor(), "^", "")
    tests = c.tests
    f = f"{{:+.{digits}f}}"
    specs = [avg.spec for avg in c.averages]
    differences, rows = [], []
    for j in range(c.first.size):
        a, b = names[a_idx[j]], names[b_idx[j]]
        for k, spec in enumerate(specs):
            differences.append(
                (
                    a,
                    b,
                    spec,
                    f"{mean_a[k, j]:.{digits}f}",
                    f"{mean_b[k, j]:.{digits}f}",
                    f.format(diff[k, j]),
                    f.format(low[k, j]),
                    f.format(high[k, j]),
                )
            )
            rows.append(
                (
                    a,
                    b,
                    spec,
                    "-" if math.isnan(t[k, j]) else f"{t[k, j]:.2f}",
                    p_text(tests.p_t[k, j]),
                    p_text(tests.p_t_holm[k, j]),
                    p_text(tests.p_randomization[k, j]),
                    p_text(tests.p_randomization_holm[k, j]) + marks[k, j],
                )
            )
    said = notes(c)
    level = f"{c.confidence:.0%}"
    return (
        Table(
            f"Differences, with unadjusted {level} intervals",
            ("A", "B", "average", "A's", "B's", "A - B", f"{level} CI low", "high"),
            differences,
            said["differences"],
        ),
        Table(
            "Tests, p raw and Holm-adjusted",
            ("A", "B", "average", "t", "p (t)", "Holm", "p (rand.)", "Holm"),
            rows,
            said["tests"],
        ),
    )


def _fit(table: Table) -> list[str]:
    """A table of pairs as text lines no wider than :data:`WIDTH`: a row per line when its names fit, else each
    pair named on a line of its own above its rows."""
    right = [False, False] + [
        all(r[j][:1] in "+-0123456789<" for r in table.rows) for j in range(2, len(table.columns))
    ]
    lines = text_lines(table.columns, table.rows, right)
    if max(map(width, lines)) <= WIDTH:
        return lines
    body = text_lines(table.columns[2:], [row[2:] for row in table.rows], right[2:])
    out = ["A vs B", "  " + body[0]]
    last = None
    for row, line in zip(table.rows, body[1:]):
        if (row[0], row[1]) != last:
            out += wrap(f"{_glued(row[0])} vs {_glued(row[1])}", WIDTH)
            last = (row[0], row[1])
        out.append("  " + line)
    return out


def text_report(c: Comparison, digits: int = 4, turned: np.ndarray | None = None) -> str:
    """The comparison as text for people: what was compared, the results (a verdict in words for each pair, then
    the differences and the tests), then the notes.

    Parameters
    ----------
    c : Comparison
    digits : int, default 4
        Decimals of the means, differences and intervals.
    turned : ndarray of bool, shape (pairs,), optional
        The pairs to show B first; by default :func:`turned_pairs` (several measures' reports pass the first's).

    Returns
    -------
    str

    Examples
    --------
    >>> import irmeans
    >>> c = irmeans.compare({"A": {"1": 0.5, "2": 0.6, "3": 0.7}, "B": {"1": 0.1, "2": 0.2, "3": 0.2}}, ["am"])
    >>> print(text_report(c).splitlines()[0])
    # Comparison: scores, 2 systems x 3 topics; one pair, the system the AM prefers first.
    """
    turned = turned_pairs(c) if turned is None else turned
    differences, tests = _number_tables(c, digits, turned)
    said = _notes(c)
    what = _wrap(f"Comparison: {_what(c)}.")
    blocks = [
        "\n".join(what),
        "\n".join(["# Verdicts", *verdict_lines(c, digits, turned)]),
        "\n".join([f"# {differences.title}", *_fit(differences)]),
        "\n".join([f"# {tests.title}", *_fit(tests)]),
        "\n".join(
            ["# Notes"]
            + [
                line
                for note in (*said["verdicts"][1:], *said["differences"], *said["tests"])
                for line in _wrap(sentence(note))
            ]
        ),
    ]
    return "\n\n".join(blocks) + "\n"
