"""Differential test: per-topic values against pytrec_eval on generated data.

pytrec_eval runs trec_eval's own measure code; it keeps scores as float32 and
only evaluates topics present in both the qrels and the run, and it breaks
score ties by docno descending, like trec_eval.  The generated scores are
multiples of 1/8 (exact in float32) with many ties.
"""

import numpy as np
import pytest
import pytrec_eval

from irmeans.evaluation import evaluate

MEASURES = {"map", "recip_rank", "P_5", "P_10", "P_20", "Rprec", "ndcg", "bpref",
            "ndcg_cut_10", "recall_10"}


def generate(seed):
    rng = np.random.default_rng(seed)
    qrels, run = {}, {}
    for t in range(12):
        qid = f"q{t}"
        docs = [f"d{j:03d}" for j in rng.choice(200, 60, replace=False)]
        if t != 11:        # q11: retrieved but never judged
            judged = rng.choice(docs + [f"x{j}" for j in range(10)], 25, replace=False)
            top = 0 if t == 3 else 3          # q3: judgments without any relevant document
            qrels[qid] = {d: int(rng.integers(0, top + 1)) for d in judged}
        if t != 10:        # q10: judged but not retrieved
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
    expected = pytrec_eval.RelevanceEvaluator(
        qrels, {"map", "recip_rank", "P", "Rprec", "ndcg", "bpref", "ndcg_cut", "recall"}
    ).evaluate(run)
    with pytest.warns(UserWarning):
        got = evaluate(flatten(qrels), flatten(run),
                       measures=["map", "recip_rank", "P", "Rprec", "ndcg", "bpref",
                                 "ndcg_cut", "recall"])
    assert sorted(expected) == got.topics
    assert "q3" in got.topics and "q10" not in got.topics and "q11" not in got.topics
    checked = 0
    for i, qid in enumerate(got.topics):
        for name in MEASURES:
            assert got[name][i] == pytest.approx(expected[qid][name], abs=1e-9), (qid, name)
            checked += 1
    assert checked == len(MEASURES) * len(got.topics)
    assert max(got["map"]) > 0 and min(got["map"]) == 0


@pytest.mark.parametrize("level", [1, 2])
def test_relevance_level_matches_pytrec_eval(level):
    qrels, run = generate(100 + level)
    expected = pytrec_eval.RelevanceEvaluator(qrels, {"map", "P"},
                                              relevance_level=level).evaluate(run)
    with pytest.warns(UserWarning):
        got = evaluate(flatten(qrels), flatten(run), relevance_level=level, measures=["map", "P"])
    for i, qid in enumerate(got.topics):
        assert got["map"][i] == pytest.approx(expected[qid]["map"], abs=1e-9)
        assert got["P_10"][i] == pytest.approx(expected[qid]["P_10"], abs=1e-9)
