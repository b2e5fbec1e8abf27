"""Simulated collections hit the published shares of low AP and are reproducible."""

import numpy as np
import pytest
from irmeans.simulate import PRESETS, simulate_collection


def test_presets_carry_the_published_shares():
    assert PRESETS == {
        "TREC9": {"zero_share": 0.10, "low_share": 0.56},
        "TREC2001": {"zero_share": 0.04, "low_share": 0.49},
        "TREC8": {"zero_share": 0.03, "low_share": 0.36},
    }


@pytest.mark.parametrize("name", PRESETS)
@pytest.mark.parametrize("seed", [0, 1, 2, 12345])
def test_presets_hit_their_shares(name, seed):
    ap = simulate_collection(name, seed=seed)
    assert ap.shape == (105, 50) and ap.dtype == np.float64
    assert ((ap >= 0) & (ap <= 1)).all()
    assert abs((ap == 0).mean() - PRESETS[name]["zero_share"]) <= 0.01
    assert abs((ap <= 0.1).mean() - PRESETS[name]["low_share"]) <= 0.01
    # the cuts are exact up to rounding the share to a count of the 5,250 scores
    assert (ap == 0).sum() == round(PRESETS[name]["zero_share"] * 5250)
    assert (ap <= 0.1).sum() == round(PRESETS[name]["low_share"] * 5250)


def test_same_seed_same_collection():
    np.testing.assert_array_equal(simulate_collection("TREC8", seed=7), simulate_collection("trec8", seed=7))
    assert not np.array_equal(simulate_collection("TREC8", seed=7), simulate_collection("TREC8", seed=8))


def test_explicit_shares_and_sizes():
    ap = simulate_collection(n_systems=40, n_topics=25, zero_share=0.2, low_share=0.7, seed=3)
    assert ap.shape == (40, 25)
    assert (ap == 0).sum() == 200 and (ap <= 0.1).sum() == 700
    none = simulate_collection(zero_share=0.0, low_share=0.3, seed=3)
    assert (none == 0).sum() == 0 and (none <= 0.1).sum() == round(0.3 * 5250)


def test_scores_follow_system_strength_and_topic_difficulty():
    ap = simulate_collection("TREC8", seed=4)
    am = ap.mean(axis=1)
    # systems differ: the best is far ahead of the worst; topics differ more
    assert am.max() - am.min() > 0.2
    assert ap.mean(axis=0).std() > am.std()
    # nonzero scores are continuous: no ties beyond the zeros
    nonzero = ap[ap > 0]
    assert np.unique(nonzero).size == nonzero.size


def test_presets_share_the_draws_of_a_seed():
    # the map from latent quality to AP is monotone, so the median of 25
    # topics ranks the systems the same way in every preset
    ranks = [np.argsort(np.median(simulate_collection(name, seed=9)[:, :25], axis=1)) for name in PRESETS]
    for r in ranks[1:]:
        np.testing.assert_array_equal(r, ranks[0])
    assert not np.array_equal(simulate_collection("TREC9", seed=9), simulate_collection("TREC8", seed=9))


def test_collections_get_harder_in_the_published_order():
    means = {name: simulate_collection(name, seed=1).mean() for name in PRESETS}
    assert means["TREC9"] < means["TREC2001"] < means["TREC8"]


@pytest.mark.parametrize(
    "args, kwargs, message",
    [
        (("TREC7",), {}, "unknown preset 'TREC7'"),
        (("TREC8",), {"zero_share": 0.1}, "either a preset"),
        ((), {"zero_share": 0.1}, "both zero_share and low_share"),
        ((), {"zero_share": 0.3, "low_share": 0.2}, "low_share must be in"),
        ((), {"zero_share": -0.1, "low_share": 0.2}, "zero_share must be in"),
        ((), {"zero_share": 0.1, "low_share": 1.0}, "low_share must be in"),
        (("TREC8",), {"n_topics": 0}, "n_topics must be a whole number"),
        (("TREC8",), {"slope": 0}, "slope must be"),
        (("TREC8",), {"noise_sd": np.nan}, "noise_sd must be"),
    ],
)
def test_bad_arguments_are_named(args, kwargs, message):
    with pytest.raises(ValueError, match=message):
        simulate_collection(*args, **kwargs)
