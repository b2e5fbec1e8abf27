"""The plumbing of the book's figures: showing a Vega-Lite chart, its alt text, inline data, sliders.

An interactive figure of the book is a Vega-Lite chart whose controls
(sliders, selects, checkboxes) are parameters bound to inputs. The chart does
no arithmetic of its own: every value it can show is computed with the tested
measures and means, over the whole range of its controls, and the controls
only pick rows. So the same figure works live in Jupyter and on the static
site, where there is no kernel. Each chapter's figures, and its live
ipywidgets controls, are in its chapter's module of :mod:`irmeans_book.chapters`.

:func:`show` turns a chart into a notebook output: the Vega-Lite mimetype,
which Jupyter renders, and the alt text as plain text. The site's build turns
that spec into HTML with :func:`embed_html`.

Examples
--------
>>> import altair as alt, pandas as pd
>>> chart = alt.Chart(pd.DataFrame({"x": [1, 2]})).mark_point().encode(x="x:Q")
>>> fig = show(chart, alt="Two points on a line.")
>>> sorted(fig._repr_mimebundle_())
['application/vnd.vegalite.v5+json', 'text/plain']
>>> figure_id(fig.spec) == figure_id(fig.spec)
True
"""

from __future__ import annotations

import dataclasses
import hashlib
import html
import json
import re
from collections.abc import Callable, Iterable, Mapping
from os import PathLike
from pathlib import Path
from typing import Any

import altair as alt
import numpy as np
from numpy.typing import ArrayLike, DTypeLike

from irmeans_book.controls import Control, Spec, at_setting, controls, starting_setting

__all__ = [
    "OKABE_ITO",
    "VEGALITE_MIMETYPE",
    "VegaLiteFigure",
    "TREC_DATA",
    "show",
    "to_spec",
    "SIGNIFICANT_DIGITS",
    "fixed_precision",
    "figure_id",
    "embed_html",
    "SITE_DRAW",
    "csv_data",
    "slider_param",
    "Grid",
    "example",
    "without_controls",
    "Control",
    "controls",
    "at_setting",
    "power_of_ten",
    "STATE",
    "MAX_STATES",
    "sentence",
    "states",
    "LiveFigure",
]

VEGALITE_MIMETYPE = "application/vnd.vegalite.v5+json"

#: Okabe & Ito's colour-blind-safe palette: seven hues, then black.
OKABE_ITO = ["#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#000000"]


def to_spec(chart: alt.TopLevelMixin, alt_text: str) -> Spec:
    """The chart as a validated Vega-Lite dict, with the palette, ``description`` and axis labels that
    never run together.

    The description is the figure's alt text; Vega puts it on the SVG as its
    ``aria-label``. All rows are embedded: a figure's table is small by design.
    """
    chart = chart.properties(description=alt_text).configure_range(category=OKABE_ITO)
    # On a phone an axis is narrow: while any label would come within 3 px of its neighbour ("0.00.1" under a
    # 0-to-1 axis at 390 px), every other label is left out, so that those left keep even steps. (Leaving out
    # only the labels that collide kept 0.00, 0.04, 0.06, 0.08 of Fig. 5.2: the first and last labels sit flush
    # with the axis's ends, and only they collided.)
    chart = chart.configure_axis(labelOverlap="parity", labelSeparation=3)
    # Every mark at full opacity unless its chart says otherwise: Vega-Lite draws points, ticks, circles and
    # squares at 0.7, and most of the palette then fell below 3:1 against the page (WCAG 1.4.11).
    chart = chart.configure_point(opacity=1).configure_circle(opacity=1)
    chart = chart.configure_square(opacity=1).configure_tick(opacity=1)
    with alt.data_transformers.enable("default", max_rows=None):
        return fixed_precision(chart.to_dict(validate=True))


#: The significant digits a figure's numbers keep (:func:`fixed_precision`): four beyond the most any figure shows.
SIGNIFICANT_DIGITS = 10


def fixed_precision(spec: Spec, digits: int = SIGNIFICANT_DIGITS) -> Spec:
    """``spec`` with every float rounded to ``digits`` significant digits, its inline data sets renamed to match.

    numpy's ``exp`` and ``log`` (and ``**``) may differ in the last bit from
    one CPU to another, and a figure's data would then differ too, in its
    17th digit: the stored outputs of the chapters, the site's figures and the
    slides would depend on the machine that made them. Rounded here, where
    every figure is made, they are the same on any machine, unless a value
    lies within a few units in the last place of a rounding boundary (a chance
    of about one in a million per value that a CPU changed); then one digit
    differs in the 10th place, which the check of the stored outputs accepts
    (it compares numbers to 1 part in 10⁸).

    Vega-Lite names an inline data set by a hash of its rows
    (``data-<32 hex digits>``); the names are made again from the rounded rows.

    Examples
    --------
    >>> fixed_precision({"params": [{"name": "x", "value": 0.45752206576166055}], "mark": "point"})["params"]
    [{'name': 'x', 'value': 0.4575220658}]
    >>> spec = fixed_precision({"data": {"name": "data-0"}, "datasets": {"data-0": [{"y": 1 / 3}]}})
    >>> spec["datasets"] == {spec["data"]["name"]: [{"y": 0.3333333333}]}
    True
    """

    def rounded(node: Any) -> Any:
        if isinstance(node, float):
            return float(f"{node:.{digits}g}")
        if isinstance(node, dict):
            return {key: rounded(value) for key, value in node.items()}
        if isinstance(node, list):
            return [rounded(value) for value in node]
        return node

    spec = rounded(spec)
    names = {
        old: "data-" + hashlib.sha256(json.dumps(rows, sort_keys=True, default=str).encode()).hexdigest()[:32]
        for old, rows in spec.get("datasets", {}).items()
        if old.startswith("data-")
    }
    if not names:
        return spec
    text = json.dumps(spec)
    text = re.sub(r'"(data-[0-9a-zA-Z]+)"', lambda m: json.dumps(names.get(m.group(1), m.group(1))), text)
    renamed: Spec = json.loads(text)
    return renamed


def without_controls(spec: Spec) -> Spec:
    """``spec`` with its parameters unbound: the chart at their current values, with no inputs of its own.

    What the live ipywidgets controls show: the same chart as the site's,
    drawn for the settings the widgets chose.

    Examples
    --------
    >>> s = without_controls({"params": [{"name": "k", "value": 2, "bind": {"input": "range"}}], "mark": "point"})
    >>> s["params"]
    [{'name': 'k', 'value': 2}]
    """
    out = dict(spec)
    out["params"] = [{k: v for k, v in p.items() if k != "bind"} for p in spec.get("params", [])]
    return out


#: The attribution of every figure made from the shipped per-topic scores of TREC runs (``show(..., source=)``).
#: Two groups of authors: Urbano and Nagler (2018); Urbano, Lima and Hanjalic (two papers of 2019).
TREC_DATA = (
    "Data: TREC runs' per-topic scores, from the archives of Urbano and Nagler (2018) and of Urbano, Lima and "
    "Hanjalic (2019a, 2019b), CC BY-SA 4.0."
)


class VegaLiteFigure:
    """A Vega-Lite spec displayed as a notebook output, and saved for a slide with :meth:`save`.

    Parameters
    ----------
    spec : dict
        A Vega-Lite spec with a ``description`` (the alt text). The attribution of
        the figure's data, if it needs one, is its ``usermeta["irmeans_source"]``.
    """

    def __init__(self, spec: Spec) -> None:
        if not spec.get("description"):
            raise ValueError("a figure needs alt text: the spec has no description")
        self.spec = spec

    @property
    def source(self) -> str | None:
        """The attribution of the figure's data (None if it needs none)."""
        return (self.spec.get("usermeta") or {}).get("irmeans_source")

    def controls(self) -> list[Control]:
        """The figure's controls (sliders, selects, checkboxes, text boxes), in order: :func:`controls`."""
        return controls(self.spec)

    def at(self, settings: Mapping[str, Any] | None = None, **by_name: Any) -> VegaLiteFigure:
        """The same figure with its controls set: each by its name or its label, each value as the control
        shows it (:func:`at_setting`).

        Examples
        --------
        >>> from irmeans_book.chapters import ch01_introduction as ch01
        >>> fig = ch01.averages_figure().at(average="geometric mean")
        >>> [p["value"] for p in fig.spec["params"]]
        [0.01, 'geometric mean']
        """
        return VegaLiteFigure(at_setting(self.spec, {**(settings or {}), **by_name}))

    def save(
        self,
        path: str | PathLike[str],
        folder: str | PathLike[str] = ".",
        formats: Iterable[str] | None = None,
        at: Mapping[str, Any] | None = None,
        **settings: Any,
    ) -> list[Path]:
        """Save the figure for a slide, at its controls' current setting or at the one given.

        ``path`` ending in ``.png``, ``.svg`` or ``.pdf`` writes that file; a
        name without one (``"my-figure"``) writes all three. The PNG is
        :data:`irmeans_book.slides.SLIDE_WIDTH` (1,920) pixels wide with
        large text. Under the chart the slide says the setting it shows, each
        control by its label ("Average: geometric mean"), and the data's
        attribution if they need one; each file carries the figure's
        description, that attribution and the book's licence in its metadata
        (:mod:`irmeans_book.slides`).

        Parameters
        ----------
        path : str or pathlib.Path
            The file (``"gm.png"``), or its name without a suffix for all three formats.
        folder : str or pathlib.Path
            Where ``path`` is, if it is relative (by default the current folder).
        formats : sequence of str, optional
            The formats to write (``"svg"``, ``"png"``, ``"pdf"``); by default those ``path`` names.
        at : dict, optional
            Controls by their label, as the figure shows it beside them
            (``{"Average gain on easy topics": 0.5}``), or by name.
        **settings
            Controls by name (``average="geometric mean"``, ``gain=0.5``): a
            select's value by the option it shows, a slider's by its number
            (one of its steps), a checkbox's as True or False. :meth:`controls`
            lists them.

        Returns
        -------
        list of pathlib.Path
            The files written.

        Raises
        ------
        ValueError
            A control the figure does not have, or a value it cannot show.

        Examples
        --------
        >>> import tempfile
        >>> from irmeans_book.chapters import ch01_introduction as ch01
        >>> with tempfile.TemporaryDirectory() as d:
        ...     [p.name for p in ch01.averages_figure().save("gm.png", d, average="geometric mean")]
        ['gm.png']
        >>> with tempfile.TemporaryDirectory() as d:
        ...     [p.name for p in ch01.averages_figure().save("slide", d)]
        ['slide.svg', 'slide.png', 'slide.pdf']
        """
        from irmeans_book import slides

        path = Path(folder) / Path(path)
        suffix = path.suffix.lower().lstrip(".")
        named: tuple[str, ...]
        if suffix in slides.FORMATS:
            stem, named = path.stem, (suffix,)
        else:
            stem, named = path.name, slides.FORMATS
        figure = self.at(at, **settings)
        return slides.render(slides.slide_spec(figure.spec), stem, path.parent, tuple(formats or named))

    def _repr_mimebundle_(self, include: object = None, exclude: object = None) -> dict[str, Any]:
        # Only the Vega-Lite mimetype and text: JupyterLab prefers text/html over
        # Vega-Lite, and HTML relying on the site's script would be blank there.
        return {VEGALITE_MIMETYPE: self.spec, "text/plain": f"[Figure] {self.spec['description']}"}


def show(
    chart: alt.TopLevelMixin,
    alt: str,
    controls: bool = True,
    source: str | None = None,
    state: Callable[..., str] | None = None,
) -> VegaLiteFigure:
    """Display ``chart`` in a notebook, with ``alt`` as its alt text.

    Parameters
    ----------
    chart : altair.TopLevelMixin
    alt : str
        What the figure shows, in a sentence or two, for readers who cannot see it. With ``state``, what it shows
        whatever the setting of its controls.
    controls : bool
        False: the chart's parameters lose their inputs (:func:`without_controls`),
        for a chart redrawn by ipywidgets (:class:`LiveFigure`).
    source : str, optional
        The attribution the figure's data need (:data:`TREC_DATA` for the TREC runs'
        scores): kept in the spec, shown and embedded when the figure is saved.
    state : callable, optional
        ``state(**setting) -> str``: what the figure shows at a setting of its controls, in a sentence, each
        control by its name at a value it can take (as the spec holds it: a select's option, a slider's
        number, a checkbox's True or False). The alt text is ``alt`` and the state at the starting setting;
        on the site it follows the reader's setting (:func:`states`).

    Returns
    -------
    VegaLiteFigure

    Examples
    --------
    >>> import altair as alt, pandas as pd
    >>> c = alt.Chart(pd.DataFrame({"x": [1]})).mark_point().encode(x="x:Q")
    >>> show(c, alt="One point.").spec["description"]
    'One point.'
    >>> k = alt.param(name="k", value=1, bind=alt.binding_range(min=1, max=3, step=1, name="k "))
    >>> fig = show(c.add_params(k), alt="One point.", state=lambda k: f"k is {k:g}.")
    >>> fig.spec["description"], fig.spec["usermeta"]["irmeans_states"]["rows"]
    ('One point. k is 1.', [[1.0, 'k is 1.'], [2.0, 'k is 2.'], [3.0, 'k is 3.']])
    """
    if not alt or not alt.strip():
        raise ValueError("alt text must not be empty")
    spec = to_spec(chart, alt.strip())
    if source:
        spec["usermeta"] = {**spec.get("usermeta", {}), "irmeans_source": source}
    if state is not None:
        start = starting_setting(spec)
        spec["description"] = f"{alt.strip()} {state(**start).strip()}"
        if controls:
            spec["usermeta"] = {**spec.get("usermeta", {}), **states(spec, alt.strip(), state)}
    return VegaLiteFigure(spec if controls else without_controls(spec))


#: A parameter (with an ``expr``) or a mark whose name starts with this says, in words, part of what the figure
#: shows at the reader's setting: the site reads it when the figure's settings are too many to store each one's.
STATE = "irmeans_state"
#: At most this many settings of a figure's controls have their state stored in its spec (:func:`states`).
MAX_STATES = 600


def sentence(text: object) -> str:
    """Lines of text (a figure's read-out, as the live figures print it) as one sentence.

    Examples
    --------
    >>> sentence("AM    0.2600\\nHM    undefined (a score is 0)")
    'AM 0.2600; HM undefined (a score is 0).'
    """
    lines = [" ".join(line.split()) for line in str(text).splitlines() if line.strip()]
    return "; ".join(lines).rstrip(".") + "."


def states(spec: Spec, overview: str, state: Callable[..., str], limit: int = MAX_STATES) -> dict[str, Any]:
    """What the site needs to make a figure's text follow its controls: ``usermeta`` entries for ``spec``.

    ``irmeans_overview`` is what the figure shows at any setting (``overview``). If its controls have at most
    ``limit`` settings, ``irmeans_states`` holds each: ``{"controls": [name, ...], "rows": [[value, ...,
    text], ...]}``, the text ``state(**setting)`` (a setting for which ``state`` raises LookupError, one where
    the figure has no data, has no row); the site shows the row of the reader's setting. With more, the spec
    should say its state itself, in a parameter or a mark named :data:`STATE` (read as drawn): the book's
    figures do (tests/browser/test_site_figures.py).

    Examples
    --------
    >>> spec = {"params": [{"name": "k", "value": 1, "bind": {"input": "select", "options": [1, 2]}}], "mark": "point"}
    >>> states(spec, "Points.", lambda k: f"k = {k}.")["irmeans_states"]
    {'controls': ['k'], 'rows': [[1, 'k = 1.'], [2, 'k = 2.']]}
    """
    import itertools

    found = controls(spec)
    grids = [c.values() for c in found]
    count = int(np.prod([len(g) for g in grids])) if grids else 1
    out: dict[str, Any] = {"irmeans_overview": overview}
    if count > limit or any(not g for g in grids):
        return out
    names = [c.name for c in found]
    rows = []
    for values in itertools.product(*grids):
        try:
            rows.append([*values, state(**dict(zip(names, values))).strip()])
        except LookupError:
            continue
    out["irmeans_states"] = {"controls": names, "rows": rows}
    return out


def figure_id(spec: Spec) -> str:
    """A deterministic HTML id for ``spec``: a hash of its canonical JSON.

    Examples
    --------
    >>> figure_id({"mark": "point"})
    'vl-6ecaf69c8026'
    """
    digest = hashlib.sha256(json.dumps(spec, sort_keys=True).encode("utf-8")).hexdigest()
    return f"vl-{digest[:12]}"


#: The function of the site's ``irmeans-figures.js`` that fits a figure to its page and draws it.
SITE_DRAW = "irmeansDraw"


def embed_html(spec: Spec) -> str:
    """HTML for the site: a labelled div and the script that draws the figure in it.

    The figure is drawn by the site's ``irmeans-figures.js`` (with the site's
    own copy of Vega, loaded on the page before the body; nothing is fetched
    from elsewhere), which fits it to the page's column and colours. Once
    drawn, the figure's ``vegaEmbed`` result (with its Vega ``view``) is kept in
    ``window.irmeansFigures[id]``; a failure is logged as a console error.

    Examples
    --------
    >>> h = embed_html({"description": "A <b> chart", "mark": "point"})
    >>> 'id="vl-' in h and 'aria-label="A &lt;b&gt; chart"' in h and "irmeansDraw(" in h
    True
    """
    div = figure_id(spec)
    label = html.escape(spec.get("description", ""), quote=True)
    # "</" inside a script's JSON would end the script element early.
    payload = json.dumps(spec, sort_keys=True, separators=(",", ":")).replace("</", "<\\/")
    return (
        f'<div class="irmeans-figure" id="{div}" role="figure" aria-label="{label}">'
        f"<noscript>{label}</noscript></div>\n"
        "<script>\n(function () {\n"
        f'  var draw = function () {{ window.{SITE_DRAW}("{div}", {payload}); }};\n'
        f'  if (window.{SITE_DRAW}) {{ draw(); }} else {{ window.addEventListener("load", draw); }}\n'
        "})();\n</script>"
    )


# ---------------------------------------------------------------------------
# Data and controls
# ---------------------------------------------------------------------------


def slider_param(name: str, values: ArrayLike, value: float, label: str, step: float | None = None) -> alt.Parameter:
    """A parameter bound to a slider that steps over a grid of precomputed settings.

    The slider runs from the grid's smallest to its largest value in steps of
    its smallest gap, so every position it can take is a row of the figure's
    table.

    Parameters
    ----------
    name : str
        The parameter's name, used in the chart's expressions.
    values : array_like
        The grid of settings the table was computed for.
    value : float
        The initial setting.
    label : str
        The text shown beside the slider.
    step : float, optional
        The slider's step; by default the grid's smallest gap. Given, a value off
        the steps (a reader's own score, added to the grid) is where the slider
        starts, and its steps are the grid's.

    Examples
    --------
    >>> p = slider_param("eps", [0.0, 0.5, 1.0], 0.5, "ε ")
    >>> p.param.bind.to_dict()
    {'input': 'range', 'max': 1.0, 'min': 0.0, 'name': 'ε ', 'step': 0.5}
    """
    grid = np.unique(np.asarray(values, dtype=float))
    if grid.size == 0:
        raise ValueError("a slider needs at least one setting")
    if step is None:
        step = float(np.round(np.min(np.diff(grid)), 10)) if grid.size > 1 else 1.0
    return alt.param(
        name=name,
        value=float(value),
        bind=alt.binding_range(min=float(grid[0]), max=float(grid[-1]), step=step, name=label),
    )


@dataclasses.dataclass(frozen=True)
class Grid:
    """A slider's settings, written once: ``start`` to ``stop`` in steps of ``step``.

    The one definition of a slider for both of its forms: the site's
    (:meth:`param`, a Vega-Lite parameter over the precomputed rows,
    :attr:`values`) and the kernel's (:meth:`float_slider`, an ipywidgets
    slider with the same range and step). Each value is rounded to
    ``decimals``, so that it is the number the slider shows.

    Examples
    --------
    >>> g = Grid(0.01, 0.05, 0.01, decimals=2)
    >>> g.values.tolist()
    [0.01, 0.02, 0.03, 0.04, 0.05]
    >>> g.param("w", 0.03, "w ").param.bind.to_dict()["step"]
    0.01
    """

    start: float
    stop: float
    step: float
    decimals: int = 10

    @property
    def values(self) -> np.ndarray:
        """Every setting, from :attr:`start` to :attr:`stop`."""
        n = int(round((self.stop - self.start) / self.step))
        return np.round(self.start + np.arange(n + 1) * self.step, self.decimals)

    def param(self, name: str, value: float, label: str) -> alt.Parameter:
        """The Vega-Lite parameter of the slider (:func:`slider_param` over :attr:`values`)."""
        return slider_param(name, self.values, value, label)

    def float_slider(self, value: float, description: str, **options: Any) -> Any:
        """The same slider as an ipywidgets ``FloatSlider``, redrawing when let go, starting at ``value``: a
        reader's own value beyond the grid's ends is where it starts too (the slider reaches it, as the site's
        does, whose grid then has it).

        Examples
        --------
        >>> s = Grid(0.01, 0.30, 0.01).float_slider(0.6, "A")
        >>> s.value, s.min, s.max
        (0.6, 0.01, 0.6)
        """
        import ipywidgets as w

        return w.FloatSlider(
            value=float(value),
            min=min(float(self.start), float(value)),
            max=max(float(self.stop), float(value)),
            step=float(self.step),
            description=description,
            continuous_update=False,
            **options,
        )

    def float_log_slider(self, value: float, description: str, **options: Any) -> Any:
        """The same slider over exponents of 10 as an ipywidgets ``FloatLogSlider``: it shows and gives
        ``10 ** k`` for the grid's ``k``; ``value`` is that power of 10."""
        import ipywidgets as w

        exponent = float(np.log10(value))
        return w.FloatLogSlider(
            value=float(value),
            base=10,
            min=min(float(self.start), exponent),
            max=max(float(self.stop), exponent),
            step=float(self.step),
            description=description,
            continuous_update=False,
            **options,
        )


def example(values: ArrayLike, dtype: DTypeLike = float) -> np.ndarray:
    """A chapter's example data as a read-only float array: the one copy the chapter,
    its figures and its self-checks share, which none of them can change by accident.

    Examples
    --------
    >>> x = example([0.5, 0.25])
    >>> x.tolist(), x.flags.writeable
    ([0.5, 0.25], False)
    """
    array = np.array(values, dtype=dtype)
    array.setflags(write=False)
    return array


_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def power_of_ten(k: float) -> str:
    """10 to the power ``k`` as a log axis labels it, short: 10⁻⁵ below 1, 1 to 1000 as numbers, 10⁴ above.

    Examples
    --------
    >>> [power_of_ten(k) for k in (-5, -1, 0, 2, 4)]
    ['10⁻⁵', '10⁻¹', '1', '100', '10⁴']
    """
    k = int(k)
    return str(10**k) if 0 <= k <= 3 else "10" + str(k).translate(_SUPERSCRIPT)


def csv_data(frame: Any) -> alt.InlineData:
    """A DataFrame as inline Vega-Lite data in CSV: far smaller than JSON rows.

    Every column is parsed as a number on the page.

    Examples
    --------
    >>> import pandas as pd
    >>> d = csv_data(pd.DataFrame({"m": [0, 1], "ap": [0.5, 1.0]}))
    >>> d.values
    'm,ap\\n0,0.5\\n1,1\\n'
    """
    text = frame.to_csv(index=False, lineterminator="\n")
    text = re.sub(r"(?<=\d)\.0(?=[,\n])", "", text)  # 1.0 -> 1: the page needs no trailing zero
    return alt.InlineData(values=text, format=alt.DataFormat(type="csv", parse={c: "number" for c in frame.columns}))


# ---------------------------------------------------------------------------
# Live controls in Jupyter
# ---------------------------------------------------------------------------


class LiveFigure:
    """ipywidgets controls that redraw a chart: the site's figure, driven by a kernel.

    ``draw`` takes the widgets' values as keyword arguments and returns a
    :class:`VegaLiteFigure` (made by the same chart function as the site's
    figure, with ``show(..., controls=False)``). Displayed in Jupyter, the
    widgets come first and the figure below them; each change of a widget
    redraws the figure in place.

    Parameters
    ----------
    widgets : dict of str to ipywidgets.ValueWidget
        The controls, by the name ``draw`` knows them by.
    draw : callable
        ``draw(**values) -> VegaLiteFigure``.

    Attributes
    ----------
    figure : VegaLiteFigure
        The figure as last drawn.
    """

    def __init__(self, widgets: Mapping[str, Any], draw: Callable[..., VegaLiteFigure]) -> None:
        self.widgets = dict(widgets)
        self._draw = draw
        self._handle: Any = None
        self.figure: VegaLiteFigure | None = None
        self.redraw()
        for widget in self.widgets.values():
            widget.observe(self._changed, names="value")

    def values(self) -> dict[str, Any]:
        """The widgets' values, by name."""
        return {name: widget.value for name, widget in self.widgets.items()}

    def redraw(self) -> VegaLiteFigure:
        """Draw the figure for the widgets' values; update it in the notebook if shown."""
        self.figure = self._draw(**self.values())
        if self._handle is not None:
            self._handle.update(self.figure)
        return self.figure

    def _changed(self, change: object) -> None:
        self.redraw()

    def box(self) -> Any:
        """The widgets in a wrapping row."""
        import ipywidgets as w

        return w.Box(list(self.widgets.values()), layout=w.Layout(flex_flow="row wrap"))

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.box())
        self._handle = display(self.figure, display_id=True)
