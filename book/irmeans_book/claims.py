"""Checks of what a chapter's text says of its example: strict on the book's own data, a note on a reader's.

A chapter's text says things of its worked example ("The arithmetic mean prefers
A"), and a cell checks each of them. On the book's own data a claim that fails is
a fault of the book: :class:`Claims` raises :class:`ClaimError`, naming the
sentence, and the build (and nbval, in CI) fails. On a reader's own data, typed
into the chapter's data cell, the same failure is no fault: the check shows a
short note naming the sentence that no longer holds, and the chapter runs on.

Usage in a chapter (in a cell whose input is removed from the page, so that its
note, if any, shows)::

    claim = claims.about(ch01.EXAMPLE, scores_a=scores_a, scores_b=scores_b)
    claim(am["A"] > am["B"], "The arithmetic mean prefers A")

A sentence that rests on a claimed one is named with it, after it: when the claim
fails, each gets its note (``claim(gm < gm0, "GMAP falls from", "one reporting GMAP
would call it a step back")``), so that a conclusion is not left standing on a
premise that no longer holds.

Examples
--------
>>> claim = about({"x": [1, 2]}, x=[1, 2])
>>> claim(True, "It holds.")
True
>>> claim(False, "It holds.")
Traceback (most recent call last):
...
irmeans_book.claims.ClaimError: on the book's own data the text no longer holds: “It holds.”
>>> reader = about({"x": [1, 2]}, x=[3, 4])
>>> reader.own_data, reader(False, "It holds.", show=False), reader.failed
(False, False, ['It holds.'])
>>> reader(False, "X rises.", "So X is better.", show=False), reader.failed[1:]
(False, ['X rises.', 'So X is better.'])
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["ClaimError", "Claims", "about", "note"]


class ClaimError(AssertionError):
    """A claim of the text that the book's own data do not bear out."""


def note(sentence: str) -> dict[str, str]:
    """The note shown under a check when a reader's data no longer bear out ``sentence`` of the text."""
    text = f"With these data, this sentence of the text no longer holds: “{sentence}”"
    return {"text/plain": text, "text/markdown": f"**Note.** {text}"}


class Claims:
    """Checks the text's claims about one chapter's example data.

    Parameters
    ----------
    own_data : bool
        Whether the data are the book's own: a failed claim then raises.
    """

    def __init__(self, own_data: bool) -> None:
        self.own_data = bool(own_data)
        self.failed: list[str] = []

    def __call__(self, holds: object, sentence: str, *following: str, show: bool = True) -> bool:
        """Check that ``holds`` is true of the data; ``sentence`` is what the text says that needs it, and
        ``following`` the sentences that rest on it, each noted with it when it fails."""
        if bool(holds):
            return True
        if self.own_data:
            raise ClaimError(f"on the book's own data the text no longer holds: “{sentence}”")
        for each in (sentence, *following):
            self.failed.append(each)
            if show:
                from IPython.display import display

                display(note(each), raw=True)
        return False


def _same(a: Any, b: Any) -> bool:
    """Whether a reader's data ``a`` are the book's ``b``: arrays, numbers and strings, in dicts, lists and tuples.

    Examples
    --------
    >>> _same({"x": [1, 2]}, {"x": np.array([1.0, 2.0])}), _same((["a b"], [1]), (["a b"], [1, 2]))
    (True, False)
    """
    if isinstance(a, dict) or isinstance(b, dict):
        return (
            isinstance(a, dict) and isinstance(b, dict) and a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
        )
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):  # lines of a file, or several arrays
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    try:
        a, b = np.asarray(a), np.asarray(b)
    except ValueError:  # a ragged sequence beside an array: not the same
        return False
    numeric = a.dtype.kind in "biuf", b.dtype.kind in "biuf"
    return a.shape == b.shape and numeric[0] == numeric[1] and bool(np.array_equal(a, b))


def about(book_data: dict[str, Any], **data: Any) -> Claims:
    """:class:`Claims` about ``data`` (by the names the chapter gives them), strict if they are ``book_data``'s.

    ``book_data`` is the chapter module's record of its example (``ch01.EXAMPLE``), the
    values the chapter's data cell holds as the book ships it.
    """
    own = all(name in book_data and _same(value, book_data[name]) for name, value in data.items())
    return Claims(own)
