"""The errors and warnings irmeans raises.

Every error the library raises on purpose is an :class:`IrmeansError`, a
``ValueError``, so ``except ValueError`` keeps working and
``except IrmeansError`` catches exactly the library's own complaints (the
command line catches nothing else, so a bug still shows its traceback).

>>> from irmeans.errors import FileFormatError
>>> str(FileFormatError("too few fields", path="run.txt", line=3))
'run.txt:3: too few fields'
"""

from __future__ import annotations

__all__ = [
    "IrmeansError",
    "FileFormatError",
    "RefusedScore",
    "TopicsLeftOutWarning",
    "shown_path",
    "shown_token",
    "one_line",
]


def shown_path(path: object) -> str:
    """A file name as a message shows it: as it is, or quoted with escapes if it holds a newline or another
    character that does not print (so that a one-line message stays one line and keeps its reason).

    >>> shown_path("runs/bm25.txt"), shown_path("bad\\nname.txt")
    ('runs/bm25.txt', "'bad\\\\nname.txt'")
    """
    text = str(path)
    return text if text.isprintable() else repr(text)


def shown_token(value: bytes) -> str:
    """A topic or docno for a message (undecodable bytes as \\x escapes)."""
    return value.decode("utf-8", "backslashreplace")


def one_line(text: str) -> str:
    """A message on one line: its lines joined, and characters that do not print shown as escapes.

    >>> one_line("bad\\tname: no such file\\nsee --help")
    'bad\\\\tname: no such file; see --help'
    """
    joined = "; ".join(line for line in str(text).splitlines() if line.strip())
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in joined)


class IrmeansError(ValueError):
    """A bad argument or bad input, explained in one line."""


class FileFormatError(IrmeansError):
    """A file that cannot be read as what it should be.

    Parameters
    ----------
    message : str
        What is wrong.
    path : str, optional
        The file.
    line : int, optional
        The 1-based line number, when one line is to blame.
    """

    def __init__(self, message: str, *, path: str | None = None, line: int | None = None) -> None:
        self.message = message
        self.path = path
        self.line = line
        shown = None if path is None else shown_path(path)
        where = "" if path is None else (f"{shown}:{line}: " if line is not None else f"{shown}: ")
        super().__init__(where + message)


class RefusedScore(IrmeansError):
    """A score an average cannot take: where it is among the scores (``index``), its ``value`` and why (``reason``),
    for a caller that knows the score by a name (a topic, a system) to say so.

    >>> str(RefusedScore(2, 0.0, "a zero needs eps > 0"))
    'score at index 2 is 0: a zero needs eps > 0'
    """

    def __init__(self, index: int | tuple[int, ...], value: float, reason: str) -> None:
        self.index, self.value, self.reason = index, value, reason
        super().__init__(f"score at index {index} is {0 if value == 0 else value!r}: {reason}")


class TopicsLeftOutWarning(UserWarning):
    """Topics judged in the qrels but without results in the run, left out of every average.

    Parameters
    ----------
    missing : list of str
        The topics left out, in ``strcmp`` order.
    qrels, run : str
        The files (or sources) evaluated.
    remedy : str
        What would count them instead, for the message (``complete=True``, or ``-c``).

    Examples
    --------
    >>> import textwrap
    >>> warning = TopicsLeftOutWarning(["402"], "q.txt", "r.txt")
    >>> print(textwrap.fill(str(warning), 72))
    1 topic in q.txt has no results in r.txt and is left out (complete=True
    counts them as empty rankings): 402
    """

    #: How many of the missing topics the message names.
    SHOWN = 10

    def __init__(self, missing: list[str], qrels: str, run: str, remedy: str = "complete=True") -> None:
        self.missing = list(missing)
        self.qrels = qrels
        self.run = run
        super().__init__(self.text(remedy))

    def text(self, remedy: str = "complete=True") -> str:
        """The one-line summary: how many topics, the first few, and the ``remedy``."""
        count = len(self.missing)
        names = ", ".join(self.missing[: self.SHOWN])
        more = f" and {count - self.SHOWN} more" if count > self.SHOWN else ""
        plural = count > 1
        return (
            f"{count} topic{'s' if plural else ''} in {shown_path(self.qrels)} {'have' if plural else 'has'} no "
            f"results in {shown_path(self.run)} and {'are' if plural else 'is'} left out ({remedy} counts them as "
            f"empty rankings): {names}{more}"
        )
