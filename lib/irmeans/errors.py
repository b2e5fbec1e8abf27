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

import math
import reprlib
from typing import Any

__all__ = [
    "IrmeansError",
    "FileFormatError",
    "RefusedScore",
    "TopicsLeftOutWarning",
    "TooFewToTellWarning",
    "shown_path",
    "shown_token",
    "shown_value",
    "shown_count",
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


class _Short(reprlib.Repr):
    """repr() cut short: a few items of a container, a few levels of nesting, and an integer too long to write
    out (Python refuses to turn one of more than 4,300 digits into text) by its number of digits."""

    def __init__(self) -> None:
        super().__init__()
        self.maxlevel, self.maxlist, self.maxtuple, self.maxdict, self.maxset = 3, 6, 6, 4, 6
        self.maxstring, self.maxother = 40, 60

    def repr_int(self, x: int, level: int) -> str:
        if abs(x) < 10**24:
            return repr(x)
        digits = math.floor(math.log10(abs(x))) + 1
        return f"{'-' if x < 0 else ''}an integer of {digits:,} digits"

    def repr_Fraction(self, x: Any, level: int) -> str:
        return f"Fraction({self.repr_int(x.numerator, level)}, {self.repr_int(x.denominator, level)})"

    def repr_Decimal(self, x: Any, level: int) -> str:
        return f"Decimal({self.repr_str(str(x), level)})"

    def repr_instance(self, x: Any, level: int) -> str:
        try:
            return super().repr_instance(x, level)
        except (ValueError, RecursionError, OverflowError, MemoryError):
            return f"<{type(x).__name__}>"


_SHORT = _Short()


def shown_value(value: object) -> str:
    """A value given by a caller, as a message shows it: its repr, cut short whatever it holds (a list nested
    5,000 deep, an integer of 5,000 digits, a million items), on one line.

    >>> shown_value(10**400), shown_value([[[[[1]]]]]), shown_value(list(range(100)))
    ('an integer of 401 digits', '[[[[...]]]]', '[0, 1, 2, 3, 4, 5, ...]')
    """
    try:
        text = _SHORT.repr(value)
    except (ValueError, RecursionError, OverflowError, MemoryError):
        text = f"<{type(value).__name__}>"
    return one_line(text)


def shown_count(n: int) -> str:
    """A whole number for a message, with thousands separators, or by its number of digits when too long to show.

    >>> shown_count(10_000), shown_count(10**400)
    ('10,000', 'an integer of 401 digits')
    """
    return f"{n:,}" if abs(n) < 10**24 else _SHORT.repr_int(n, 0)


def shown_token(value: bytes) -> str:
    """A topic or docno for a message (undecodable bytes as \\x escapes)."""
    return value.decode("utf-8", "backslashreplace")


def one_line(text: str) -> str:
    """A message on one line: its lines joined, and characters that do not print shown as escapes.

    >>> one_line("bad\\tname: no such file\\nsee --help")
    'bad\\\\tname: no such file; see --help'
    """
    from ._display import shown  # the one home of showing what does not print

    return shown("; ".join(line for line in str(text).splitlines() if line.strip()))


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


class TooFewToTellWarning(UserWarning):
    """Too few systems or topics for the split-half experiment's intervals to say much.

    Kendall's τ between two orders of n systems moves by 2 / (n(n − 1)/2) when one pair of them
    swaps: with fewer than :attr:`SYSTEMS` systems (45 pairs) by more than 0.05, as much as the
    differences between averages it is meant to show (chapter 9), and its intervals span much of
    [−1, 1]. Each half of t topics holds t/2 of them: with fewer than :attr:`TOPICS` topics (halves of 10) an
    average on a half rests on a handful of topics, and the bootstrap over topics resamples too few to
    mean much.

    Examples
    --------
    >>> w = TooFewToTellWarning(3, 10)
    >>> str(w).startswith("3 systems x 10 topics are too few for Kendall's tau")
    True
    >>> w.n_systems, w.n_topics, w.SYSTEMS, w.TOPICS
    (3, 10, 10, 20)
    """

    #: The fewest systems and topics below which the warning is given.
    SYSTEMS, TOPICS = 10, 20

    def __init__(self, n_systems: int, n_topics: int) -> None:
        self.n_systems, self.n_topics = n_systems, n_topics
        pairs = n_systems * (n_systems - 1) // 2
        super().__init__(
            f"{n_systems} systems x {n_topics} topics are too few for Kendall's tau and its intervals to mean much "
            f"(at least {self.SYSTEMS} systems and {self.TOPICS} topics): tau moves by "
            f"{2 / pairs:.2g} when one pair of systems "
            f"swaps, and each half holds {n_topics // 2} topics"
        )

    @classmethod
    def check(cls, n_systems: int, n_topics: int) -> TooFewToTellWarning | None:
        """The warning for ``n_systems`` × ``n_topics``, or None when there are enough of both.

        >>> TooFewToTellWarning.check(129, 50) is None
        True
        """
        return cls(n_systems, n_topics) if n_systems < cls.SYSTEMS or n_topics < cls.TOPICS else None


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
