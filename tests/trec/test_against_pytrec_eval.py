"""Differential test: per-topic values against pytrec_eval on generated data.

pytrec_eval runs trec_eval's own measure code; it keeps scores as float32 and
only evaluates topics present in both the qrels and the run, and it breaks
score ties by docno descending, like trec_eval.  The generated scores are
multiples of 1/8 (exact in float32) with many ties.
"""

import math

import numpy as np
import pytest
import pytrec_eval
from irmeans.trec.evaluate import evaluate

# Compared: every per-topic measure both compute, except
# - iprec_at_recall_* and 11pt_avg: pytrec_eval bundles trec_eval 9, which
#   rounds the rank cutoff of a recall level as (long)(p * R + 0.9); trec_eval
#   10, and irmeans, use lround(p * R), so some topics differ;
# - relstring: a string, which pytrec_eval reports as 0.0;
# (runid and num_q are not per-topic values in irmeans, so not in both.)
# gm_map and gm_bpref are compared through exp: pytrec_eval reports their
# per-topic values as log(max(value, 1e-5)), the summands of the geometric mean.
EXCLUDED_PREFIXES = ("iprec_at_recall_", "11pt_avg", "relstring")
AS_LOGS = {"gm_map", "gm_bpref"}
# 94 measures in both (num_q too: 1 for each topic) minus the 11 iprec_at_recall_*, 11pt_avg and relstring
N_COMPARED = 81
MIN_GEO_MEAN = 1e-5


def generate(seed):
    rng = np.random.default_rng(seed)
    qrels, run = {}, {}
    for t in range(12):
        qid = f"q{t}"
        docs = [f"d{j:03d}" for j in rng.choice(200, 60, replace=False)]
        if t != 11:  # q11: retrieved but never judged
            judged = rng.choice(docs + [f"x{j}" for j in range(10)], 25, replace=False)
            top = 0 if t == 3 else 3  # q3: judgments without any relevant document
            qrels[qid] = {d: int(rng.integers(0, top + 1)) for d in judged}
        if t != 10:  # q10: judged but not retrieved
            n = int(rng.integers(1, 60))
            run[qid] = {d: float(rng.integers(0, 12)) / 8 for d in docs[:n]}
    return qrels, run


def flatten(nested):
    topics, docs, values = [], [], []
    for qid, entries in nested.items():
        for doc, value in entries.items():
            topics.append(qid)
            docs.append(doc)
            values.append(value)
    return topics, docs, values


@pytest.mark.parametrize("seed", range(6))
def test_per_topic_values_match_pytrec_eval(seed):
    qrels, run = generate(seed)
    expected = pytrec_eval.RelevanceEvaluator(qrels, pytrec_eval.supported_measures).evaluate(run)
    with pytest.warns(UserWarning):
        got = evaluate(flatten(qrels), flatten(run))  # every measure irmeans has
    assert sorted(expected) == got.topics
    assert "q3" in got.topics and "q10" not in got.topics and "q11" not in got.topics
    theirs = set(expected[got.topics[0]])
    names = sorted(n for n in theirs & set(got.per_topic) if not n.startswith(EXCLUDED_PREFIXES))
    assert len(names) == N_COMPARED, names
    assert {
        "map",
        "P_5",
        "ndcg_cut_10",
        "infAP",
        "Rndcg",
        "set_F",
        "success_1",
        "num_nonrel_judged_ret",
        "gm_map",
    } <= set(names)
    checked = 0
    for i, qid in enumerate(got.topics):
        for name in names:
            want = expected[qid][name]
            mine = float(got[name][i])
            if name in AS_LOGS:
                want, mine = math.exp(want), max(mine, MIN_GEO_MEAN)
            assert mine == pytest.approx(want, rel=1e-12, abs=1e-9), (qid, name)
            checked += 1
    assert checked == N_COMPARED * len(got.topics)
    assert max(got["map"]) > 0 and min(got["map"]) == 0


@pytest.mark.parametrize("level", [1, 2])
def test_relevance_level_matches_pytrec_eval(level):
    qrels, run = generate(100 + level)
    expected = pytrec_eval.RelevanceEvaluator(qrels, {"map", "P"}, relevance_level=level).evaluate(run)
    with pytest.warns(UserWarning):
        got = evaluate(flatten(qrels), flatten(run), relevance_level=level, measures=["map", "P"])
    for i, qid in enumerate(got.topics):
        assert got["map"][i] == pytest.approx(expected[qid]["map"], abs=1e-9)
        assert got["P_10"][i] == pytest.approx(expected[qid]["P_10"], abs=1e-9)


# The parametrised measures pytrec_eval takes (its parser splits name=value gains at the
# commas and aborts, and it has no unj, rbp or utility parameters): its name -> irmeans' names.
PARAMETRISED = {
    "P.3,7": ["P_3", "P_7"],
    "ndcg_cut.3,7": ["ndcg_cut_3", "ndcg_cut_7"],
    "recall.4,25": ["recall_4", "recall_25"],
    "success.2,4": ["success_2", "success_4"],
    "map_cut.7": ["map_cut_7"],
    "relative_P.3": ["relative_P_3"],
    "Rprec_mult.0.5,1.5": ["Rprec_mult_0.50", "Rprec_mult_1.50"],
    "set_F.2": ["set_F_2"],
}


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("spec", sorted(PARAMETRISED))
def test_parametrised_measures_match_pytrec_eval(seed, spec):
    qrels, run = generate(200 + seed)
    expected = pytrec_eval.RelevanceEvaluator(qrels, {spec}).evaluate(run)
    with pytest.warns(UserWarning):
        got = evaluate(flatten(qrels), flatten(run), measures=[spec])
    assert list(got.per_topic) == PARAMETRISED[spec]
    for i, qid in enumerate(got.topics):
        for name in PARAMETRISED[spec]:
            theirs = expected[qid]["set_F" if name == "set_F_2" else name]
            assert got[name][i] == pytest.approx(theirs, rel=1e-12, abs=1e-9), (qid, name)
