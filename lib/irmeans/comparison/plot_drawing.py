"""How compare's plot is drawn: the figure :mod:`irmeans.comparison.plot` describes, as a static matplotlib figure
written whole or not at all (:func:`save_topic_differences`).

One canvas in pixels (no ``Axes`` a panel: 75 of them, with their ticks and text objects, took seconds): every
bar of a colour one path, the panels' lines one collection, their many small words one path of letters
(:class:`Lettering`), and as text only the title, the headings and the pairs' names. matplotlib is set up
here whatever the user's matplotlibrc says, without pyplot (no display, no global figure), and its warnings
and log messages are kept from the user.
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import secrets
import textwrap
import unicodedata
import warnings
from collections.abc import Callable, Iterator, Sequence
from typing import IO, Any

import numpy as np

from ..errors import IrmeansError, shown_path
from .plot import (
    LEGEND_TITLE,
    NEEDS,
    PALETTE,
    PANEL_HEIGHT,
    PLOT_FORMATS,
    TITLE,
    X_TITLE,
    check_differences,
    panel_width,
    shown_name,
    sorted_panels,
)

__all__ = ["save_topic_differences", "drawing", "figure", "Lettering", "DPI"]

# The static figure's layout, in pixels at 100 dpi (the SVG's unit is the point, 72 an inch; the PNG is drawn at
# twice the pixels). Sizes of text are in points.
DPI = 100
_LABEL_POINTS, _TEXT_POINTS, _HEAD_POINTS, _TITLE_POINTS = 7, 8, 9, 12
_LABEL_CHARS = 24  # a topic's label is cut to this many columns, with an ellipsis
_LEFT, _GAP, _MARGIN = 58, 22, 16  # beside each panel: its y axis, the gap between columns, the figure's margin
_ROW_HEAD, _ROW_GAP = 18, 12  # above each row: the pair's name; below it, a gap
_INK = "#333333"


def _pixels(points: float) -> float:
    return points * DPI / 72


def _columns_wide(text: str) -> int:
    """Terminal-like width of ``text``: East Asian wide and full-width characters take 2."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _cut(text: str, width: int) -> str:
    """``text`` cut to ``width`` columns, with an ellipsis where it was cut."""
    if _columns_wide(text) <= width:
        return text
    out, used = [], 0
    for c in text:
        w = _columns_wide(c)
        if used + w > width - 1:
            break
        out.append(c)
        used += w
    return "".join(out) + "…"


def _ticks(low: float, high: float) -> tuple[np.ndarray, list[str]]:
    """About four round values from ``low`` to ``high`` and their labels (as few digits as tell them apart)."""
    from matplotlib.ticker import MaxNLocator

    values = np.asarray(MaxNLocator(nbins=4, steps=[1, 2, 2.5, 5, 10]).tick_values(low, high), dtype=np.float64)
    values = values[(values >= low - 1e-9 * (high - low)) & (values <= high + 1e-9 * (high - low))]
    step = float(np.diff(values).min()) if values.size > 1 else max(abs(high), abs(low), 1.0)
    scale = max(abs(float(values[0])), abs(float(values[-1]))) if values.size else 1.0
    if step and 1e-4 <= scale < 1e6:
        decimals = len(f"{step:.12f}".rstrip("0").partition(".")[2])  # those of the step between ticks
        labels = [f"{v:.{decimals}f}" for v in values.tolist()]
    else:
        labels = [f"{v:.3g}" for v in values.tolist()]
    return values, [label.replace("-", "\u2212") if label.lstrip("-0.") else "0" for label in labels]


@contextlib.contextmanager
def drawing() -> Iterator[Any]:
    """matplotlib with the settings the figure needs whatever the user's matplotlibrc says, and its own warnings
    and log messages (a cache directory made elsewhere, a glyph no font has) kept from the user."""
    logger = logging.getLogger("matplotlib")
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                import matplotlib
                from matplotlib.backends import backend_agg, backend_svg  # noqa: F401  (now, not in savefig)
                from matplotlib.figure import Figure  # no pyplot: no display, no global figure
            except ImportError as exc:
                _interrupted(exc)
                raise IrmeansError(NEEDS) from None
            rc: dict[Any, Any] = {
                "text.usetex": False,
                "text.parse_math": False,  # a '$' in a name is a dollar sign, not mathematics
                "svg.fonttype": "none",  # text as text: small, searchable, any script the viewer's fonts have
                "svg.hashsalt": "irmeans",  # the same ids in the SVG on every run
                "font.family": "sans-serif",
                "font.sans-serif": ["DejaVu Sans"],  # shipped with matplotlib
                "path.simplify": False,
            }
            with matplotlib.rc_context(rc):
                yield Figure
    finally:
        logger.setLevel(level)


def _rectangles(left: np.ndarray, right: np.ndarray, top: np.ndarray, bottom: np.ndarray) -> Any:
    """One path of many rectangles (a subpath each): a single element of the SVG, a single fill of Agg."""
    from matplotlib.path import Path

    n = left.size
    vertices = np.empty((n, 5, 2))
    vertices[:, [0, 1, 4], 0], vertices[:, [2, 3], 0] = left[:, None], right[:, None]
    vertices[:, [0, 3, 4], 1], vertices[:, [1, 2], 1] = bottom[:, None], top[:, None]
    codes = np.tile(np.array([Path.MOVETO, Path.LINETO, Path.LINETO, Path.LINETO, Path.CLOSEPOLY], Path.code_type), n)
    return Path(vertices.reshape(-1, 2), codes)


class Lettering:
    """The panels' many small words (topics, tick values, axis titles) as the outlines of their letters, gathered
    into one path: drawn as one fill, where as many text objects took seconds to lay out and draw (each word's
    outline is made once, however often it is placed)."""

    def __init__(self, points: float):
        from matplotlib.font_manager import FontProperties

        self.prop = FontProperties(family="DejaVu Sans", size=points)
        self.scale = DPI / 72  # the outlines are in points; the canvas in pixels
        self.cache: dict[str, tuple[np.ndarray, np.ndarray, float]] = {}
        self.vertices: list[np.ndarray] = []
        self.codes: list[np.ndarray] = []
        self.middle = _pixels(points) * 0.36  # half the height of a digit

    def _outline(self, text: str) -> tuple[np.ndarray, np.ndarray, float]:
        if text not in self.cache:
            from matplotlib.textpath import TextPath

            path = TextPath((0, 0), text or " ", prop=self.prop)
            vertices = path.vertices * self.scale
            length = float(vertices[:, 0].max(initial=0.0))
            self.cache[text] = (vertices, path.codes, length)
        return self.cache[text]

    def across(self, text: str, x: float, y: float, align: str = "left") -> None:
        """``text`` on a line, its middle at height ``y``, starting at ``x`` (ending there: ``"right"``;
        centred: ``"center"``)."""
        vertices, codes, length = self._outline(text)
        x -= {"left": 0.0, "center": length / 2, "right": length}[align]
        self.vertices.append(np.column_stack([x + vertices[:, 0], y + self.middle - vertices[:, 1]]))
        self.codes.append(codes)

    def upward(self, text: str, x: float, y: float, align: str = "end") -> None:
        """``text`` read from bottom to top, centred on ``x``: its end at height ``y`` (``"end"``, below an
        axis), or its middle there (``"center"``)."""
        vertices, codes, length = self._outline(text)
        start = y + (length if align == "end" else length / 2)
        self.vertices.append(np.column_stack([x + self.middle - vertices[:, 1], start - vertices[:, 0]]))
        self.codes.append(codes)

    def take(self, colour: str) -> Any:
        """The words placed since the last take, as one patch of ``colour`` (None if there are none)."""
        from matplotlib.path import Path

        if not self.vertices:
            return None
        path = Path(np.concatenate(self.vertices), np.concatenate(self.codes))
        self.vertices, self.codes = [], []
        return _fill(path, colour)


def figure(
    figure_class: Any,
    pairs: Sequence[str],
    columns: Sequence[str],
    topics: Sequence[str],
    d: np.ndarray,
    title: str,
) -> Any:
    """The static figure, drawn on one canvas in pixels: every bar of a colour one path, the panels' lines one
    collection, their words one path of letters (:class:`Lettering`), and as text only the title, the headings
    and the pairs' names. Only the topics' labels that fit are drawn, as Vega's ``labelOverlap`` does. (A
    matplotlib ``Axes`` a panel, with its ticks and text objects, took seconds for 75 panels.)"""
    from matplotlib.collections import LineCollection
    from matplotlib.text import Text

    n_pairs, n_columns, n_topics = d.shape
    order = sorted_panels(d)
    width = panel_width(n_topics)
    pitch = width / n_topics
    every = max(1, math.ceil(_pixels(_LABEL_POINTS) * 1.25 / pitch))
    labels = [_cut(shown_name(t), _LABEL_CHARS) for t in topics]
    shown = np.arange(0, n_topics, every)
    lettering = Lettering(_LABEL_POINTS)
    longest = max((lettering._outline(labels[t])[2] for t in order[:, :, shown].ravel().tolist()), default=1.0)
    below = 4 + longest + 4 + _pixels(_LABEL_POINTS) * 1.6
    row = _ROW_HEAD + PANEL_HEIGHT + below + _ROW_GAP
    fig_width = _MARGIN + n_columns * (_LEFT + width + _GAP)
    line = _pixels(_TEXT_POINTS) * 1.4
    subtitle = (
        textwrap.wrap(shown_name(title), max(40, int(fig_width / (_pixels(_TEXT_POINTS) * 0.55)))) if title else []
    )
    head = _MARGIN + _pixels(_TITLE_POINTS) * 1.5 + len(subtitle) * line + line + 8  # the title, the legend
    top = head + _pixels(_HEAD_POINTS) * 1.6  # the columns' headings
    fig_height = top + n_pairs * row + _MARGIN
    fig = figure_class(figsize=(fig_width / DPI, fig_height / DPI), dpi=DPI, facecolor="white")
    ax = fig.add_axes((0, 0, 1, 1))  # the canvas: x and y in pixels, y down
    ax.set_axis_off()
    ax.set_xlim(0, fig_width)
    ax.set_ylim(fig_height, 0)
    texts: list[Any] = []

    def text(x: float, y: float, words: str, **style: Any) -> None:
        texts.append(Text(x, y, words, transform=ax.transData, **style))

    text(_MARGIN, _MARGIN, TITLE, fontsize=_TITLE_POINTS, weight="bold", va="top")
    for k, sub in enumerate(subtitle):
        text(
            _MARGIN, _MARGIN + _pixels(_TITLE_POINTS) * 1.5 + k * line, sub, fontsize=_TEXT_POINTS, va="top", color=_INK
        )
    # the legend, at the right: a square of each colour and what it means
    x = fig_width - _MARGIN - 3 * 52
    legend_y = head - line - 4
    text(x - 8, legend_y, LEGEND_TITLE, fontsize=_TEXT_POINTS, ha="right", va="center", color=_INK)
    swatches = np.arange(3) * 52 + x
    for k, name in enumerate(("A", "B", "tie")):
        text(swatches[k] + 14, legend_y, name, fontsize=_TEXT_POINTS, va="center", color=_INK)

    lefts = _MARGIN + _LEFT + np.arange(n_columns) * (_LEFT + width + _GAP)
    for j, column in enumerate(columns):
        text(lefts[j] + width / 2, top - 4, shown_name(column), fontsize=_HEAD_POINTS, ha="center", va="bottom")
    for k, colour in enumerate(PALETTE):
        ax.add_artist(
            _fill(
                _rectangles(*(np.array([e]) for e in (swatches[k], swatches[k] + 10, legend_y - 5, legend_y + 5))),
                colour,
            )
        )
    segments = []
    rank = np.arange(n_topics)
    # A row's bars (a path a colour) and its words (a path) are drawn together and apart from the other rows':
    # no one fill takes long, so that Ctrl-C, which Python acts on between them, stops the drawing at once.
    for i, pair in enumerate(pairs):
        edges: list[list[np.ndarray]] = [[], [], [], []]
        colours = []
        row_top = top + i * row
        text(_MARGIN, row_top + 2, shown_name(pair), fontsize=_HEAD_POINTS, weight="bold", va="top")
        y0, y1 = row_top + _ROW_HEAD, row_top + _ROW_HEAD + PANEL_HEIGHT
        for j in range(n_columns):
            left = float(lefts[j])
            v = d[i, j, order[i, j]]
            h = np.where(np.isfinite(v), v, 0.0)
            low, high = min(0.0, float(h.min())), max(0.0, float(h.max()))
            if not math.isfinite(high - low):  # differences near the largest double: halved, the same picture
                h, low, high = h / 2, low / 2, high / 2
            if high == low:
                low, high = -1.0, 1.0
            values, tick_labels = _ticks(low, high)
            low, high = min(low, float(values.min())), max(high, float(values.max()))
            y = y1 - (np.append(h, values) - low) / (high - low) * PANEL_HEIGHT
            zero = float(y1 - (0.0 - low) / (high - low) * PANEL_HEIGHT)
            edges[0].append(left + (rank + 0.1) * pitch)
            edges[1].append(left + (rank + 0.9) * pitch)
            edges[2].append(np.minimum(y[:n_topics], zero))
            edges[3].append(np.maximum(y[:n_topics], zero))
            colours.append(np.where(h > 0, 0, np.where(h < 0, 1, 2)))
            segments += [
                ((left, y0), (left, y1)),
                ((left, y1), (left + width, y1)),
                ((left, zero), (left + width, zero)),
            ]
            for at, label in zip(y[n_topics:].tolist(), tick_labels):
                segments.append(((left - 3, at), (left, at)))
                lettering.across(label, left - 5, at, "right")
            lettering.upward("difference", left - _LEFT + 4, (y0 + y1) / 2, "center")
            centres = left + (shown + 0.5) * pitch
            for c, t in zip(centres.tolist(), order[i, j, shown].tolist()):
                segments.append(((c, y1), (c, y1 + 2)))
                lettering.upward(labels[t], c, y1 + 4)
            lettering.across(X_TITLE, left + width / 2, row_top + row - _ROW_GAP - _pixels(_LABEL_POINTS), "center")
        every_colour = np.concatenate(colours)
        bounds = [np.concatenate(e) for e in edges]
        for k, colour in enumerate(PALETTE):
            mine = every_colour == k
            if mine.any():
                ax.add_artist(_fill(_rectangles(*(b[mine] for b in bounds)), colour))
        ax.add_artist(lettering.take(_INK))
    ax.add_collection(LineCollection(segments, colors="#555555", linewidths=0.6), autolim=False)
    fig.texts.extend(texts)  # as Figure.text adds them, without its bookkeeping for each
    for t in texts:
        t.set_figure(fig)
    return fig


def _fill(path: Any, colour: str) -> Any:
    """A path filled with ``colour``, without an outline."""
    from matplotlib.patches import PathPatch

    return PathPatch(path, facecolor=colour, edgecolor="none", linewidth=0)


def _interrupted(exc: ImportError) -> None:
    """Ctrl-C while a C extension was being imported, which Python reports as an ImportError ("initialization
    failed"): raised again as what it is, so that the command ends with 130, not a traceback."""
    if isinstance(exc.__cause__ or exc.__context__, KeyboardInterrupt):
        raise KeyboardInterrupt from None


def _write_whole(path: str, write: Callable[[IO[bytes]], None]) -> None:
    """Write ``path`` through ``write`` into a new file beside it, renamed onto it once whole: a failed or
    interrupted write (Ctrl-C included) leaves what was there before as it was, and no file of its own behind."""
    folder, name = os.path.split(path)
    temporary: str | None = None
    try:
        while temporary is None:
            candidate = os.path.join(folder, f".{name}.{secrets.token_hex(4)}.part")
            try:  # created with the mode a new file gets (0o666 less the umask), as open() would
                fd = os.open(candidate, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            except FileExistsError:  # pragma: no cover - 32 random bits taken
                continue
            temporary = candidate
        with os.fdopen(fd, "wb") as f:
            try:
                write(f)
            except ImportError as exc:  # what a backend imports as it writes (Pillow's codecs)
                _interrupted(exc)
                raise
        os.replace(temporary, path)
        temporary = None
    except OSError as exc:
        raise IrmeansError(f"{shown_path(path)}: cannot write the plot ({exc.strerror or exc})") from None
    finally:
        if temporary is not None:
            with contextlib.suppress(OSError):
                os.unlink(temporary)


def save_topic_differences(
    path: str | os.PathLike[str],
    pairs: Sequence[str],
    columns: Sequence[str],
    topics: Sequence[str],
    differences: np.ndarray,
    title: str = "",
) -> None:
    """Draw per-topic differences, ``differences[pair, column, topic]``, into ``path``: SVG, or PNG at 200 dpi,
    by the file's extension.

    A row of panels per pair, a panel per column (an average, on its scale), each panel's topics
    sorted from the largest difference to the smallest, every few named on its axis (as many as fit),
    bars above 0 in Okabe and Ito's blue (A better), below in their orange (B better). The file is
    written whole or not at all.

    Raises
    ------
    IrmeansError
        Another extension, matplotlib missing (``pip install 'irmeans[plot]'``), or a file that cannot be
        written (naming it and why).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "differences.svg"
    >>> save_topic_differences(path, ["A - B"], ["AM: x"], ["401", "402"], np.array([[[0.5, -0.25]]]))
    >>> path.read_text(encoding="utf-8").count("<svg")
    1
    """
    path = os.fspath(path)
    ext = os.path.splitext(path)[1].lower()
    if ext not in PLOT_FORMATS:
        raise IrmeansError(f"{shown_path(path)}: a plot is written as {' or '.join(PLOT_FORMATS)}, by its extension")
    d = check_differences(pairs, columns, topics, differences)
    with drawing() as figure_class:
        fig = figure(figure_class, pairs, columns, topics, d, title)
        fmt = ext[1:]
        # the SVG without its date, so that the same comparison gives the same file; the PNG's pixels compressed
        # at zlib's level 3, which on this figure costs half of level 6's time for a file 5 % larger
        settings = {"metadata": {"Date": None}} if fmt == "svg" else {"pil_kwargs": {"compress_level": 3}}
        _write_whole(path, lambda f: fig.savefig(f, format=fmt, dpi=2 * DPI, **settings))
