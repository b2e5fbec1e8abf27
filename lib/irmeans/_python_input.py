"""What the Python API is given, read as the files are read: ids and numbers from sequences, dicts and DataFrames.

The files have one reader (:mod:`irmeans.trec.files`, :func:`irmeans.datasets.read_csv`); this
module is the same reading for what a program hands over, so that a dict, a DataFrame and
the equivalent file give the same numbers or the same refusal:

- **ids** (topics, documents, systems): text as it is, its surrounding blanks left out as a
  file's fields leave them; a whole number, of any integer or float type, as its digits
  (``1``, ``1.0`` and numpy's ``1`` are all ``'1'``: pandas makes a column of ids float as soon
  as it holds a NaN); bytes as UTF-8.  Refused, with the row or the key: a missing id (None,
  NaN, pandas' NA), a number with a fraction (``1.5``: give such ids as text), a truth value,
  an empty id and, for a topic or a document, a blank inside it (a TREC file would read two
  fields).  Two ids that are different values but the same id (``1`` and ``'1'``) are refused,
  naming both: one of their scores would otherwise be lost.
- **numbers** (scores, grades, the cells of a score matrix): numbers as they are, text read by
  the project's one number syntax (:mod:`irmeans.number_syntax`: ``'0.5'`` and ``'5e-1'``, not
  ``'0_5'``, which Python's ``float`` reads as 5), and anything else refused with its row (and
  column): a missing value, a word, a NaN.

pandas is not imported here: a DataFrame is read through its own methods.

>>> ids([1, 2.0, "3", b"4"], "topic", "<arrays>")
['1', '2', '3', '4']
>>> ids(["1", 1], "topic", "<dict>", rows=False)
Traceback (most recent call last):
  ...
irmeans.errors.IrmeansError: <dict>: topics '1' and 1 are both topic '1'
"""

from __future__ import annotations

import math
import numbers as abc_numbers
import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Literal, cast

import numpy as np

from ._validation import as_array, float_array, integer_array, is_decimal
from .errors import IrmeansError, shown_value
from .number_syntax import c_float, c_grade, grade_problem

__all__ = ["ids", "values", "is_frame", "frame_rows", "nested_rows", "frame_matrix", "nested_matrix", "Read"]

_BLANKS = (" ", "\t", "\n", "\r", "\v", "\f")
_BLANK = re.compile("[ \t\n\r\v\f]")  # what C's isspace, and so a TREC file, splits fields at
_INT64 = 2.0**63


class Read(list[str]):
    """Ids read already (by :func:`frame_rows` or :func:`nested_rows`): :func:`ids` gives them back as they are."""


def is_frame(data: object) -> bool:
    """Whether ``data`` is a pandas DataFrame (told without importing pandas)."""
    return type(data).__module__.startswith("pandas") and type(data).__name__ == "DataFrame"


def _missing(v: object) -> bool:
    """None, a NaN, or pandas' NA or NaT (told without importing pandas)."""
    if v is None or (isinstance(v, float) and math.isnan(v)) or (isinstance(v, np.floating) and np.isnan(v)):
        return True
    return type(v).__name__ in ("NAType", "NaTType")


def _id_text(v: object, what: str, fields: bool) -> str:
    """The id of one value, or the reason it is none (an :class:`IrmeansError` without its place)."""
    if isinstance(v, str):
        text = v.strip()
    elif isinstance(v, bytes):
        text = v.decode("utf-8", "surrogateescape").strip()
    elif isinstance(v, (bool, np.bool_)):
        raise IrmeansError(f"{what} {v!r} is a truth value, not an id")
    elif isinstance(v, (int, np.integer)):
        text = str(int(v))
    elif isinstance(v, (float, np.floating)) and not _missing(v):
        f = float(v)
        if not math.isfinite(f) or f != math.floor(f) or abs(f) >= _INT64:
            raise IrmeansError(
                f"{what} {v!r} is not a whole number: an id given as a number must be one (1.0 is '1'); "
                "give other ids as text"
            )
        text = str(int(f))
    elif _missing(v):
        raise IrmeansError(f"the {what} is missing ({v!r})")
    else:
        raise IrmeansError(f"{what} {shown_value(v)} is a {type(v).__name__}, not an id (text or a whole number)")
    if not text:
        raise IrmeansError(f"{what} {v!r} is empty")
    if fields and _BLANK.search(text):
        raise IrmeansError(f"{what} {v!r} holds a blank: a TREC file would read it as two fields")
    return text


def ids(
    given: Iterable[Any], what: str, where: str, *, fields: bool = True, rows: bool = True
) -> list[str] | np.ndarray:
    """The ids of ``given`` (a sequence, a numpy array, a pandas column), each read as the module says.

    ``what`` names them in messages (``"topic"``), ``where`` is their source (``"<dict>"``);
    ``fields`` refuses a blank inside an id (a topic or a document of TREC data); ``rows`` names
    a refused id by its row (counted from 0), else by itself alone (the keys of a dict).  A
    numpy array of text is given back as it is when nothing in it needs reading.
    """
    if isinstance(given, Read):
        return given
    if isinstance(given, (str, bytes, bytearray)):
        raise IrmeansError(
            f"{where}: the {what}s must be a sequence, one a row; got the single {type(given).__name__} "
            f"{shown_value(given)}, which would be read one character at a time"
        )
    if isinstance(given, np.ndarray) and given.ndim == 1 and given.dtype.kind in "SU" and len(given):
        blank = [" ", *_BLANKS[1:]] if given.dtype.kind == "U" else [b.encode() for b in _BLANKS]
        if not (np.strings.str_len(given) == 0).any() and not any(
            (np.strings.find(given, b) >= 0).any() for b in blank
        ):
            return given  # plain tokens already: nothing to read
    if isinstance(given, np.ndarray) and given.dtype.kind in "iuf" and given.ndim == 1:
        return _number_ids(given, what, where, rows)
    if isinstance(given, np.ndarray) and given.ndim != 1 or not isinstance(given, Iterable):
        raise IrmeansError(f"{where}: the {what}s must be a sequence, one a row; got {shown_value(given)}")
    items = given.tolist() if hasattr(given, "tolist") else list(given)
    out: list[str] = []
    read: set[str] = set()  # ids read from a value that is not that very text
    for i, v in enumerate(items):
        if type(v) is str and v and not v[0].isspace() and not v[-1].isspace() and not (fields and _BLANK.search(v)):
            out.append(v)
            continue
        try:
            text = _id_text(v, what, fields)
        except IrmeansError as exc:
            raise IrmeansError(f"{where}: {f'row {i}: ' if rows else ''}{exc}") from None
        out.append(text)
        read.add(text)
    if read:
        _refuse_twins(items, out, read, what, where, rows)
    return out


def _number_ids(given: np.ndarray, what: str, where: str, rows: bool) -> list[str]:
    """The ids of an array of numbers: whole numbers as their digits, anything else refused with its row."""
    if given.dtype.kind == "f":
        bad = ~np.isfinite(given) | (given != np.floor(given)) | (np.abs(given) >= _INT64)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            try:
                _id_text(float(given[i]), what, True)
            except IrmeansError as exc:
                raise IrmeansError(f"{where}: {f'row {i}: ' if rows else ''}{exc}") from None
        given = given.astype(np.int64)
    return [str(v) for v in given.tolist()]


def _refuse_twins(items: list[Any], out: list[str], read: set[str], what: str, where: str, rows: bool) -> None:
    """Refuse two different values read as one id (``1`` and ``'1'``, ``'1'`` and ``' 1'``; ``1`` and ``1.0`` are one
    value)."""
    first: dict[str, tuple[int, Any]] = {}
    for j, (v, text) in enumerate(zip(items, out)):
        if text not in read:
            continue
        if text not in first:
            first[text] = (j, v)
        elif not _same_value(first[text][1], v):
            i, u = first[text]
            at = f" (rows {i} and {j})" if rows else ""
            raise IrmeansError(f"{where}: {what}s {u!r} and {v!r} are both {what} {text!r}{at}")


def _same_value(a: object, b: object) -> bool:
    """Whether two raw ids are one value: equal, and both text or both numbers (``'1' == 1`` is false anyway)."""
    try:
        return bool(a == b) and isinstance(a, (str, bytes)) == isinstance(b, (str, bytes))
    except (TypeError, ValueError):
        return False


def values(
    given: Any, what: str, where: str, *, kind: Literal["score", "grade"] = "score", infinite: bool = False
) -> np.ndarray:
    """The numbers of ``given``: scores as float64 (``±inf`` only if ``infinite``), grades as int64.

    Numbers are taken as they are, text is read by :mod:`irmeans.number_syntax`, anything else
    (a missing value, a word, a NaN) is refused with its row.
    """
    if isinstance(given, Iterator):
        given = list(given)  # read once
    raw = given if isinstance(given, np.ndarray) else as_array(given, f"{where}: {what}")
    if raw.dtype.kind in "SUO" and raw.ndim == 1:
        items = given.tolist() if isinstance(given, np.ndarray) else list(given)  # not numpy's text of each
        read: list[Any] = []
        for i, v in enumerate(items):
            if isinstance(v, (str, bytes)):
                number = c_float(v) if kind == "score" else c_grade(v)
                if number is None or number != number or (kind == "grade" and grade_problem(int(number))):
                    kind_words = (
                        "a number (numbers are read as C reads them: no '_' or ',')"
                        if kind == "score"
                        else "an integer"
                    )
                    raise IrmeansError(f"{where}: row {i}: {what} {shown_value(v)} is not {kind_words}")
                v = number
            elif is_decimal(v) and v.is_finite():  # a SQL NUMERIC column's
                v = float(v) if kind == "score" else int(v) if v == int(v) else v
            elif _missing(v):
                raise IrmeansError(f"{where}: row {i}: the {what} is missing ({shown_value(v)})")
            elif not isinstance(v, abc_numbers.Real) or isinstance(v, (bool, np.bool_)) and kind == "grade":
                raise IrmeansError(f"{where}: row {i}: {what} {shown_value(v)} is a {type(v).__name__}, not a number")
            elif kind == "grade" and isinstance(v, (float, np.floating)) and v == math.floor(v) and abs(v) < _INT64:
                v = int(v)  # 2.0 is the grade 2, as in a float column
            read.append(v)
        raw = np.array(read, dtype=np.float64 if kind == "score" else object)
    if kind == "grade":
        return integer_array(raw, what, where)
    return float_array(raw, f"{where}: {what}", infinite=infinite).reshape(-1)


def frame_rows(frame: Any, value: str, name: str) -> tuple[Read, Read, np.ndarray]:
    """A DataFrame's ``query_id``, ``doc_id`` and ``value`` columns (ir_measures' names), each read: the rows of
    ``name`` (``"qrels"`` or ``"run"``)."""
    missing = [c for c in ("query_id", "doc_id", value) if c not in frame.columns]
    if missing:
        have = ", ".join(map(str, frame.columns))
        raise IrmeansError(f"{name}: the DataFrame has no column {', '.join(missing)} (it has {have})")
    for column in ("query_id", "doc_id", value):
        _refuse_repeated(list(frame.columns), column, f"{name}: the DataFrame")
    topics = Read(ids(frame["query_id"].to_numpy(), "topic", "<DataFrame>, column 'query_id'"))
    docnos = Read(ids(frame["doc_id"].to_numpy(), "document", "<DataFrame>, column 'doc_id'"))
    kind: Literal["score", "grade"] = "grade" if value == "relevance" else "score"
    numbers = values(frame[value].to_numpy(), value, f"<DataFrame>, column {value!r}", kind=kind, infinite=True)
    return topics, docnos, numbers


def nested_rows(nested: Mapping[Any, Any], name: str, value: str) -> tuple[Read, Read, list[Any]]:
    """``{query: {doc: value}}`` (pytrec_eval's and ranx's form) as rows of topics, docnos and values, the ids read."""
    topics = ids(list(nested), "topic", "<dict>", rows=False)
    out_topics, docnos = Read(), Read()
    numbers: list[Any] = []
    for topic, (key, docs) in zip(topics, nested.items()):
        if not isinstance(docs, Mapping):
            raise IrmeansError(f"{name}: topic {key!r} maps to a {type(docs).__name__}, not to a dict of documents")
        docnos += ids(list(docs), "document", f"<dict>, topic {key!r}", rows=False)
        out_topics += [topic] * len(docs)
        numbers += list(docs.values())
    return out_topics, docnos, numbers


def _cells(column: np.ndarray, system: list[str], topic: str, where: str) -> np.ndarray:
    """The finite scores of one topic's cells, text read by the number syntax; a refusal names system and topic."""
    if column.dtype.kind in "fiu":
        bad = ~np.isfinite(column.astype(np.float64))
        if not bad.any():
            return column.astype(np.float64)
        i = int(np.flatnonzero(bad)[0])
        raise IrmeansError(
            f"{where}: system {system[i]!r}, topic {topic!r}: score {column[i]!r} is not a finite number"
        )
    out = np.empty(len(column))
    for i, v in enumerate(column.tolist()):
        number = c_float(v) if isinstance(v, (str, bytes)) else None if _missing(v) else v
        if is_decimal(number) and cast(Any, number).is_finite():  # a SQL NUMERIC column's
            number = float(cast(Any, number))
        if (
            not isinstance(number, abc_numbers.Real)
            or isinstance(number, (bool, np.bool_))
            or not math.isfinite(number)
        ):
            shown = (
                "missing"
                if _missing(v)
                else f"{shown_value(v)} is not a finite number (numbers are read as C reads them)"
            )
            raise IrmeansError(f"{where}: system {system[i]!r}, topic {topic!r}: the score {shown}")
        out[i] = number
    return out


def _refuse_repeated(labels: list[Any], label: Any, where: str) -> None:
    """Refuse a column (or row) ``label`` that ``labels`` hold more than once, as ``pd.concat`` can make them:
    which of them would be meant cannot be told."""
    count = sum(1 for other in labels if _same_value(other, label))
    if count > 1:
        raise IrmeansError(
            f"{where} has {count} columns named {shown_value(label)} (as pd.concat makes them): keep one of them"
        )


def frame_matrix(frame: Any) -> tuple[np.ndarray, tuple[str, ...], tuple[str, ...]]:
    """A DataFrame of scores, a row per system (its index) and a column per topic: (scores, systems, topics)."""
    where = "<DataFrame>"
    for label in frame.columns[frame.columns.duplicated()]:
        _refuse_repeated(list(frame.columns), label, where)
    systems = [*ids(frame.index.to_numpy(), "system", f"{where}, index", fields=False)]
    topics = [*ids(frame.columns.to_numpy(), "topic", f"{where}, columns", fields=False)]
    scores = np.empty((len(systems), len(topics)))
    for j, (topic, label) in enumerate(zip(topics, frame.columns)):
        scores[:, j] = _cells(frame[label].to_numpy(), systems, topic, where)
    return scores, tuple(systems), tuple(topics)


def nested_matrix(nested: Mapping[Any, Any]) -> tuple[np.ndarray, tuple[str, ...], tuple[str, ...]]:
    """``{system: {topic: score}}``: (scores, systems, topics), the topics in the first system's order.

    Every system must score the same topics: a topic one system lacks is refused, not scored 0
    (a run without results for a topic scores 0 on it only if it was evaluated that way, as
    trec_eval's ``-c`` does).
    """
    if not isinstance(nested, Mapping) or not nested:
        raise IrmeansError(
            f"scores must be a non-empty mapping of system to {{topic: score}}, got {shown_value(nested)}"
        )
    systems = [*ids(list(nested), "system", "<dict>", fields=False, rows=False)]
    topics: list[str] | None = None
    rows = []
    for key, by_topic in nested.items():
        if not isinstance(by_topic, Mapping):
            raise IrmeansError(f"system {key!r}: expected a mapping of topic to score, got {shown_value(by_topic)}")
        names = [*ids(list(by_topic), "topic", f"<dict>, system {key!r}", fields=False, rows=False)]
        row = dict(zip(names, by_topic.values()))
        if topics is None:
            topics = names
        known = set(topics)
        lacking = [t for t in topics if t not in row]
        extra = [t for t in names if t not in known]
        if lacking or extra:
            odd = lacking or extra
            shown = ", ".join(repr(t) for t in odd[:5]) + (" ..." if len(odd) > 5 else "")
            first = systems[0]
            what = (
                f"has no score for {len(lacking)} of the {len(topics)} topics of system {first!r}"
                if lacking
                else f"scores {len(extra)} topic{'s' * (len(extra) > 1)} that system {first!r} does not"
            )
            raise IrmeansError(
                f"system {key!r} {what}: {shown} (evaluate every run on every topic, as trec_eval -c does)"
            )
        rows.append([row[t] for t in topics])
    assert topics is not None  # the mapping is not empty
    cells = np.array(rows, dtype=object)
    scores = np.empty(cells.shape)
    for j, topic in enumerate(topics):
        scores[:, j] = _cells(cells[:, j], systems, topic, "<dict>")
    return scores, tuple(systems), tuple(topics)
