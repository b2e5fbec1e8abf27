"""What :func:`irmeans.evaluate` is given, made into the evaluator's own: qrels into :class:`~.files.Qrels`, a run
into its blocks of whole topics (:mod:`.run_blocks`).

Each form has one branch here, and the rest of an evaluation never asks again what it was given: a
:class:`~.files.Qrels` or :class:`~.files.Run` as it is; a file (its name or path), read; three (a run: three or
four) sequences of one length, ``(topics, docnos, rels)`` or ``(topics, docnos, scores[, runid])``; a pandas
DataFrame with ir_measures' columns (``query_id``, ``doc_id``, ``relevance`` or ``score``); a dict of dicts
(``{query: {doc: value}}``, as pytrec_eval and ranx take them). Ids and values are read as the files read
them (:mod:`irmeans._python_input`). Anything else is refused, saying what may be given.

>>> as_qrels({"1": {"a": 1, "b": 0}}).rels.tolist()
[1, 0]
>>> try:
...     as_qrels((1, "a", 1))
... except IrmeansError as exc:
...     print(str(exc).split("; ")[1])
got (1, 'a', 1): for one row give ([1], ['a'], [1])
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any, TypeAlias

from .._python_input import frame_rows, is_frame, nested_rows
from ..errors import IrmeansError, shown_value
from .files import Qrels, Run, read_qrels
from .run_blocks import InMemory, RunBlocks, RunReader

__all__ = ["as_qrels", "as_run", "QrelsInput", "RunInput"]

#: What :func:`irmeans.evaluate` reads qrels from: :class:`~.files.Qrels`, a file, (topics, docnos, rels)
#: sequences, a pandas DataFrame or a dict of dicts.
QrelsInput: TypeAlias = Qrels | str | os.PathLike[str] | tuple[Any, ...] | list[Any] | Mapping[Any, Any] | Any
#: What :func:`irmeans.evaluate` reads a run from: :class:`~.files.Run`, a file, (topics, docnos, scores[, runid])
#: sequences, a pandas DataFrame or a dict of dicts.
RunInput: TypeAlias = Run | str | os.PathLike[str] | tuple[Any, ...] | list[Any] | Mapping[Any, Any] | Any


def as_qrels(qrels: QrelsInput) -> Qrels:
    """``qrels`` in any form :func:`irmeans.evaluate` takes, as :class:`~.files.Qrels`."""
    if isinstance(qrels, Qrels):
        return qrels
    if isinstance(qrels, (tuple, list)) and len(qrels) == 3:
        return Qrels.from_arrays(*_columns(qrels, "qrels", "(topics, docnos, rels)"))
    if isinstance(qrels, Mapping):
        return Qrels.from_arrays(*nested_rows(qrels, "qrels", "relevance"), source="<dict>")
    if is_frame(qrels):
        return Qrels.from_arrays(*frame_rows(qrels, "relevance", "qrels"), source="<DataFrame>")
    return read_qrels(_path(qrels, "qrels", _expected("Qrels", "rels", "relevance")))


def as_run(run: RunInput) -> RunBlocks:
    """``run`` in any form :func:`irmeans.evaluate` takes, as its blocks of whole topics: one for a run in memory,
    a file's as it is read (:class:`~.run_blocks.RunReader`)."""
    if isinstance(run, Run):
        return InMemory(run)
    if isinstance(run, (tuple, list)) and len(run) in (3, 4):
        return InMemory(Run.from_arrays(*_columns(run, "run", "(topics, docnos, scores[, runid])")))
    if isinstance(run, Mapping):
        return InMemory(Run.from_arrays(*nested_rows(run, "run", "score"), source="<dict>"))
    if is_frame(run):
        return InMemory(Run.from_arrays(*frame_rows(run, "score", "run"), source="<DataFrame>"))
    return RunReader(_path(run, "run", _expected("Run", "scores[, runid]", "score")))


def _columns(given: tuple[Any, ...] | list[Any], name: str, form: str) -> tuple[Any, ...]:
    """Three or four columns, each a sequence (a run's runid excepted), or the error saying so: ``(1, 'a', 1)`` is
    one row given as if it were the columns."""
    columns = tuple(given)
    if any(not hasattr(c, "__iter__") for c in columns[:3]):  # a single str is refused as a column of letters
        row = ", ".join(f"[{shown_value(c)}]" for c in columns[:3])
        raise IrmeansError(
            f"{name} as sequences are {form}, each a sequence, one a row; got {shown_value(given)}: for one row "
            f"give ({row})"
        )
    return columns


def _expected(kind: str, values: str, column: str) -> str:
    """What qrels or a run may be, for a message."""
    return (
        f"a {kind}, a file, (topics, docnos, {values}) sequences, a pandas DataFrame (query_id, doc_id, {column}) "
        f"or a dict of dicts ({{query: {{doc: {column}}}}})"
    )


def _path(source: object, name: str, expected: str) -> str:
    """``source`` as a file name, or the error saying what ``name`` may be."""
    if isinstance(source, (str, os.PathLike)):
        return os.fspath(source)
    given = f"a {type(source).__name__} of {len(source)}" if isinstance(source, (tuple, list)) else shown_value(source)
    raise IrmeansError(f"{name} must be {expected}; got {given}")
