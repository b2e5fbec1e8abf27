"""An iterator made one item ahead, in a thread of its own: a file's next chunk is split while this one is used.

Reading a file is two kinds of work that take turns: splitting a chunk into fields
(:func:`~.tokens.parse`) and what is done with its rows (put together, hashed, ranked and
joined).  :func:`ahead` lets the first run in a thread of its own while the second runs
here, at most one item ahead, so that a machine with a free core does both at once; numpy
lets go of the interpreter's lock while it works on arrays, so the two are not serialised
by it.  The items come in their order, an exception where it was raised, and the thread
stops (after the item it is making) as soon as the items are no longer wanted.

>>> list(ahead(iter(range(5))))
[0, 1, 2, 3, 4]
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Generator, Iterator
from typing import TypeVar

__all__ = ["ahead"]

_T = TypeVar("_T")
_END = object()  # after the last item
_WAIT = 0.05  # seconds between looks at whether the items are still wanted, while the next one waits


class _Raised:
    """An exception raised while an item was made, handed over in its place."""

    def __init__(self, exc: BaseException) -> None:
        self.exc = exc


def ahead(items: Iterator[_T]) -> Generator[_T, None, None]:
    """The items of ``items``, each made in a thread of its own while the one before it is used.

    An exception raised by ``items`` is raised here, after the items before it; when the
    generator is closed (the items are no longer wanted), the thread stops after the item it
    is making, and ``items`` is closed there.

    >>> def fails():
    ...     yield 1
    ...     raise ValueError("the second")
    >>> got = ahead(fails()); next(got)
    1
    >>> next(got)
    Traceback (most recent call last):
    ...
    ValueError: the second
    """
    handed: queue.Queue[object] = queue.Queue(maxsize=1)
    stop = threading.Event()

    def hand(item: object) -> bool:
        """Hand ``item`` over when there is room; False if the items are no longer wanted."""
        while not stop.is_set():
            try:
                handed.put(item, timeout=_WAIT)
                return True
            except queue.Full:
                continue
        return False

    def make() -> None:
        try:
            for item in items:
                if not hand(item):
                    return
            hand(_END)
        except BaseException as exc:  # handed over, and raised where the items are used
            hand(_Raised(exc))
        finally:
            close = getattr(items, "close", None)
            if close is not None:
                close()

    worker = threading.Thread(target=make, name="irmeans-read-ahead", daemon=True)
    worker.start()
    try:
        while True:
            item = handed.get()
            if item is _END:
                return
            if isinstance(item, _Raised):
                raise item.exc
            yield item  # type: ignore[misc]  # an item of ``items``
    finally:
        stop.set()
        worker.join()
