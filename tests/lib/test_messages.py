"""Arguments that are not what they should be: one IrmeansError naming the argument, before any work.

numpy's broadcast errors, a raw TypeError, "Maximum allowed dimension exceeded", a MemoryError
asking for terabytes, an OverflowError, a string read one character at a time: each of these
used to be what a caller saw. The checks live in ``irmeans._validation``.
"""

import irmeans
import numpy as np
import pytest
from irmeans import _validation, measures
from irmeans.errors import IrmeansError

SCORES = [[0.1, 0.5, 0.3, 0.2], [0.4, 0.6, 0.2, 0.3], [0.9, 0.7, 0.4, 0.5]]


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: measures.average_precision([[1, 0, 1], [0, 1, 1]], num_relevant=[2, 3, 4]), "num_relevant has shape"),
        (lambda: measures.average_precision([1, 0, 1], num_relevant=[2, 3]), "num_relevant has shape"),
        (lambda: measures.recall_at([[1, 0], [0, 1]], 1, num_relevant=[[1, 2, 3]]), "num_relevant has shape"),
        (lambda: measures.average_precision([1, 0], num_relevant=10**20), "num_relevant=100000000000000000000 is out"),
        (lambda: measures.average_precision([[1, 0]] * 2, num_relevant=[1, 10**20]), "num_relevant must be whole"),
        (lambda: measures.average_precision([1, 0], num_relevant=[1.5]), "num_relevant must be whole"),
        (lambda: measures.average_precision([1, 0], num_relevant=["2"]), "num_relevant must be whole"),
        (lambda: measures.average_precision([1, 0], num_relevant=-1), "num_relevant must be a whole number >= 0"),
        (lambda: measures.average_precision([1, 0], level=None), "level must be a finite number, got None"),
        (lambda: measures.average_precision([1, 0], level="1"), "level must be a finite number, got '1'"),
        (lambda: measures.reciprocal_rank([1, 0], level=float("nan")), "level must be a finite number, got nan"),
        (lambda: measures.ap_unretrieved_at_end([1, 0], 2, 10**20), "collection_size=100000000000000000000 is out"),
        (lambda: measures.expected_reciprocal_rank([1, 0], max_grade="3"), "max_grade must be a finite number"),
        (lambda: irmeans.split_half(SCORES, "am", 3, seed=-1), "seed must be a whole number >= 0, got -1"),
        (lambda: irmeans.split_half(SCORES, "am", 3, seed=1.5), "seed must be a whole number"),
        (lambda: irmeans.split_half(SCORES, "am", 3, seed="1"), "seed must be a whole number"),
        (lambda: irmeans.make_halves(SCORES, "random", 3, seed=-2), "seed must be a whole number >= 0"),
        (lambda: irmeans.draw_halves(4, 3, rng=-5), "rng must be a whole number >= 0"),
        (
            lambda: irmeans.split_half(SCORES, "am", 10**20),
            "n_splits=100000000000000000000 is more than the 1,000,000,000",
        ),
        (lambda: irmeans.split_half(SCORES, "am", 2**40), "n_splits=1099511627776 is more than the 1,000,000,000"),
        (lambda: irmeans.draw_halves(4, 10**20), "n_splits=100000000000000000000 is more than"),
        (lambda: irmeans.make_halves(SCORES, "random", 2**40), "n_splits=1099511627776 is more than"),
        (lambda: irmeans.draw_halves(10**20, 1), "would take .* more than this machine's"),
        (lambda: irmeans.draw_halves(10**7, 10**8), "the halves of 100,000,000 split.* would take"),
        (
            lambda: irmeans.evaluate(("12", "ab", [1, 0]), (["1"], ["a"], [1.0])),
            r"\(qrels\): the topics must be a sequence",
        ),
        (
            lambda: irmeans.evaluate((["1"], "a", [1]), (["1"], ["a"], [1.0])),
            r"\(qrels\): the documents must be a sequence",
        ),
        (lambda: irmeans.evaluate((["1"], ["a"], [1]), ("1", ["a"], [1.0])), r"\(run\): the topics must be a sequence"),
        (lambda: irmeans.Qrels.from_arrays(["1", "1"], b"ab", [1, 0]), "documents must be a sequence"),
    ],
)
def test_a_bad_argument_is_one_error_naming_it(call, message):
    with pytest.raises(IrmeansError, match=message):
        call()


def test_the_checks_refuse_before_allocating(monkeypatch):
    allocated = []
    real_empty = np.empty

    def watch(shape, *args, **kwargs):
        allocated.append(shape)
        return real_empty(shape, *args, **kwargs)

    monkeypatch.setattr(np, "empty", watch)
    with pytest.raises(IrmeansError):
        irmeans.draw_halves(10**7, 10**8)
    with pytest.raises(IrmeansError):
        irmeans.split_half(SCORES, "am", 2**40)
    assert allocated == []


def test_memory_is_measured_against_the_machine(monkeypatch):
    monkeypatch.setattr(_validation.os, "sysconf", lambda name: {"SC_PHYS_PAGES": 1000, "SC_PAGE_SIZE": 4096}[name])
    with pytest.raises(IrmeansError, match=r"would take 7.6 MiB, more than this machine's 3.9 MiB of memory"):
        irmeans.draw_halves(100, 10_000)
    irmeans.draw_halves(100, 1_000)


def test_the_valid_forms_still_pass():
    assert measures.average_precision([[1, 0, 1], [0, 1, 1]], num_relevant=[2, 3]).round(4).tolist() == [0.8333, 0.3889]
    assert measures.average_precision([[1, 0, 1], [0, 1, 1]], num_relevant=np.array([4])).shape == (2,)
    assert measures.average_precision([1, 0, 1], num_relevant=np.int64(4), level=1.0) == pytest.approx(5 / 12)
    assert measures.average_precision([1, 0, 1], num_relevant=2**62) > 0
    rng = np.random.default_rng(1)
    assert irmeans.split_half(SCORES, "am", 3, seed=rng).shape == (3,)
    np.testing.assert_array_equal(
        irmeans.split_half(SCORES, "am", 5, seed=7), irmeans.split_half(SCORES, "am", 5, seed=7.0)
    )
    assert irmeans.split_half(SCORES, "am", 2, seed=[1, 2]).shape == (2,)
    assert irmeans.evaluate((("1", "1"), ("a", "b"), (1, 0)), (["1"], ["a"], [1.0]), measures=["map"])[
        "map"
    ].tolist() == [1.0]
