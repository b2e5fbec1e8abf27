"""One way of checking arguments across the library: the drifts that used to be, each pinned down."""

import irmeans
import numpy as np
import pytest
from irmeans import consistency, means, measures
from irmeans.comparison import significance
from irmeans.datasets import robertson_example
from irmeans.errors import FileFormatError, IrmeansError, TopicsLeftOutWarning

RELS = [1, 0, 1, 1, 0]


def test_the_errors_are_value_errors_and_a_file_error_names_where():
    assert issubclass(IrmeansError, ValueError)
    err = FileFormatError("score 'x' is not a number", path="run.txt", line=7)
    assert str(err) == "run.txt:7: score 'x' is not a number"
    assert (err.path, err.line, err.message) == ("run.txt", 7, "score 'x' is not a number")
    assert str(FileFormatError("empty", path="q.txt")) == "q.txt: empty"
    assert issubclass(TopicsLeftOutWarning, UserWarning)


@pytest.mark.parametrize("k", [2, 2.0, np.int64(2), np.float32(2.0)])
def test_a_whole_cutoff_is_accepted_however_it_is_typed(k):
    assert measures.precision_at(RELS, k) == 0.5
    assert measures.recall_at(RELS, k, 3) == pytest.approx(1 / 3)


@pytest.mark.parametrize("k", ["2", 2.5, True, None, float("nan"), 0, -1])
def test_a_cutoff_that_is_not_a_whole_number_above_zero_is_one_clear_error(k):
    with pytest.raises(IrmeansError, match="cutoff k must be a whole number"):
        measures.precision_at(RELS, k)


def test_counts_are_checked_the_same_way_everywhere():
    a = consistency.draw_halves(5.0, 3, rng=0)
    b = consistency.draw_halves(5, 3, rng=0)
    np.testing.assert_array_equal(a[0], b[0])
    for bad in ("5", 5.5, True):
        with pytest.raises(IrmeansError, match="n_topics must be a whole number"):
            consistency.draw_halves(bad, 3)
        with pytest.raises(IrmeansError, match="num_relevant must be a whole number"):
            measures.average_precision(RELS, num_relevant=bad)


@pytest.mark.parametrize("axis", [5, -3, 2, "1", 1.5])
def test_an_axis_out_of_range_is_one_clear_error(axis):
    x = np.full((2, 3), 0.5)
    for mean in (means.arithmetic_mean, means.median, irmeans.GM(eps=0.01), irmeans.HM(eps=0.01)):
        with pytest.raises(IrmeansError, match="axis"):
            mean(x, axis=axis)


def test_a_negative_axis_in_range_works():
    x = np.array([[0.2, 0.4], [0.6, 0.8]])
    np.testing.assert_allclose(means.arithmetic_mean(x, axis=-1), [0.3, 0.7])


@pytest.mark.parametrize("eps", [float("nan"), float("inf"), -1e-9, "0.01", None, True])
def test_eps_must_be_a_finite_number_at_least_zero(eps):
    for mean in (means.geometric_mean, means.harmonic_mean, means.logit_mean):
        with pytest.raises(IrmeansError, match="eps must be a finite number"):
            mean([0.1, 0.2], eps=eps)


@pytest.mark.parametrize("eps", [1e3, 1e12, 1e300])
def test_means_with_a_huge_eps_tend_to_the_arithmetic_mean(eps):
    x = [0.0, 0.1, 0.25, 0.9]
    am = means.arithmetic_mean(x)
    assert means.geometric_mean(x, eps=eps) == pytest.approx(am, abs=1e-3 * 1e3 / eps + 1e-12)
    assert means.harmonic_mean(x, eps=eps) == pytest.approx(am, abs=1e-3 * 1e3 / eps + 1e-12)


def test_a_large_eps_lies_below_the_arithmetic_mean_and_rises_towards_it():
    x = np.array([0.0, 0.1, 0.25, 0.9])
    values = [means.geometric_mean(x, eps=e) for e in (1.0, 10.0, 1e3, 1e6)]
    assert all(a < b for a, b in zip(values, values[1:]))
    assert values[-1] < means.arithmetic_mean(x)


def test_masked_arrays_are_refused_not_silently_unmasked():
    x = np.ma.masked_array([0.1, 0.9, 0.5], mask=[False, True, False])
    with pytest.raises(IrmeansError, match="masked array"):
        means.arithmetic_mean(x)
    with pytest.raises(IrmeansError, match="masked array"):
        measures.average_precision(np.ma.masked_array(RELS, mask=[0, 1, 0, 0, 0]))


def test_non_numbers_are_one_clear_error_not_a_type_error():
    with pytest.raises(IrmeansError, match="must be numbers"):
        means.arithmetic_mean(["a", "b"])
    with pytest.raises(IrmeansError, match="must be numbers"):
        measures.average_precision(["x", 1])


@pytest.mark.parametrize("kwargs, message", [({"relevance_level": 1.5}, "relevance_level"), ({"depth": 2.7}, "depth")])
def test_evaluate_refuses_fractional_levels_and_depths(kwargs, message):
    qrels = (["1", "1"], ["a", "b"], [1, 0])
    run = (["1", "1"], ["a", "b"], [2.0, 1.0])
    with pytest.raises(IrmeansError, match=f"{message} must be a whole number"):
        irmeans.evaluate(qrels, run, measures=["map"], **kwargs)
    assert irmeans.evaluate(qrels, run, measures=["map"], relevance_level=1.0, depth=2.0)["map"].tolist() == [1.0]


def test_the_example_data_load_from_the_installed_package():
    ap = robertson_example()
    assert ap.shape == (50,) and int((ap == 0).sum()) == 3
    assert round(means.arithmetic_mean(ap), 3) == 0.309


MATRIX = [[0.1, 0.5, 0.3, 0.2], [0.4, 0.6, 0.2, 0.3], [0.9, 0.7, 0.4, 0.5]]
HALVES = ([[0, 1]], [[2, 3]])

#: Every public function that takes per-topic scores, called on ``x`` (a vector or a matrix as it needs).
SCORE_TAKERS = {
    "arithmetic_mean": lambda x: means.arithmetic_mean(x),
    "geometric_mean": lambda x: means.geometric_mean(x, eps=0.01),
    "harmonic_mean": lambda x: means.harmonic_mean(x, eps=0.01),
    "median": lambda x: means.median(x),
    "logit_mean": lambda x: means.logit_mean(x, eps=0.01),
    "log_odds": lambda x: means.log_odds(x, eps=0.01),
    "GM()": lambda x: irmeans.GM(eps=0.01)(x),
    "paired_t_test": lambda x: significance.paired_t_test(x, [0.2, 0.1, 0.3]),
    "wilcoxon_test": lambda x: significance.wilcoxon_test(x, [0.2, 0.1, 0.3]),
    "kendall_tau": lambda x: irmeans.kendall_tau(x, [0.2, 0.1, 0.3]),
    "kendall_tau (y)": lambda x: irmeans.kendall_tau([0.2, 0.1, 0.3], x),
    "split_half": lambda m: irmeans.split_half(m, "am", n_splits=2, seed=0),
    "halves_tau": lambda m: irmeans.halves_tau(m, "am", *HALVES),
    "standardize": lambda m: irmeans.standardize(m),
    "standardize (reference)": lambda m: irmeans.standardize(MATRIX, reference=m),
    "topic_difficulty": lambda m: irmeans.topic_difficulty(m),
    "make_halves": lambda m: irmeans.make_halves(m, "hard-easy"),
}
MATRIX_TAKERS = {
    "split_half",
    "halves_tau",
    "standardize",
    "standardize (reference)",
    "topic_difficulty",
    "make_halves",
}


@pytest.mark.parametrize("name", sorted(SCORE_TAKERS))
def test_every_function_taking_scores_refuses_a_masked_array_and_words(name):
    call = SCORE_TAKERS[name]
    good = np.array(MATRIX) if name in MATRIX_TAKERS else np.array([0.3, 0.9, 0.5])
    call(good)  # the valid input passes
    masked = np.ma.masked_array(good, mask=np.zeros(good.shape, bool))
    masked.mask.flat[1] = True
    masked.data.flat[1] = 99.0  # the masked-out value must never be used
    with pytest.raises(IrmeansError, match="masked array"):
        call(masked)
    words = np.where(np.ones(good.shape, bool), "x", "")
    with pytest.raises(IrmeansError, match="must be numbers"):
        call(words.tolist())
