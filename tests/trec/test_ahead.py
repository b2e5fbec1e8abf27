"""A file's next chunk split in a thread of its own while this one is used: the items in order, errors where
they were raised, and the thread gone (the source closed) as soon as the items are no longer wanted."""

import threading
import time

import pytest
from irmeans.trec.ahead import ahead


def threads():
    return [t for t in threading.enumerate() if t.name == "irmeans-read-ahead"]


def test_items_come_in_order_whoever_is_faster():
    def slow_maker():
        for i in range(20):
            if i % 3 == 0:
                time.sleep(0.002)
            yield i

    got = []
    for item in ahead(slow_maker()):
        got.append(item)
        if item % 4 == 0:
            time.sleep(0.002)
    assert got == list(range(20))
    assert not threads()


def test_an_error_comes_after_the_items_made_before_it():
    def fails():
        yield "a"
        yield "b"
        raise OSError("cannot read the third")

    got = []
    with pytest.raises(OSError, match="cannot read the third"):
        for item in ahead(fails()):
            got.append(item)
    assert got == ["a", "b"]
    assert not threads()


def test_items_no_longer_wanted_stop_the_thread_and_close_the_source():
    closed = threading.Event()

    def endless():
        try:
            i = 0
            while True:
                yield i
                i += 1
        finally:
            closed.set()

    items = ahead(endless())
    assert [next(items) for _ in range(3)] == [0, 1, 2]
    items.close()
    assert closed.is_set()  # closed by the thread, which has ended
    assert not threads()
