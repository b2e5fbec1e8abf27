"""Names shown safely and measured as a terminal shows them: the one home of every output's escaping and widths.

A system's, topic's or file's name comes from the user's files and may hold anything: a
newline, ESC or BEL (which a terminal obeys: it can retitle or clear the window), a byte that
is not UTF-8 (read with ``surrogateescape``), a Chinese name twice as wide as its length.
Every formatter goes through here:

- :func:`shown`: text for a terminal, every character that does not print as its escape (``\\n``,
  ``\\t``, ``\\x1b``, ``\\u202e``) and a byte that is not UTF-8 as ``\\xNN`` (or, with
  ``keep_bytes``, written back as read: trec_eval's lines keep the bytes of its ids);
- :func:`json_text`: JSON that is valid UTF-8, every character that does not print written as a
  ``\\u`` escape; a byte that is not UTF-8, held as a lone surrogate, becomes its own ``\\udcNN``
  escape, which Python's ``json`` reads back as that very surrogate: each name reads back as
  itself, and two names never become one;
- :func:`width`, :func:`ljust`, :func:`rjust` and :func:`wrap`: columns as a terminal counts them
  (an East Asian wide character 2, a combining mark 0, an ambiguous one such as ε 1), and lines
  broken only at spaces, never inside a word joined by :data:`GLUE` (a number with its label, a
  path): a word wider than the line stands alone on a line of its own.

Markdown and LaTeX escape their own syntax (:mod:`irmeans.comparison.tables`) on top of
:func:`shown`; CSV, which has no escapes of its own, shows its cells as text does (quoted where
CSV needs it). JSON alone holds every name exactly.

>>> shown("run\\x1b]0;pwned\\x07 1"), width("检索系统"), width("εGM")
('run\\\\x1b]0;pwned\\\\x07 1', 8, 3)
>>> wrap("a verdict (Holm" + GLUE + "p" + GLUE + "=" + GLUE + "0.13) here", 14)
['a verdict', '(Holm p = 0.13)', 'here']
"""

from __future__ import annotations

from typing import Any

__all__ = ["GLUE", "shown", "width", "ljust", "rjust", "wrap", "json_text"]

#: Joins words that a line must not be broken between (a label and its number, a path with spaces); shown as
#: a space. A control character, so no shown name can hold it.
GLUE = "\x00"


def _escape(c: str, keep_bytes: bool) -> str:
    if "\udc80" <= c <= "\udcff":  # a byte that is not UTF-8, as surrogateescape holds it
        return c if keep_bytes else f"\\x{ord(c) - 0xDC00:02x}"
    return repr(c)[1:-1]


def shown(text: str, keep_bytes: bool = False) -> str:
    """``text`` for a terminal: every character that does not print as its escape.

    Parameters
    ----------
    text : str
    keep_bytes : bool, default False
        Write a byte that is not UTF-8 (a lone surrogate of ``surrogateescape``) back as read, not as ``\\xNN``:
        trec_eval's lines hold its ids' bytes as they are.

    Returns
    -------
    str

    Examples
    --------
    >>> print(shown("bad\\tname\\x1b[2J"), shown("caf\\udce9"), shown("tab\\u202eeht"))
    bad\\tname\\x1b[2J caf\\xe9 tab\\u202eeht
    """
    if text.isprintable():  # the usual case, at C's speed
        return text
    table = {ord(c): _escape(c, keep_bytes) for c in set(text) if not c.isprintable()}
    return text.translate(table)


def width(text: str) -> int:
    """The columns a terminal gives ``text`` (already :func:`shown`): 2 for an East Asian wide or full-width
    character, 0 for a combining mark, 1 for any other (an ambiguous one, such as ε, too).

    >>> width("A vs B"), width("中文"), width("é"), width("e\\u0301")
    (6, 4, 1, 1)
    """
    if text.isascii():
        return len(text)
    import unicodedata  # here: eval's start-up never needs it

    total = 0
    for c in text:
        if unicodedata.combining(c) or unicodedata.category(c) in ("Mn", "Me", "Cf"):
            continue
        total += 2 if unicodedata.east_asian_width(c) in ("W", "F") else 1
    return total


def ljust(text: str, columns: int) -> str:
    """``text`` padded with spaces on the right to ``columns`` display columns.

    >>> ljust("中文", 6) + "|"
    '中文  |'
    """
    return text + " " * (columns - width(text))


def rjust(text: str, columns: int) -> str:
    """``text`` padded with spaces on the left to ``columns`` display columns.

    >>> rjust("中文", 6)
    '  中文'
    """
    return " " * (columns - width(text)) + text


# A word that binds the words on both sides of it to itself (a value to its label).
_BINDS = frozenset({"=", "<", ">", "≤", "≥", "≈"})


def wrap(text: str, columns: int, first: str = "", rest: str = "") -> list[str]:
    """``text`` in lines of at most ``columns`` display columns, broken at spaces only.

    Words joined by :data:`GLUE` stay on one line, and the glue is shown as a space, as do the
    two sides of ``=``, ``<`` or ``>`` standing alone (``α = 0.05`` is never broken); a word
    wider than a line stands alone on a line of its own (never broken inside).

    Parameters
    ----------
    text : str
        Shown text (:func:`shown`), its unbreakable spaces as :data:`GLUE`.
    columns : int
        The widest line.
    first, rest : str
        Put before the first line and before every other.

    Returns
    -------
    list of str

    Examples
    --------
    >>> wrap("see /a/long/path/to/runs/bm25.txt now", 12, "# ", "#   ")
    ['# see', '#   /a/long/path/to/runs/bm25.txt', '#   now']
    >>> wrap("below α = 0.05 here", 12)
    ['below', 'α = 0.05', 'here']
    """
    words: list[str] = []
    binds = False  # whether the last word was a relation, bound to the next
    for word in text.split(" "):
        if not word:
            continue
        if words and (binds or word in _BINDS):
            words[-1] += GLUE + word  # a relation and both its sides, one word
        else:
            words.append(word)
        binds = word in _BINDS
    lines: list[list[str]] = []
    line: list[str] = []
    used = width(first)
    for word in words:
        w = len(word) if word.isascii() else width(word)  # the usual case: a word's length is its width
        if line and used + 1 + w > columns:
            lines.append(line)
            line, used = [], width(rest)
        used += w + bool(line)
        line.append(word)
    lines.append(line)
    out = [(first if k == 0 else rest) + " ".join(words) for k, words in enumerate(lines)]
    return [x.rstrip().replace(GLUE, " ") for x in out]


def _json_escape(c: str) -> str:
    code = ord(c)
    if code > 0xFFFF:  # a pair of surrogates, as JSON writes a character beyond the first plane
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def json_text(data: Any) -> str:
    """``data`` as strict JSON on one line (NaN and infinity refused), valid UTF-8 whatever its names hold.

    A character that does not print (DEL, a C1 control, a bidirectional override, a byte that
    is not UTF-8 held as a lone surrogate) is written as its ``\\u`` escape, which reads back
    as itself.

    >>> text = json_text({"runs": ["caf\\udce9", "café", "a\\x9b2J"]})
    >>> text
    '{"runs": ["caf\\\\udce9", "café", "a\\\\u009b2J"]}'
    >>> import json
    >>> json.loads(text)["runs"] == ["caf\\udce9", "café", "a\\x9b2J"]
    True
    """
    import json  # here: the command line's other subcommands never need it

    # On one line: json's C encoder writes it (an indented dump is written in Python, 10 times slower).
    text = json.dumps(data, ensure_ascii=False, allow_nan=False)
    if text.isprintable():
        return text
    return text.translate({ord(c): _json_escape(c) for c in set(text) if not c.isprintable()})
