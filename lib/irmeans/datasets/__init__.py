"""Data shipped with irmeans, read from the installed package (``importlib.resources``).

Two kinds of data live in ``irmeans/datasets/data/``, each with a provenance
note there (``README.md``):

- the per-topic scores of the real runs of 11 TREC collections, one
  systems × topics matrix per collection and measure (46 in all), under
  CC BY-SA 4.0: :func:`catalog` lists them, :func:`load` reads one as a
  labelled :class:`ScoreMatrix`;
- :func:`robertson_example`, the reconstructed 50-topic AP example of
  Robertson (2006, §3).

:func:`read_csv` reads a user's own CSV of scores (a row per system, or a row per
topic as in the shipped files, said by the header's first field) into the same
:class:`ScoreMatrix`.

>>> from irmeans import datasets
>>> trec8 = datasets.load("adhoc8", "ap")
>>> trec8.scores.shape, trec8.label
((129, 50), 'TREC-8 ad hoc (1999), AP')
>>> entries = datasets.catalog()
>>> len(entries), len({entry.collection for entry in entries})
(46, 11)
"""

from __future__ import annotations

import csv
import io
import math
import os
import sys
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING

import numpy as np

from ..errors import FileFormatError, IrmeansError
from ..number_syntax import c_float, c_floats

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

from ..score_matrix import ScoreMatrix  # its home since runs give one too; imported from here as before

__all__ = [
    "ScoreMatrix",
    "CatalogEntry",
    "COLLECTIONS",
    "MEASURES",
    "catalog",
    "load",
    "load_all",
    "read_csv",
    "ORIENTATIONS",
    "robertson_example",
    "data_file",
]


def data_file(name: str) -> Traversable:
    """A :class:`importlib.resources.abc.Traversable` for the shipped file ``name``."""
    path = resources.files(__package__) / "data" / name
    if not path.is_file():
        raise FileNotFoundError(f"irmeans ships no data file {name!r}")
    return path


# ---------------------------------------------------------------------------
# The TREC score matrices
# ---------------------------------------------------------------------------

_URBANO_2019_TESTING = (
    "Urbano, J., Lima, H. & Hanjalic, A. (2019). Statistical significance testing in information retrieval: "
    "an empirical analysis of type I, type II and type III errors. SIGIR 2019, 505-514."
)
_URBANO_2018 = (
    "Urbano, J. & Nagler, T. (2018). Stochastic simulation of test collections: evaluation scores. SIGIR 2018, 695-704."
)
_URBANO_2019_STANDARDIZATION = (
    "Urbano, J., Lima, H. & Hanjalic, A. (2019). A new perspective on score standardization. SIGIR 2019, 1061-1064."
)

#: Each collection: (TREC track, year, citation of the archive the scores come from, its bibtex key).
COLLECTIONS = {
    "adhoc5": ("TREC-5 ad hoc", 1996, _URBANO_2019_TESTING, "urbano2019statistical"),
    "adhoc6": ("TREC-6 ad hoc", 1997, _URBANO_2019_TESTING, "urbano2019statistical"),
    "adhoc7": ("TREC-7 ad hoc", 1998, _URBANO_2019_TESTING, "urbano2019statistical"),
    "adhoc8": ("TREC-8 ad hoc", 1999, _URBANO_2019_TESTING, "urbano2019statistical"),
    "robust2004": ("TREC 2004 Robust", 2004, _URBANO_2018, "urbano2018simulation"),
    "terabyte2006": ("TREC 2006 Terabyte", 2006, _URBANO_2019_STANDARDIZATION, "urbano2019standardization"),
    "web2010": ("TREC 2010 Web", 2010, _URBANO_2018, "urbano2018simulation"),
    "web2011": ("TREC 2011 Web", 2011, _URBANO_2018, "urbano2018simulation"),
    "web2012": ("TREC 2012 Web", 2012, _URBANO_2018, "urbano2018simulation"),
    "web2013": ("TREC 2013 Web", 2013, _URBANO_2018, "urbano2018simulation"),
    "web2014": ("TREC 2014 Web", 2014, _URBANO_2018, "urbano2018simulation"),
}

#: The measures, by the name used in the file names.
MEASURES = {
    "ap": "AP",
    "p10": "P@10",
    "p20": "P@20",
    "rr": "RR",
    "ndcg": "nDCG",
    "ndcg20": "nDCG@20",
    "err20": "ERR@20",
}


@dataclass(frozen=True)
class CatalogEntry:
    """One row of :func:`catalog`: a shipped matrix, described without loading its scores."""

    collection: str
    measure: str
    track: str
    year: int
    topics: int
    systems: int
    citation: str
    bibkey: str

    @property
    def name(self) -> str:
        """The matrix's name, ``collection_measure`` (``"adhoc5_ap"``): what :func:`load` takes."""
        return f"{self.collection}_{self.measure}"


def _shipped_names() -> list[tuple[str, str]]:
    folder = resources.files(__package__) / "data"
    names = []
    for entry in folder.iterdir():
        stem, dot, ext = entry.name.rpartition(".")
        collection, _, measure = stem.partition("_")
        if ext == "csv" and collection in COLLECTIONS and measure in MEASURES:
            names.append((collection, measure))
    order = list(COLLECTIONS)
    measures = list(MEASURES)
    return sorted(names, key=lambda cm: (order.index(cm[0]), measures.index(cm[1])))


def catalog() -> list[CatalogEntry]:
    """The TREC score matrices shipped with irmeans, one :class:`CatalogEntry` each.

    Collections in the order of :data:`COLLECTIONS`, measures in that of
    :data:`MEASURES`. The topic and system counts are read from the files.

    Examples
    --------
    >>> rows = catalog()
    >>> r = rows[[e.name for e in rows].index("robust2004_ap")]
    >>> r.track, r.topics, r.systems, r.bibkey
    ('TREC 2004 Robust', 249, 110, 'urbano2018simulation')
    """
    rows = []
    for collection, measure in _shipped_names():
        lines = data_file(f"{collection}_{measure}.csv").read_text().strip().splitlines()
        header = next(csv.reader([lines[0]]))
        systems = len(header) - (1 if header[0] == "topic" else 0)
        track, year, citation, key = COLLECTIONS[collection]
        rows.append(CatalogEntry(collection, measure, track, year, len(lines) - 1, systems, citation, key))
    return rows


def _csv_rows(text: str, path: str) -> list[tuple[int, list[str]]]:
    """The rows of a CSV text that hold anything but blanks, each with its line number.

    A field may be as long as the file (csv's own limit, 128 KiB, is lifted while it reads).
    """
    limit = csv.field_size_limit()
    csv.field_size_limit(sys.maxsize)
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    rows: list[tuple[int, list[str]]] = []
    start = 1  # the line the row being read starts on
    try:
        for fields in reader:
            if any(field.strip() for field in fields):
                rows.append((start, fields))
            start = reader.line_num + 1
        return rows
    except csv.Error as exc:
        if "unexpected end of data" in str(exc):  # a quote opened and never closed: the rest of the file in one field
            raise FileFormatError(
                'a quote (") opened on this line is never closed: the rest of the file would be one field',
                path=path,
                line=start,
            ) from None
        raise FileFormatError(f"not readable as CSV: {exc}", path=path, line=reader.line_num) from None
    finally:
        csv.field_size_limit(limit)


def _scores_of(fields: Sequence[str], path: str, line: int, name: str, columns: Sequence[str], down: str) -> np.ndarray:
    """The scores of one row, read as C reads numbers; the first cell that is not a finite number refused.

    The message names the file, the line, the row's and the column's system or topic, and the cell.
    """
    cells = [f.strip(" \t") for f in fields]
    values, bad = c_floats(cells)
    if bad < 0:
        off = ~np.isfinite(values)
        if not off.any():
            return values
        bad = int(np.argmax(off))
    cell = cells[bad]
    system, topic = (name, columns[bad]) if down == "system" else (columns[bad], name)
    where = f"system {system!r}, topic {topic!r}"
    shown = cell if len(cell) <= 60 else cell[:60] + "..."
    value = c_float(cell)
    if not cell:
        problem = "the score is empty"
    elif value is None:
        problem = (
            f"score {shown!r} is not a number (numbers are read as C reads them: digits with one '.' and an "
            "optional exponent, no '_' or ',')"
        )
    elif math.isnan(value):
        problem = f"score {shown!r} is NaN: every score must be a finite number"
    elif cell.lstrip("+-").lower().startswith("inf"):
        problem = f"score {shown!r} is infinite: every score must be a finite number"
    else:
        problem = f"score {shown!r} is too large for a double (it reads as {value!r}): every score must be finite"
    raise FileFormatError(f"{where}: {problem}", path=path, line=line)


def _parse_topic_major(text: str, path: str) -> tuple[np.ndarray, tuple[str, ...], tuple[str, ...]]:
    """Parse a shipped file (a row per topic, a column per system): (scores, systems, topics)."""
    rows = _csv_rows(text, path)
    if len(rows) < 2:
        raise FileFormatError("expected a header row and at least one row of scores", path=path)
    header = [h.strip() for h in rows[0][1]]
    labelled = header[0] == "topic"
    systems = tuple(header[1:] if labelled else header)
    values = np.empty((len(rows) - 1, len(systems)))
    topics = []
    for i, (line, row) in enumerate(rows[1:]):
        fields = row[1:] if labelled else row
        if len(fields) != len(systems):
            raise FileFormatError(f"{len(fields)} scores for {len(systems)} systems", path=path, line=line)
        topics.append(row[0].strip() if labelled else str(i + 1))
        values[i] = _scores_of(fields, path, line, topics[-1], systems, "topic")
    return values.T, systems, tuple(topics)


def _frozen(a: np.ndarray) -> np.ndarray:
    a = np.ascontiguousarray(a, dtype=np.float64)
    a.flags.writeable = False
    return a


def load(collection: str, measure: str = "ap") -> ScoreMatrix:
    """One shipped TREC matrix as systems × topics.

    Parameters
    ----------
    collection : str
        A key of :data:`COLLECTIONS`, such as ``"adhoc8"`` (the TREC-8 ad hoc
        track, Ravana & Moffat's TREC8) or ``"robust2004"``.
    measure : str, default "ap"
        A key of :data:`MEASURES`; not every collection has every measure
        (see :func:`catalog`).

    Returns
    -------
    ScoreMatrix

    Examples
    --------
    >>> m = load("adhoc8", "ap")
    >>> m.systems[:2], m.topics[:2], round(float((m.scores == 0).mean()), 3)
    (('run1', 'run2'), ('1', '2'), 0.026)
    >>> load("robust2004").topics[:2]
    ('301', '302')
    """
    collection, measure = str(collection).lower(), str(measure).lower()
    shipped = _shipped_names()
    if (collection, measure) not in shipped:
        if collection not in {c for c, _ in shipped}:
            raise IrmeansError(f"no collection {collection!r}: irmeans ships {', '.join(COLLECTIONS)}")
        have = ", ".join(m for c, m in shipped if c == collection)
        raise IrmeansError(f"collection {collection!r} has no measure {measure!r}; it has {have}")
    name = f"{collection}_{measure}.csv"
    scores, systems, topics = _parse_topic_major(data_file(name).read_text(), name)
    track, year, citation, _ = COLLECTIONS[collection]
    label = f"{track} ({year}), {MEASURES[measure]}"
    return ScoreMatrix(_frozen(scores), systems, topics, collection, measure, citation, label)


def load_all(measures: Collection[str] | None = None) -> list[ScoreMatrix]:
    """Every shipped matrix (or those of the given measures), in :func:`catalog` order.

    Examples
    --------
    >>> [m.name for m in load_all(["ndcg"])]
    ['terabyte2006_ndcg']
    """
    return [load(e.collection, e.measure) for e in catalog() if measures is None or e.measure in measures]


#: What the first field of a scores CSV's header says: each row is a system, or each row is a topic.
ORIENTATIONS = ("system", "topic")


def read_csv(path: str | os.PathLike[str], *, measure: str = "") -> ScoreMatrix:
    """A user's CSV of per-topic scores as a :class:`ScoreMatrix` (systems × topics).

    The header row's first field says which way the file runs, and must be one of:

    - ``system``: one row per system, its name first and then its score on each
      topic; the header's other fields are the topic ids::

          system,401,402,403
          runA,0.3120,0.0000,0.5512
          runB,0.2871,0.0154,0.4980

    - ``topic``: one row per topic, its id first and then each system's score;
      the header's other fields are the system names (the layout of the
      shipped ``robust2004_ap.csv``)::

          topic,runA,runB
          401,0.3120,0.2871
          402,0.0000,0.0154

    Anything else is refused: a file read the wrong way round gives plausible numbers
    that mean nothing. Fields are separated by commas (and may be quoted, as CSV
    allows; blanks around them are ignored); every score must be a finite number,
    written as C (and trec_eval) reads numbers (:mod:`irmeans.number_syntax`: ``0.5``,
    ``.5``, ``5e-1``, but not ``0_5`` or ``0,5``); system names and topic ids must be
    unique and not empty.

    Raises
    ------
    FileFormatError
        With the file and the line, for the first problem found; a bad score also
        names its system and topic and shows the cell.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "runs.csv"
    >>> _ = p.write_text("system,401,402\\nA,0.5,0.1\\nB,0.25,0\\n")
    >>> m = read_csv(p)
    >>> m.systems, m.topics, m.scores.tolist()
    (('A', 'B'), ('401', '402'), [[0.5, 0.1], [0.25, 0.0]])
    >>> _ = p.write_text("topic,A,B\\n401,0.5,0.25\\n402,0.1,0\\n")
    >>> read_csv(p).scores.tolist()
    [[0.5, 0.1], [0.25, 0.0]]
    """
    path = os.fspath(path)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as exc:
        raise FileFormatError(f"cannot read it: {exc.strerror or exc}", path=path) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise FileFormatError(
            f"not UTF-8 text: byte 0x{data[exc.start]:02x} ({exc.reason}); save the file as UTF-8", path=path, line=line
        ) from None
    rows = _csv_rows(text, path)
    if not rows:
        raise FileFormatError("empty: expected a header row and a row per system (or per topic)", path=path)
    line, header = rows[0]
    kind = header[0].strip()
    if kind.lower() not in ORIENTATIONS:
        raise FileFormatError(
            f"the header's first field is {kind!r}; it must say which way the file runs: 'system' "
            "(a row per system: system,401,402,... then runA,0.31,0.05,...) or 'topic' "
            "(a row per topic: topic,runA,runB,... then 401,0.31,0.29,...)",
            path=path,
            line=line,
        )
    across, down = ("topic", "system") if kind.lower() == "system" else ("system", "topic")
    columns = tuple(t.strip() for t in header[1:])
    if len(columns) < 2:
        raise FileFormatError(f"the header names fewer than 2 {across}s", path=path, line=line)
    if len(set(columns)) != len(columns) or "" in columns:
        raise FileFormatError(f"the header's {across} names must be unique and not empty", path=path, line=line)
    names: dict[str, int] = {}  # name -> its line, for a repeat
    values = []
    for line, row in rows[1:]:
        if len(row) != len(columns) + 1:
            raise FileFormatError(
                f"{len(row) - 1} scores, but the header names {len(columns)} {across}s", path=path, line=line
            )
        name = row[0].strip()
        if not name:
            raise FileFormatError(f"the {down} name is empty", path=path, line=line)
        if name in names:
            raise FileFormatError(
                f"{down} name {name!r} is repeated (first on line {names[name]})", path=path, line=line
            )
        values.append(_scores_of(row[1:], path, line, name, columns, down))
        names[name] = line
    if len(names) < 2:
        raise FileFormatError(f"fewer than 2 {down}s: nothing to order", path=path)
    scores = np.array(values)
    if down == "system":
        systems, topics = tuple(names), columns
    else:
        systems, topics, scores = columns, tuple(names), scores.T
    stem = os.path.splitext(os.path.basename(path))[0]
    return ScoreMatrix(_frozen(scores), systems, topics, stem, measure)


# ---------------------------------------------------------------------------
# Robertson's example
# ---------------------------------------------------------------------------


def robertson_example() -> np.ndarray:
    """The 50 AP values reconstructed from the figures of Robertson (2006, §3).

    They reproduce every figure he prints for his 0.05-boost example to three
    decimals; they are a reconstruction, not his data (see
    ``robertson2006-example.md`` beside the file).

    Returns
    -------
    ndarray, shape (50,)

    Examples
    --------
    >>> ap = robertson_example()
    >>> int((ap == 0).sum()), round(float(ap.mean()), 3)
    (3, 0.309)
    """
    name = "robertson2006-example.csv"
    lines = data_file(name).read_text().split()
    if not lines or lines[0] != "ap":
        raise FileFormatError("expected a single column with header 'ap'", path=name, line=1)
    values, bad = c_floats(lines[1:])
    if bad >= 0:
        raise FileFormatError(f"{lines[1 + bad]!r} is not a number", path=name, line=bad + 2)
    return values
