"""Systems × topics matrices of per-topic scores, and the runs that give them.

A :class:`ScoreMatrix` is what the experiments on averages take: one row of per-topic scores
for each system, with the systems and topics named. The shipped TREC matrices
(:func:`irmeans.datasets.load`), a user's CSV (:func:`irmeans.datasets.read_csv`), a dict of
per-topic scores (:meth:`ScoreMatrix.from_dict`) and a set of runs evaluated against one qrels
(:func:`evaluate_runs`) all give one. numpy reads it as its scores, so it goes wherever a
systems × topics array does (``split_half(matrix, "am")``); :func:`irmeans.compare` keeps its
names.

>>> from irmeans.score_matrix import ScoreMatrix
>>> m = ScoreMatrix.from_dict({"bm25": {"401": 0.5, "402": 0.1}, "dfr": {"402": 0.2, "401": 0.4}})
>>> m.systems, m.topics, m.scores.tolist()
(('bm25', 'dfr'), ('401', '402'), [[0.5, 0.1], [0.4, 0.2]])
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ._python_input import frame_matrix, ids, is_frame, nested_matrix
from ._validation import float_array
from .errors import IrmeansError, shown_path, shown_value

if TYPE_CHECKING:
    from .trec.inputs import QrelsInput, RunInput

__all__ = ["ScoreMatrix", "evaluate_runs"]


def _names(values: Sequence[object], what: str) -> tuple[str, ...]:
    """Row or column names read as every id of the Python API is (:mod:`irmeans._python_input`), each once."""
    names = tuple(ids(values, what, f"the {what}s", fields=False))
    seen: dict[str, int] = {}
    for i, name in enumerate(names):
        if name in seen:
            raise IrmeansError(f"{what} {name!r} is named twice (at positions {seen[name]} and {i})")
        seen[name] = i
    return names


@dataclass(frozen=True, eq=False)
class ScoreMatrix:
    """Per-topic scores of a set of systems: a labelled systems × topics array.

    Attributes
    ----------
    scores : ndarray, shape (systems, topics)
        Read-only float64.
    systems, topics : tuple of str
        Row and column labels, each unique. The shipped TREC files name their runs
        anonymously (``run1``…); most do not name their topics, whose labels are then
        their positions ``1``… in the file.
    collection, measure : str
        For the shipped data, keys of :data:`irmeans.datasets.COLLECTIONS` and
        :data:`irmeans.datasets.MEASURES`; for runs, the qrels file's name and trec_eval's
        name of the measure (``map``).
    citation : str
        Where the scores come from ("" for a user's own).
    label : str
        A readable name for titles, for example ``'TREC-8 ad hoc (1999), AP'``; by
        default :attr:`name`.

    Examples
    --------
    >>> import numpy as np
    >>> scores = [[0.5, 0.1], [0.25, 0.0]]
    >>> m = ScoreMatrix(scores, ("A", "B"), ("401", "402"), measure="map")
    >>> m, m.shape, np.asarray(m).sum()
    (ScoreMatrix('map', systems=2, topics=2), (2, 2), np.float64(0.85))
    """

    scores: np.ndarray
    systems: tuple[str, ...]
    topics: tuple[str, ...]
    collection: str = ""
    measure: str = ""
    citation: str = ""
    label: str = ""

    def __post_init__(self) -> None:
        scores = float_array(self.scores, "scores")
        if scores.ndim != 2:
            raise IrmeansError(f"scores must be a 2-d systems × topics array, got shape {scores.shape}")
        if scores.flags.writeable or not scores.flags.c_contiguous:
            scores = np.array(scores, order="C")  # a copy of its own, which no one can change
            scores.flags.writeable = False
        systems, topics = _names(self.systems, "system"), _names(self.topics, "topic")
        if scores.shape != (len(systems), len(topics)):
            raise IrmeansError(
                f"scores of shape {scores.shape} for {len(systems)} systems and {len(topics)} topics: "
                "expected one row per system and one column per topic"
            )
        object.__setattr__(self, "scores", scores)
        object.__setattr__(self, "systems", systems)
        object.__setattr__(self, "topics", topics)
        if not self.label:
            object.__setattr__(self, "label", self.name)

    @classmethod
    def from_dict(cls, scores: Mapping[str, Mapping[str, float]], *, measure: str = "") -> ScoreMatrix:
        """A matrix from ``{system: {topic: score}}``, the per-topic form of ranx and pytrec_eval.

        Every system must score the same topics; they are put in the first system's order. A
        topic one system lacks is refused, not scored 0: a run without results for a topic
        scores 0 on it only if it was evaluated that way (trec_eval's ``-c``;
        :func:`evaluate_runs` does so).  Names and scores are read as the Python API reads them
        (:mod:`irmeans._python_input`): ``1`` and ``1.0`` are the topic ``'1'``, which ``'1'``
        beside them would be too (refused, naming both); a score given as text is read as C
        reads numbers.

        Examples
        --------
        >>> ScoreMatrix.from_dict({"A": {"1": 0.5, "2": 0.1}, "B": {"1": 0.3}})
        ... # doctest: +ELLIPSIS
        Traceback (most recent call last):
          ...
        irmeans.errors.IrmeansError: system 'B' has no score for 1 of the 2 topics ...
        """
        values, systems, topics = nested_matrix(scores)
        return cls(values, systems, topics, measure=measure)

    @classmethod
    def from_frame(cls, frame: Any, *, measure: str = "") -> ScoreMatrix:
        """A matrix from a pandas DataFrame: its index names the systems, its columns the topics.

        Names and cells are read as :meth:`from_dict` reads them (a cell ``'1_0'`` is refused, not
        read as 10 as Python's ``float`` reads it).

        Examples
        --------
        >>> import pandas as pd
        >>> ScoreMatrix.from_frame(pd.DataFrame({401: [0.5, "0.25"]}, index=["A", "B"])).scores.tolist()
        [[0.5], [0.25]]
        """
        if not is_frame(frame):
            raise IrmeansError(f"from_frame takes a pandas DataFrame, got {type(frame).__name__}")
        values, systems, topics = frame_matrix(frame)
        return cls(values, systems, topics, measure=measure)

    @property
    def name(self) -> str:
        """``collection_measure`` (the shipped file's name without ``.csv``), or whichever of the two is given."""
        return "_".join(part for part in (self.collection, self.measure) if part)

    @property
    def shape(self) -> tuple[int, int]:
        """(systems, topics)."""
        rows, columns = self.scores.shape
        return rows, columns

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        if copy or (dtype is not None and np.dtype(dtype) != self.scores.dtype):
            return np.array(self.scores, dtype=dtype)
        return self.scores

    def __repr__(self) -> str:
        return f"ScoreMatrix({self.name!r}, systems={self.shape[0]}, topics={self.shape[1]})"


def evaluate_runs(
    qrels: QrelsInput,
    runs: Sequence[RunInput] | Mapping[str, RunInput],
    measure: str,
    *,
    relevance_level: int = 1,
    depth: int | None = None,
    progress: Callable[[int], object] | None = None,
) -> ScoreMatrix:
    """Evaluate several runs against one qrels: their per-topic scores as a systems × topics matrix.

    Every run is evaluated on every topic of the qrels, as trec_eval's ``-c`` does (a topic
    a run has no line for scores 0 there, with a warning naming the run), so that the runs'
    scores pair up topic by topic; topics the qrels does not judge are left out, as
    trec_eval leaves them out. Each run goes through :func:`irmeans.evaluate`.

    Parameters
    ----------
    qrels : Qrels, path, or what :func:`irmeans.evaluate` takes as qrels
        A file is read once for all the runs.
    runs : sequence or mapping of runs
        Files, :class:`~irmeans.trec.files.Run` objects, or whatever :func:`irmeans.evaluate`
        takes as a run. A mapping names each run by its key. A sequence names each by its
        runid (the sixth field of its lines); if two runs share a runid, by their files'
        names instead (the paths as given if two files share a name).
    measure : str
        One trec_eval measure that gives one value a topic: ``map``, ``P.10``,
        ``ndcg_cut.20``, ``recip_rank``...
    relevance_level, depth : int
        As for :func:`irmeans.evaluate` (trec_eval's ``-l`` and ``-M``).
    progress : callable, optional
        Called with 1 after each run is evaluated.

    Returns
    -------
    ScoreMatrix
        Systems in the order given, topics in trec_eval's order; ``collection`` is the
        qrels file's name (without its extension) and ``measure`` trec_eval's name of the
        measure (``P_10``).

    Examples
    --------
    >>> qrels = (["1", "1", "2"], ["a", "b", "c"], [1, 0, 1])
    >>> runs = {"good": (["1", "2"], ["a", "c"], [1.0, 1.0]),
    ...         "bad": (["1", "2"], ["b", "c"], [1.0, 1.0])}
    >>> m = evaluate_runs(qrels, runs, "map")
    >>> m.systems, m.topics, m.scores.tolist(), m.measure
    (('good', 'bad'), ('1', '2'), [[1.0, 1.0], [0.0, 1.0]], 'map')
    """
    from .trec.evaluate import evaluate
    from .trec.files import read_qrels
    from .trec.table import parse_measures

    if isinstance(runs, Mapping):
        given_names: list[str] | None = [str(k) for k in runs]
        sources = list(runs.values())
    elif isinstance(runs, Sequence | Iterator) and not isinstance(runs, (str, bytes)):
        given_names, sources = None, list(runs)  # a generator read once
    else:
        raise IrmeansError(f"runs must be a sequence or a mapping of runs, got {shown_value(runs)}")
    if not isinstance(measure, str):
        raise IrmeansError(f"measure must be one trec_eval measure such as 'map' or 'P.10', got {shown_value(measure)}")
    chosen = parse_measures([measure])
    if len(chosen.numbers) != 1:  # the measure's own lines: known before any run is read
        found = ", ".join(chosen.numbers) or "none"
        raise IrmeansError(f"measure {measure!r} gives {len(chosen.numbers)} values a topic ({found}): pick one")
    (line,) = chosen.numbers
    if not sources:
        raise IrmeansError("no runs to evaluate")
    stdin = [s for s in sources if isinstance(s, str) and s == "-"]
    if len(stdin) + (isinstance(qrels, str) and qrels == "-") > 1:
        raise IrmeansError("'-' (standard input) may be given once: the qrels and the runs cannot share it")
    qrels_name = ""
    if isinstance(qrels, (str, os.PathLike)):
        qrels_name = os.path.splitext(os.path.basename(os.fspath(qrels)))[0] if os.fspath(qrels) != "-" else ""
        qrels = read_qrels(qrels)  # once for every run
    rows: list[np.ndarray] = []
    runids, topics = [], None
    for i, source in enumerate(sources):
        ev = evaluate(qrels, source, complete=True, measures=chosen, relevance_level=relevance_level, depth=depth)
        values = ev.per_topic[line]
        if topics is None:
            topics = list(ev.topics)
        if ev.missing:
            n, shown = len(ev.missing), ", ".join(ev.missing[:5]) + (" ..." if len(ev.missing) > 5 else "")
            warnings.warn(
                f"{_shown_run(source, i, given_names)}: no results for {n} of the {len(topics)} judged topics "
                f"({shown}): scored 0 there, as trec_eval -c scores them",
                UserWarning,
                stacklevel=2,
            )
        rows.append(np.asarray(values, dtype=np.float64))
        runids.append(ev.runid)
        if progress is not None:
            progress(1)
    names = given_names if given_names is not None else _run_names(sources, runids)
    return ScoreMatrix(np.vstack(rows), tuple(names), tuple(topics or ()), qrels_name, line)


def _shown_run(source: object, i: int, names: Sequence[str] | None) -> str:
    """A run for a message: its file, else its name in a mapping, else its place."""
    if isinstance(source, (str, os.PathLike)):
        return shown_path(os.fspath(source))
    return f"run {names[i]!r}" if names is not None else f"run {i + 1}"


def _run_names(sources: Sequence[object], runids: Sequence[str]) -> list[str]:
    """The runids if they name the runs apart, else the files' names, else the paths as given."""
    paths = [os.fspath(s) if isinstance(s, (str, os.PathLike)) else None for s in sources]
    choices = [
        list(runids),
        [os.path.basename(p) if p is not None else f"run{i + 1}" for i, p in enumerate(paths)],
        [p if p is not None else f"run{i + 1}" for i, p in enumerate(paths)],
    ]
    for names in choices:
        if all(names) and len(set(names)) == len(names):
            return names
    raise IrmeansError("two runs are given as the same file: name each run once (or pass a mapping of name to run)")
