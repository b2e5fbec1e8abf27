"""The 46-matrix replication: every mean τ is split_half's on the same splits; the chart only picks rows."""

import numpy as np
import pytest
from irmeans import consistency, datasets
from irmeans_book.figures import replication
from irmeans_book.plots import to_spec


@pytest.fixture(scope="module")
def tables():
    return replication.replication_tables(n_splits=30, matrices=["adhoc8_ap", "web2013_p10"], eps_grid=[1e-5, 0.01])


def test_mean_taus_are_split_half(tables):
    long, wide = tables
    assert list(wide.collection) == ["adhoc8", "web2013"]
    s = np.array(datasets.load("web2013", "p10").scores)
    row = wide[wide.collection == "web2013"].iloc[0]
    for column, scores, spec in (
        ("am", s, "am"),
        ("trec_gm", s, "gm-floor:1e-5"),
        ("gm_-2", s, "gm:0.01"),
        ("std_am", consistency.standardize(s, constant="half"), "am"),
    ):
        expected = np.nanmean(consistency.split_half(scores, spec, 30, seed=replication.SEED))
        assert row[column] == round(float(expected), 6), column
    assert row["low"] == round(float((s <= 0.1).mean()), 6)
    assert len(long) == 2 * (3 + 2)


def test_chart_has_the_slider_and_the_select(tables):
    _, wide = tables
    spec = to_spec(replication.replication_chart(wide, [1e-5, 0.01]), "alt")
    params = {p["name"]: p for p in spec["params"]}
    assert params["logeps"]["bind"]["min"] == -5 and params["logeps"]["bind"]["max"] == -2
    assert params["measure"]["bind"]["options"] == ["all", "AP", "P@10"]
