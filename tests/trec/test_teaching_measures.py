"""The teaching API's measures (``irmeans.measures``) and the evaluator's agree, topic by topic.

The two are written apart: the teaching functions read one ranked list of grades, the
evaluator's kernels many topics at once from a run and qrels.  On random runs with ties (which
trec_eval breaks by docno, descending) and graded judgments, each teaching measure of the
topic's ranking, in trec_eval's order, with R from the judgments, equals the evaluator's value
for the topic: AP (``map``), P@k (``P_k``), R-precision (``Rprec``), RR (``recip_rank``) and nDCG
(``ndcg``), at relevance level 1 and at others (``-l``).  ERR has no trec_eval counterpart.
"""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from irmeans import measures
from irmeans.trec.evaluate import evaluate

CUTOFFS = (1, 3, 5, 10)


@st.composite
def topics(draw):
    """Topics of a run and their qrels: documents with tied scores, grades -1 to 3, some never retrieved."""
    out = []
    for t in range(draw(st.integers(1, 5))):
        n = draw(st.integers(1, 25))
        docs = [f"d{t}-{draw(st.integers(0, 999))}-{i}" for i in range(n)]
        scores = draw(st.lists(st.sampled_from([0.0, 0.5, 1.0, 1.5, 3.0]), min_size=n, max_size=n))
        judged = {}
        for d in docs:
            grade = draw(st.sampled_from([None, None, -1, 0, 1, 2, 3]))
            if grade is not None:
                judged[d] = grade
        for k in range(draw(st.integers(0, 4))):  # judged, never retrieved
            judged[f"u{t}-{k}"] = draw(st.sampled_from([0, 1, 2, 3]))
        if not judged:
            judged[docs[0]] = 0
        out.append((str(100 + t), docs, scores, judged))
    return out


def trec_eval_order(docs, scores):
    """The documents ranked as trec_eval ranks them: score descending, docno descending (strcmp) on ties."""
    return [d for _, d in sorted(zip(scores, docs), key=lambda r: (-r[0], [-b for b in r[1].encode()] + [1]))]


@given(data=topics(), level=st.sampled_from([1, 2, 3]))
def test_each_teaching_measure_equals_the_evaluator_s_on_every_topic(data, level):
    qrels = (
        [t for t, _, _, j in data for _ in j],
        [d for _, _, _, j in data for d in j],
        [g for *_, j in data for g in j.values()],
    )
    run = (
        [t for t, docs, _, _ in data for _ in docs],
        [d for _, docs, _, _ in data for d in docs],
        [s for _, _, ss, _ in data for s in ss],
    )
    names = ["map", "Rprec", "recip_rank", "ndcg", "P." + ",".join(map(str, CUTOFFS))]
    ev = evaluate(qrels, run, measures=names, relevance_level=level)
    assert ev.topics == sorted(t for t, *_ in data)
    for topic, docs, scores, judged in data:
        at = ev.topics.index(topic)
        grades = np.array([judged.get(d, 0) for d in trec_eval_order(docs, scores)], dtype=float)
        R = sum(g >= level for g in judged.values())
        want = {
            "map": measures.average_precision(grades, R, level=level),
            "Rprec": measures.r_precision(grades, R, level=level),
            "recip_rank": measures.reciprocal_rank(grades, level=level),
            "ndcg": measures.ndcg(grades, judged=list(judged.values())),
            **{f"P_{k}": measures.precision_at(grades, k, level=level) for k in CUTOFFS},
        }
        for name, value in want.items():
            got = float(ev.per_topic[name][at])
            assert abs(got - value) <= 1e-12 * max(1.0, abs(value)), (topic, name, got, value, grades.tolist())
