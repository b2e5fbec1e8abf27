"""irmeans.compare: each number it reports checked against an independent computation, and each refusal."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from irmeans import AM, GM, Logit, Median, ScoreMatrix, compare, datasets
from irmeans.comparison import compare as comparison_module
from irmeans.comparison.robustness import FAMILY, applicable, robertson_check, sign_survives
from irmeans.comparison.significance import count_at_least, holm, randomization_test
from irmeans.errors import IrmeansError
from scipy import stats


@pytest.fixture(scope="module")
def trec8():
    m = datasets.load("adhoc8", "ap")
    rows = [0, 3, 17, 40, 77]
    return ScoreMatrix(m.scores[rows], tuple(m.systems[i] for i in rows), m.topics, m.collection, m.measure)


@pytest.fixture(scope="module")
def result(trec8):
    return compare(trec8, ["am", "gm:0.01", "logit:0.01", "median"], permutations=2000, bootstrap=500, seed=3)


def test_pairs_are_every_pair_in_matrix_order_and_differences_are_a_minus_b(result, trec8):
    assert result.pairs == [(trec8.systems[i], trec8.systems[j]) for i in range(5) for j in range(i + 1, 5)]
    for k, avg in enumerate(result.averages):
        per_system = np.array([avg(row) for row in trec8.scores])
        np.testing.assert_array_equal(result.means[k], per_system)
        np.testing.assert_array_equal(result.difference[k], per_system[result.first] - per_system[result.second])


def test_the_t_test_is_scipy_s_ttest_rel_on_each_average_s_transformed_scores(result, trec8):
    s = trec8.scores
    for k, avg in enumerate(result.averages):
        if isinstance(avg, Median):  # no transform: no t-test
            assert np.isnan(result.tests.t[k]).all() and np.isnan(result.tests.p_t[k]).all()
            continue
        g = avg.transform(s)
        ref = stats.ttest_rel(g[result.first], g[result.second], axis=1)
        np.testing.assert_allclose(result.tests.t[k], ref.statistic, rtol=1e-12)
        np.testing.assert_allclose(result.tests.p_t[k], ref.pvalue, rtol=1e-12)


def test_the_randomization_test_is_the_library_s_on_each_scale_with_the_same_sign_vectors(result, trec8):
    s = trec8.scores
    for k, avg in enumerate(result.averages):
        g = s if isinstance(avg, Median) else avg.transform(s)
        if isinstance(avg, Median):
            continue  # the median has no such scale: checked by enumeration below
        expected = randomization_test(g[result.first], g[result.second], permutations=2000, seed=3)
        np.testing.assert_array_equal(result.tests.p_randomization[k], expected)


def median_p_by_enumeration(x, y):
    """Every swap of every topic, the median difference recomputed each time (a loop)."""
    import itertools

    observed = abs(np.median(x) - np.median(y))
    hits = 0
    for swap in itertools.product((False, True), repeat=x.size):
        swap = np.array(swap)
        xs, ys = np.where(swap, y, x), np.where(swap, x, y)
        hits += abs(np.median(xs) - np.median(ys)) >= observed - 1e-12
    return hits / 2**x.size


def test_an_average_without_a_transform_is_tested_on_its_own_values_exactly():
    rng = np.random.default_rng(8)
    s = rng.random((3, 9))
    c = compare(s, ["median", "am"], permutations=512, bootstrap=50)
    assert c.exact and c.permutations == 512
    for j, (a, b) in enumerate(zip(c.first, c.second)):
        assert c.tests.p_randomization[0, j] == pytest.approx(median_p_by_enumeration(s[a], s[b]), abs=1e-15)


@pytest.mark.parametrize("avg", [AM(), GM(eps=0.01), GM(eps=1e-5, form="floor"), Logit(eps=0.01)])
def test_swapping_scores_and_testing_the_average_is_testing_the_mean_of_its_transform(avg):
    """Why one matrix product suffices: the average's own difference and the sum of g's differences agree on
    which sign vectors are as extreme as the data (the sum of g over both systems does not change)."""
    rng = np.random.default_rng(9)
    x, y = rng.beta(0.7, 2, (6, 16)), rng.beta(0.7, 2, (6, 16))
    flips = 1.0 - 2.0 * rng.integers(0, 2, (400, 16))
    by_average = comparison_module._count_by_average(avg, x, y, flips)
    by_sum = count_at_least(avg.transform(x) - avg.transform(y), flips)
    np.testing.assert_array_equal(by_average, by_sum)


def test_holm_runs_over_every_comparison_of_each_test(result):
    t = result.tests
    np.testing.assert_array_equal(t.p_t_holm, holm(t.p_t))  # NaN (the median) left out of the family
    np.testing.assert_array_equal(t.p_randomization_holm, holm(t.p_randomization))
    np.testing.assert_array_equal(t.p_sign_holm, holm(t.sign.p))
    m = int(np.isfinite(t.p_t).sum())
    smallest = np.nanargmin(t.p_t)
    assert t.p_t_holm.flat[smallest] == pytest.approx(min(1.0, m * np.nanmin(t.p_t)), rel=1e-15)


def test_the_bootstrap_interval_is_the_percentile_interval_of_paired_resamples(trec8):
    c = compare(trec8, ["am", "gm:0.01"], baseline=trec8.systems[0], permutations=10, bootstrap=300, seed=5)
    rng = np.random.default_rng(np.random.SeedSequence(5).spawn(1)[0])
    picks = rng.integers(0, trec8.shape[1], size=(300, trec8.shape[1]))
    for k, avg in enumerate(c.averages):
        for j, (a, b) in enumerate(zip(c.first, c.second)):
            d = [avg(trec8.scores[a, p]) - avg(trec8.scores[b, p]) for p in picks]
            lo, hi = np.quantile(d, [0.025, 0.975])
            assert (c.ci_low[k, j], c.ci_high[k, j]) == pytest.approx((lo, hi), rel=1e-12, abs=1e-15)


def test_a_wider_confidence_gives_a_wider_interval_around_the_difference(trec8):
    narrow = compare(trec8, ["am"], confidence=0.5, permutations=10, bootstrap=2000)
    wide = compare(trec8, ["am"], confidence=0.99, permutations=10, bootstrap=2000)
    assert (wide.ci_low <= narrow.ci_low).all() and (wide.ci_high >= narrow.ci_high).all()
    assert ((narrow.ci_low <= narrow.difference) & (narrow.difference <= narrow.ci_high)).mean() > 0.9


def test_a_baseline_compares_each_other_system_with_it(trec8):
    base = trec8.systems[2]
    c = compare(trec8, baseline=base, permutations=50, bootstrap=50)
    assert c.pairs == [(s, base) for s in trec8.systems if s != base]
    assert c.baseline == base and c.second.tolist() == [2] * 4


def test_the_same_seed_gives_the_same_result_and_another_seed_other_p_values(trec8):
    one, two = (compare(trec8, permutations=300, bootstrap=100, seed=1) for _ in range(2))
    assert one.to_json() == two.to_json()
    other = compare(trec8, permutations=300, bootstrap=100, seed=2)
    assert not np.array_equal(one.tests.p_randomization, other.tests.p_randomization)
    assert not np.array_equal(one.ci_low, other.ci_low)


def test_the_chapter_10_example_two_averages_disagree_and_the_first_reversal_is_named_within_the_noise():
    scores = {"A": {"1": 0.0, "2": 0.8, "3": 0.8, "4": 0.8}, "B": {"1": 0.4, "2": 0.4, "3": 0.4, "4": 0.4}}
    c = compare(scores, ["am", "median", "gm:0.01"], permutations=16, bootstrap=100)
    [v] = c.verdicts()
    assert [(x.average, x.better) for x in v.by_average] == [("am", "A"), ("median", "A"), ("gm:0.01", "B")]
    # log(x + 1e-05) reverses the AM first, but on four topics its interval holds 0: not substantial
    assert v.disagree and v.reversed_by == "log(x + 1e-05)" and not v.substantial and v.robust
    assert (v.wins, v.losses, v.ties) == (3, 1, 0)


def test_a_reversal_whose_own_interval_excludes_0_is_substantial_and_not_robust():
    a, b = np.tile([0.0, 0.9, 0.9, 0.9], 10), np.full(40, 0.4)  # ten failures cost far more on a log scale
    c = compare([a, b], ["am", "gm:0.01"], permutations=200, bootstrap=500)
    [v] = c.verdicts()
    assert v.reversed_by == "log(x + 1e-05)" and v.substantial and not v.robust
    r = c.robertson
    assert r.difference[0] == pytest.approx(np.log(a + 1e-5).mean() - np.log(b + 1e-5).mean())
    assert r.low[0] < r.difference[0] < r.high[0] < 0
    row = c.rows()[0]
    assert row["reversed_by"] == "log(x + 1e-05)" and row["reversal_substantial"] is True
    assert "no, log(x + 1e-05) reverses it" in c.to_markdown()
    assert "log(x + 1e-05) reverses the AM's verdict substantially" in " ".join(c.to_text().split())


def test_no_reversal_names_none_and_a_tie_is_not_robust():
    c = compare([[0.5, 0.6, 0.7], [0.4, 0.5, 0.6], [0.4, 0.6, 0.6]], ["am"], permutations=8, bootstrap=50)
    assert c.reversed_by[0] is None and c.robust[0] and np.isnan(c.robertson.low[0])
    tie = compare([[0.2, 0.4], [0.4, 0.2]], ["am"], permutations=4, bootstrap=20)
    assert not tie.robust[0] and tie.reversed_by[0] is None


def test_a_tie_is_nobody_s_verdict_and_disagrees_with_no_one():
    c = compare([[0.2, 0.4, 0.6], [0.4, 0.2, 0.6]], ["am", "gm:0.01"], permutations=8, bootstrap=20)
    assert c.better.tolist() == [[0], [0]]
    assert not c.disagree[0] and not c.robust[0]
    assert [x.better for x in c.verdicts()[0].by_average] == [None, None]


def test_progress_counts_every_sign_vector_resample_and_interval(trec8):
    done = []
    compare(trec8, ["am", "median"], permutations=2500, bootstrap=700, progress=done.append)
    assert sum(done) == 2500 + 700 + 10 * 2 == comparison_module.work(50, 10, 2, 2500, 700) and len(done) > 2
    assert comparison_module.work(10, 10, 2, 2500, 700) == 1024 + 700 + 20  # all 2**10 sign vectors


def test_robertson_s_family_leaves_out_what_does_not_take_the_scores():
    labels = [t.label for t in applicable(np.array([0.0, 0.5, 1.0]))]
    assert labels == [t.label for t in FAMILY]
    above_one = [t.label for t in applicable(np.array([0.0, 2.0]))]
    assert "log-odds with ε = 0.01" not in above_one and "x^2" in above_one
    negative = [t.label for t in applicable(np.array([-0.05, 0.5]))]
    assert negative == ["x", "log(x + 0.1)", "log(x + 1)"]


def test_robertson_s_check_finds_the_transformations_that_reverse_a_difference():
    a = np.array([[0.0, 0.9, 0.9, 0.9], [0.5, 0.6, 0.7, 0.8]])
    b = np.array([[0.4, 0.4, 0.4, 0.4], [0.4, 0.5, 0.6, 0.7]])
    survives, reversed_by, used = sign_survives(a, b)
    assert survives.tolist() == [False, True]
    assert reversed_by[1] == ()
    # The AM prefers a (0.675 > 0.4). Mean log(x + 0.01): a (log 0.01 + 3 log 0.91) / 4 = -1.22 < log 0.41 = -0.89;
    # with ε = 0.1 a's zero costs less: (log 0.1 + 3 log 1.0) / 4 = -0.58 > log 0.5 = -0.69. Fourth roots:
    # 3 x 0.974 / 4 = 0.730 < 0.795, square roots 3 x 0.949 / 4 = 0.712 > 0.632; the logit, stretching the top
    # as well, keeps a ahead.
    assert reversed_by[0] == ("log(x + 1e-05)", "log(x + 0.001)", "log(x + 0.01)", "x^0.25")
    assert used[0] == "x"


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"scores": [[0.1, 0.2]]}, "at least 2 systems"),
        ({"scores": [[0.1], [0.2]]}, "at least 2 topics"),
        ({"scores": [0.1, 0.2]}, "systems × topics"),
        ({"baseline": "nosuch"}, "baseline 'nosuch' is not one of the 3 systems: 'run1', 'run2', 'run3'"),
        ({"averages": ["gm:x"]}, "not a finite number"),
        ({"averages": ["mean"]}, "unknown average 'mean'"),
        ({"averages": []}, "no averages"),
        ({"test": "wilcoxon"}, "test must be one of auto, randomization, t, sign"),
        ({"bootstrap": 1}, "1 bootstrap resample gives an interval of a single point: give at least 2"),
        ({"confidence": 1.0}, "confidence must lie strictly between 0 and 1"),
        ({"alpha": 0}, "alpha must lie strictly between 0 and 1"),
        ({"permutations": 0}, "permutations must be a whole number >= 1"),
        ({"bootstrap": 2.5}, "bootstrap must be a whole number"),
        ({"seed": -3}, "seed must be a whole number >= 0"),
        ({"scores": [[0.1, 1.5], [0.2, 0.3], [0.1, 0.1]]}, "system 'run1', topic '2': score 1.5; logit"),
        ({"scores": {"A": {"1": 0.1, "2": 0.2}, "B": {"1": 0.3}}}, "system 'B' has no score for 1 of the 2 topics"),
    ],
)
def test_what_cannot_be_compared_is_refused_with_its_reason(kwargs, message):
    args = {"scores": [[0.1, 0.2], [0.3, 0.4], [0.5, 0.5]], "permutations": 10, "bootstrap": 10} | kwargs
    with pytest.raises(IrmeansError, match=message.replace("(", r"\(").replace(")", r"\)")):
        compare(**args)


def test_a_data_frame_names_its_systems_and_topics(trec8):
    import pandas as pd

    frame = pd.DataFrame(trec8.scores, index=trec8.systems, columns=[int(t) for t in trec8.topics])
    expected = compare(trec8, ["am"], permutations=20, bootstrap=20).means[0]
    c = compare(frame, ["am"], permutations=20, bootstrap=20)
    assert c.matrix.systems == trec8.systems and c.matrix.topics == trec8.topics
    np.testing.assert_array_equal(c.means[0], expected)


def test_too_many_comparisons_are_refused_before_any_work(monkeypatch):
    monkeypatch.setattr(comparison_module, "MAX_COMPARISONS", 5)
    with pytest.raises(IrmeansError, match="6 pairs × 1 averages is more than the 5 comparisons"):
        compare(np.random.default_rng(0).random((4, 5)), ["am"])
    compare(np.random.default_rng(0).random((4, 5)), ["am"], baseline="run1", permutations=4, bootstrap=4)


def test_a_geometric_mean_without_epsilon_on_zeros_is_tested_on_its_own_values():
    s = np.array([[0.0, 0.5, 0.6, 0.7], [0.1, 0.4, 0.5, 0.6]])
    c = compare(s, ["gm:0"], permutations=16, bootstrap=20)
    assert np.isnan(c.tests.p_t).all()  # log(0) = -inf: no t-test
    assert c.tests.p_randomization[0, 0] == pytest.approx(1.0)  # GM 0 against >0 whichever way: every swap counts


def test_averages_whose_specs_looked_alike_keep_their_own_names_in_every_output():
    # gm:0.01000001 and gm:0.01 were both 'gm:0.01': one's means were lost in JSON and to_frame had a duplicate index
    scores = {"A": {"1": 0.2, "2": 0.0, "3": 0.5}, "B": {"1": 0.1, "2": 0.3, "3": 0.4}}
    c = compare(scores, ["gm:0.01000001", "gm:0.01"], permutations=50, bootstrap=50)
    assert [a.spec for a in c.averages] == ["gm:0.01000001", "gm:0.01"]
    import json

    data = json.loads(c.to_json())
    assert set(data["means"]) == {"gm:0.01000001", "gm:0.01"}
    assert [r["average"] for r in data["comparisons"]] == ["gm:0.01000001", "gm:0.01"]
    pytest.importorskip("pandas")
    assert c.to_frame().index.is_unique


def _prose(text):
    """The report's lines run together, without their '#' and indents."""
    return " ".join(line.lstrip("# ") for line in text.splitlines())


@settings(max_examples=15)
@given(systems=st.integers(2, 4), averages=st.integers(1, 2), alpha=st.sampled_from([0.05, 0.1, 0.2]))
def test_auto_takes_the_randomization_test_from_exactly_the_sign_vectors_that_bring_its_floor_to_a_tenth_of_alpha(
    systems, averages, alpha
):
    scores = np.random.default_rng(systems).uniform(0.1, 0.9, (systems, 30))  # 2**30 vectors: never exact
    family = systems * (systems - 1) // 2 * averages
    needed = math.ceil(family / (0.1 * alpha)) - 1  # family / (needed + 1) <= alpha / 10
    specs = ["am", "gm:0.01"][:averages]
    enough = compare(scores, specs, permutations=needed, bootstrap=10, alpha=alpha)
    short = compare(scores, specs, permutations=needed - 1, bootstrap=10, alpha=alpha)
    assert (enough.test, short.test) == ("randomization", "t") and short.requested_test == "auto"
    assert short.p_floor_holm > 0.1 * alpha >= enough.p_floor_holm
    assert f"-n {needed:,} (sign vectors)" in _prose(short.to_text())


def test_a_large_family_marks_its_verdicts_by_the_t_test_and_says_why(trec8):
    c = compare(trec8, permutations=1000, bootstrap=50)
    assert c.test == "t" and c.significant.any()
    np.testing.assert_array_equal(c.significant, c.tests.p_t_holm < 0.05)
    notes = _prose(c.to_text())
    assert "Verdicts are marked by the t-test on each average's scale" in notes
    asked = compare(trec8, permutations=1000, bootstrap=50, test="randomization")
    assert asked.test == "randomization" and "Warning: its smallest Holm-adjusted p" in _prose(asked.to_text())


@settings(max_examples=30)
@given(st.integers(0, 2**32 - 1), st.integers(4, 30))
def test_robertson_names_the_first_reversal_and_calls_it_substantial_exactly_when_its_interval_excludes_0(seed, n):
    rng = np.random.default_rng(seed)
    a, b = rng.beta(0.6, 1.5, (6, n)), rng.beta(0.6, 1.5, (6, n))
    a[:, : n // 4] = 0.0  # failures, which the logs count far more than the AM does
    check = robertson_check(a, b, resamples=300, seed=seed)
    _, differing, used = sign_survives(a, b)
    am = np.sign(a.mean(axis=1) - b.mean(axis=1))
    for j in range(6):
        opposite = [t for t in differing[j] if np.sign(_mean_difference(t, a[j], b[j])) == -am[j]]
        assert check.reversed_by[j] == (opposite[0] if opposite and am[j] else None)
        if check.reversed_by[j] is None:
            assert not check.substantial[j] and np.isnan(check.low[j])
        else:
            assert check.low[j] <= check.high[j]
            assert check.substantial[j] == (check.low[j] > 0 or check.high[j] < 0)
            assert np.sign(check.difference[j]) == -am[j]
        assert check.robust[j] == (am[j] != 0 and not check.substantial[j])
    assert check.family == used


def _mean_difference(label, x, y):
    [t] = [t for t in FAMILY if t.label == label]
    return float(t.g(x).mean() - t.g(y).mean())


def test_robertson_s_intervals_in_compare_come_from_its_own_resamples_or_their_own_pass_alike():
    a, b = np.tile([0.0, 0.9, 0.9, 0.9], 10), np.full(40, 0.4)
    c = compare([a, b], ["am"], permutations=100, bootstrap=2000, seed=3)  # one reversal: the averages' resamples
    alone = robertson_check(a[None], b[None], resamples=2000, seed=3)  # its own pass, other resamples
    assert c.reversed_by == alone.reversed_by and c.robertson.substantial.tolist() == alone.substantial.tolist()
    assert c.robertson.difference[0] == alone.difference[0]
    assert c.robertson.low[0] == pytest.approx(alone.low[0], abs=0.3) and c.robertson.high[0] < 0
