"""A box for the reader's own scores: two systems' per-topic scores in, every average of a chapter out, in the browser.

:func:`your_scores_chart` is a Vega-Lite chart with two text boxes, "Your scores,
system A" and "... system B" (per-topic scores, separated by commas or spaces).
As the reader types, the page computes each average and says which system it
prefers. No formula is written here: each average's expressions come from
:mod:`irmeans_book.vega_forms`, the library's formulas in Vega's expression
language; this module only parses the boxes and lays out the table. A score that is not a number, or
not between 0 and 1, gets a short note under the boxes naming the first such
entry, in lines short enough for a phone's width; two systems with different
numbers of scores get a warning there too (an average over other topics does not
compare). An average that cannot take a score (the harmonic mean of a 0 without
ε) reads "undefined", with the reason, written with ε where the library writes
"eps", and saying what ε would do only in a box that has an average with ε.

Each cell of the table is labelled for assistive technology with its row and
column ("GM, System A: 0.2367"; "GM, Higher: B"), which is also how the site's
browser tests read what the page shows.

Examples
--------
>>> from irmeans.averages import AM, GM
>>> from irmeans_book.plots import to_spec
>>> spec = to_spec(your_scores_chart({"AM": AM(), "GM": GM()}, [0.5, 0.2], [0.3, 0.3]), "Your scores.")
>>> [p["bind"]["name"] for p in spec["params"]]
['Your scores, system A ', 'Your scores, system B ']
>>> spec["params"][0]["value"]
'0.5, 0.2'
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from typing import Any

import altair as alt
from irmeans.averages import Average

from irmeans_book.plots import STATE, VegaLiteFigure, show
from irmeans_book.vega_forms import vega_form

__all__ = [
    "PARAMS",
    "DECIMAL_COMMA",
    "SEPARATORS",
    "entries",
    "your_scores_chart",
    "your_scores",
    "as_text",
    "requirement",
]

#: The parameters bound to the two boxes, by system.
PARAMS = {"A": "scores_a", "B": "scores_b"}
#: Two values closer than this (relative to 1) are a tie.
TIE = 1e-12


def as_text(scores: Iterable[float]) -> str:
    """Scores as the box shows them: ``0.6, 0.55, 0.01``.

    >>> as_text([0.60, 0.55, 0.01])
    '0.6, 0.55, 0.01'
    """
    return ", ".join(f"{float(s):g}" for s in scores)


def requirement(average: Average, with_eps: bool) -> str:
    """What ``average`` needs of its scores, as the box says it: ε for the library's "eps", and what ε
    would change only if the box shows an average with ε (``with_eps``).

    >>> from irmeans.averages import HM
    >>> requirement(HM(), True), requirement(HM(), False)
    ('scores > 0 (a zero needs ε > 0)', 'scores > 0')
    """
    text = re.sub(r"\beps\b", "ε", average.requirement)
    return text if with_eps else re.sub(r"\s*\([^()]*ε[^()]*\)", "", text).strip()


#: A comma between two digits, which is a decimal comma when the box holds no '.' and no ';' (:func:`entries`).
DECIMAL_COMMA = r"(\d),(?=\d)"
#: What separates a box's numbers: white space, ';' and commas (those that are not decimal commas).
SEPARATORS = r"[\s,;]+"


def entries(text: str) -> list[str]:
    """The entries a box reads from ``text``: numbers separated by white space, ';' or commas, where a comma
    between two digits is a decimal comma if the text holds no '.' and no ';' ("0,5 0,25" is 0.5 and 0.25;
    "0.5,0.25" stays two numbers). The self-checks read a number by the same rule (``selfcheck.js``); the box's
    own Vega expressions follow it (:func:`your_scores_chart`), and the tests hold all three to the same cases.

    Examples
    --------
    >>> entries("0,5 0,25 0,1"), entries("0.5,0.25"), entries(" 0,5; 0,25 ")
    (['0.5', '0.25', '0.1'], ['0.5', '0.25'], ['0', '5', '0', '25'])
    """
    if not re.search(r"[.;]", text):
        text = re.sub(DECIMAL_COMMA, r"\1.", text)
    return [e for e in re.split(SEPARATORS, text.strip()) if e]


def _parsed() -> list[dict[str, Any]]:
    """The transforms that turn the two boxes into one row per score: ``system, token, score, ok, bad``.
    The rule is :func:`entries`'s."""
    regexp: Callable[[str], str] = lambda pattern: "regexp(" + json.dumps(pattern) + ", 'g')"  # noqa: E731
    decimal = f"test(regexp('[.;]'), datum.raw) ? datum.raw : replace(datum.raw, {regexp(DECIMAL_COMMA)}, '$1.')"
    split = f"split(replace(trim(datum.text), {regexp(SEPARATORS)}, ' '), ' ')"
    return [
        {"calculate": f"datum.system == 'A' ? {PARAMS['A']} : {PARAMS['B']}", "as": "raw"},
        {"calculate": decimal, "as": "text"},
        {"calculate": split, "as": "token"},
        {"flatten": ["token"]},
        {"calculate": "datum.token === '' || datum.token == null ? null : toNumber(datum.token)", "as": "score"},
        {
            "calculate": "isValid(datum.score) && isFinite(datum.score) && datum.score >= 0 && datum.score <= 1",
            "as": "ok",
        },
        {"calculate": "datum.token !== '' && datum.token != null && !datum.ok", "as": "bad"},
        {"calculate": "datum.bad ? datum.token : ''", "as": "bad_token"},
    ]


def your_scores_chart(
    averages: dict[str, Average], scores_a: Iterable[float], scores_b: Iterable[float], width: int = 420
) -> alt.VConcatChart:
    """Two boxes for per-topic scores of systems A and B; the table of ``averages`` and which system each prefers.

    Parameters
    ----------
    averages : dict of str to irmeans.averages.Average
        The averages to show, by the name the table gives them, in order.
    scores_a, scores_b : array_like
        What the boxes hold to start with: the chapter's example.
    """
    names = list(averages)
    forms = [vega_form(avg, "datum.score", f"datum.total_{k}", "datum.n") for k, avg in enumerate(averages.values())]
    per_score = []
    measures = [
        {"op": "sum", "field": "ok_n", "as": "n"},
        {"op": "sum", "field": "bad_n", "as": "nbad"},
        {"op": "max", "field": "bad_token", "as": "first_bad"},
    ]
    per_score.append({"calculate": "datum.ok ? 1 : 0", "as": "ok_n"})
    per_score.append({"calculate": "datum.bad ? 1 : 0", "as": "bad_n"})
    for k, form in enumerate(forms):
        per_score.append({"calculate": f"datum.ok && !({form.refused}) ? {form.transform} : null", "as": f"g_{k}"})
        per_score.append({"calculate": f"datum.ok && ({form.refused}) ? 1 : 0", "as": f"r_{k}"})
        measures.append({"op": form.op, "field": f"g_{k}", "as": f"total_{k}"})
        measures.append({"op": "sum", "field": f"r_{k}", "as": f"refused_{k}"})
    # Each average's value for the system, with whether a score it cannot take made it undefined.
    averaged = [
        {
            "calculate": f"{{'v': datum.n > 0 && datum.refused_{k} == 0 ? {form.back} : null,"
            f" 'r': datum.n > 0 && datum.refused_{k} > 0 ? 1 : 0}}",
            "as": f"v_{k}",
        }
        for k, form in enumerate(forms)
    ]
    per_system = [*_parsed(), *per_score, {"aggregate": measures, "groupby": ["system"]}, *averaged]

    labels = json.dumps({f"v_{k}": name for k, name in enumerate(names)}, ensure_ascii=False)
    order = json.dumps({f"v_{k}": k for k in range(len(names))})
    with_eps = any(getattr(avg, "eps", 0) for avg in averages.values())
    why = json.dumps(
        {f"v_{k}": f"needs {requirement(avg, with_eps)}" for k, avg in enumerate(averages.values())},
        ensure_ascii=False,
    )
    valid = "isValid(datum.{0}) && isFinite(datum.{0})"
    table = [
        *per_system,
        {"fold": [f"v_{k}" for k in range(len(names))], "as": ["key", "both"]},
        {"calculate": "datum.both.v", "as": "value"},
        {"calculate": "datum.both.r", "as": "r"},
        {"joinaggregate": [{"op": "max", "field": "r", "as": "refused"}], "groupby": ["key"]},
        {"pivot": "system", "value": "value", "groupby": ["key", "refused"], "op": "max"},
        {"calculate": f"{labels}[datum.key]", "as": "average"},
        {"calculate": f"{order}[datum.key]", "as": "order"},
        {
            "calculate": f"!({valid.format('A')}) || !({valid.format('B')}) ? '–'"
            f" : abs(datum.A - datum.B) <= {TIE} * max(1, abs(datum.A)) ? 'tie'"
            " : datum.A > datum.B ? 'A' : 'B'",
            "as": "higher",
        },
        {"calculate": f"{valid.format('A')} ? format(datum.A, '.4f') : 'undefined'", "as": "text_A"},
        {"calculate": f"{valid.format('B')} ? format(datum.B, '.4f') : 'undefined'", "as": "text_B"},
        {
            "calculate": f"datum.refused > 0 ? {why}[datum.key] : ''",
            "as": "text_why",
        },
    ]
    rows = alt.Chart(alt.InlineData(values=[{"system": "A"}, {"system": "B"}]), transform=table)
    # One block of lines per average, which fits a phone: its name; the two values and the verdict; why a value is
    # undefined, if one is. Each value is labelled for assistive technology with its row and column.
    base = rows.encode(y=alt.Y("average:N", sort=alt.EncodingSortField("order"), axis=None))
    name = base.mark_text(align="left", fontWeight="bold", fontSize=14, dy=-16).encode(x=alt.value(0), text="average:N")

    def column(field: str, prefix: str, x: int, header: str) -> alt.Chart:
        chart: alt.Chart = (
            base.transform_calculate(
                shown=f"'{prefix}' + datum.{field}", description=f"datum.average + ', {header}: ' + datum.{field}"
            )
            .mark_text(align="left", fontSize=14, dy=2)
            .encode(x=alt.value(x), text="shown:N", description="description:N")
        )
        return chart

    why = (
        base.transform_calculate(description="datum.average + ': ' + datum.text_why")
        .mark_text(align="left", fontSize=13, dy=19)
        .encode(x=alt.value(0), text="text_why:N", description="description:N")
    )
    values = [column("text_A", "A ", 0, "System A"), column("text_B", "B ", 100, "System B")]
    # Which system each average puts higher is said, after the notes, when the boxes change (plots.STATE).
    higher = column("higher", "higher: ", 200, "Higher").properties(name=f"{STATE}_higher")
    cells = alt.layer(name, *values, higher, why).properties(width=min(width, 300), height=alt.Step(60))

    note_view = _notes(width)
    box = {
        system: alt.param(
            name=PARAMS[system],
            value=as_text(scores),
            bind=alt.binding(input="text", name=f"Your scores, system {system} ", placeholder="0.5, 0.25, 0.1"),
        )
        for system, scores in (("A", scores_a), ("B", scores_b))
    }
    chart: alt.VConcatChart = (
        alt.vconcat(note_view, cells, spacing=8).add_params(box["A"], box["B"]).configure_view(stroke=None)
    )
    return chart


#: A bad entry is quoted up to this many characters (then "…"), so that its line fits a phone.
QUOTED = 12


def _note_lines() -> str:
    """The Vega expression of a system's note, as lines of at most about 40 characters (a phone's figure is
    358 px wide: a note on one line ran to 501 px and was cut), then the whole sentence, for assistive
    technology. The first entry that is not a score is named (the largest, as text, was)."""
    quoted = (
        f"'“' + (length(datum.first_bad) > {QUOTED} ? substring(datum.first_bad, 0, {QUOTED - 1}) + '…'"
        " : datum.first_bad) + '”'"
    )
    others = "(datum.nbad > 1 ? ' (' + datum.nbad + ' entries are not)' : '')"
    return (
        "datum.nbad > 0"
        f" ? [['System ' + datum.system + ': ' + {quoted} + ' is not a score',"
        f" 'between 0 and 1' + {others} + ';', 'the others are used.'],"
        f" 'System ' + datum.system + ': ' + {quoted} + ' is not a score between 0 and 1' + {others}"
        " + '; the others are used.']"
        " : datum.n == 0 ? [['System ' + datum.system + ': no scores yet.'],"
        " 'System ' + datum.system + ': no scores yet.']"
        " : [['System ' + datum.system + ': ' + datum.n + (datum.n == 1 ? ' score.' : ' scores.')],"
        " 'System ' + datum.system + ': ' + datum.n + (datum.n == 1 ? ' score.' : ' scores.')]"
    )


#: The warning when the two systems have different numbers of scores, its lines and its sentence.
_TOPICS_WARNING = (
    "datum.system == 'B' && datum.n_a > 0 && datum.n_b > 0 && datum.n_a != datum.n_b"
    " ? [[{counts}, 'Compare two systems on the same topics.'],"
    " {counts} + ' Compare two systems on the same topics.']"
    " : null"
).format(
    counts="'Warning: A has ' + datum.n_a + (datum.n_a == 1 ? ' score' : ' scores') + ' and B has ' + datum.n_b + '.'"
)


def _notes(width: int) -> alt.LayerChart:
    """The notes under the boxes: per system, how many scores it has or which entry is not a score; and a
    warning when the systems have different numbers of scores. One row per line of text; each note's first
    line carries the whole note for assistive technology."""
    transforms = [
        *_parsed(),
        {"window": [{"op": "row_number", "as": "position"}], "groupby": ["system"]},
        {"calculate": "datum.ok ? 1 : 0", "as": "ok_n"},
        {"calculate": "datum.bad ? 1 : 0", "as": "bad_n"},
        {"calculate": "datum.bad ? datum.position : null", "as": "bad_position"},
        {
            "aggregate": [
                {"op": "sum", "field": "ok_n", "as": "n"},
                {"op": "sum", "field": "bad_n", "as": "nbad"},
                {"op": "argmin", "field": "bad_position", "as": "first"},
            ],
            "groupby": ["system"],
        },
        {"calculate": "datum.nbad > 0 ? datum.first.token : ''", "as": "first_bad"},
        {"calculate": "datum.system == 'A' ? datum.n : 0", "as": "a_n"},
        {"calculate": "datum.system == 'B' ? datum.n : 0", "as": "b_n"},
        {
            "joinaggregate": [{"op": "sum", "field": "a_n", "as": "n_a"}, {"op": "sum", "field": "b_n", "as": "n_b"}],
        },
        {"calculate": _note_lines(), "as": "note"},
        {"calculate": _TOPICS_WARNING, "as": "warning"},
        # The system's note, then (under B's) the warning: each a list of lines and a sentence.
        {"calculate": "datum.warning ? [datum.note, datum.warning] : [datum.note]", "as": "notes"},
        {"flatten": ["notes"], "as": ["one"]},
        {"window": [{"op": "row_number", "as": "which"}], "groupby": ["system"]},
        {"calculate": "datum.one[0]", "as": "lines"},
        {"calculate": "datum.one[1]", "as": "sentence"},
        {"flatten": ["lines"], "as": ["line"]},
        {"window": [{"op": "row_number", "as": "k"}], "groupby": ["system", "which"]},
        {
            "window": [{"op": "row_number", "as": "row"}],
            "sort": [{"field": "system"}, {"field": "which"}, {"field": "k"}],
        },
    ]
    base = alt.Chart(alt.InlineData(values=[{"system": "A"}, {"system": "B"}]), transform=transforms).encode(
        x=alt.value(0), y=alt.Y("row:O", axis=None), text="line:N"
    )
    # Each note's first line carries the whole sentence, which is what the figure says to a screen reader when it
    # changes (irmeans_book.plots.STATE), and which box it is about: a box with an entry that is not a score is
    # marked aria-invalid on the site (irmeans-figures.js).
    first = (
        base.transform_filter("datum.k == 1")
        .transform_calculate(
            irmeans_input=f"datum.system == 'A' ? '{PARAMS['A']}' : '{PARAMS['B']}'", irmeans_invalid="datum.nbad > 0"
        )
        .mark_text(align="left", fontSize=13)
        .encode(description="sentence:N")
        .properties(name=f"{STATE}_notes")
    )
    rest = base.transform_filter("datum.k > 1").mark_text(align="left", fontSize=13, aria=False)
    return alt.layer(first, rest).properties(width=width, height=alt.Step(17))


def your_scores(averages: dict[str, Average], scores_a: Iterable[float], scores_b: Iterable[float]) -> VegaLiteFigure:
    """:func:`your_scores_chart` shown, with its alt text: the output of a chapter's "Your own scores" cell."""
    return show(
        your_scores_chart(averages, scores_a, scores_b),
        alt=(
            "Two text boxes take the per-topic scores of systems A and B. Below them, a table gives, for each of "
            f"{', '.join(averages)}, the value for A and for B and which system is higher."
        ),
    )
