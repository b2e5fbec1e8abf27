"""Ranking a big run range by range (``join._blocks_order``): every layout around the range boundaries.

A run of more than ``join._ARROW_ROWS`` lines is sorted by pyarrow in ranges of about
``join._BLOCK`` rows cut at topic boundaries.  The ranking must be trec_eval's whatever the
run's size and layout: score descending, docno descending (``strcmp``) on ties, each topic on
its own.  Each document is judged with a grade of its own, so the grades of the ranked rows
spell out the ranking, which is compared with a plain Python sort.
"""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from irmeans.trec import join
from irmeans.trec.evaluate import evaluate
from irmeans.trec.files import Qrels, Run


def expected_ranking(topics, docnos, scores, evaluated):
    """Each evaluated topic's docnos in trec_eval's order, topics in strcmp order."""
    out = []
    for t in sorted(set(topics) & evaluated, key=lambda s: s.encode()):
        rows = [(s, d.encode()) for tt, d, s in zip(topics, docnos, scores) if tt == t]
        rows.sort(key=lambda r: (-r[0], [-b for b in r[1]] + [1]))  # docno descending as strcmp
        out.append((t, [d.decode() for _, d in rows]))
    return out


def ranking(topics, docnos, scores, judged_topics):
    """The ranking build_ranked makes, read back through grades that name the documents."""
    ids = {d: i + 1 for i, d in enumerate(sorted(set(docnos)))}
    names = {i: d for d, i in ids.items()}
    qt, qd, qg = [], [], []
    for t in judged_topics:
        for d in sorted({d for tt, d in zip(topics, docnos) if tt == t}):
            qt.append(t)
            qd.append(d)
            qg.append(ids[d])
    ranked = join.build_ranked(Qrels.from_arrays(qt, qd, qg), Run.from_arrays(topics, docnos, scores))
    out = []
    for k, t in enumerate(ranked.topics):
        rows = ranked.rel[ranked.seg == k]
        assert ranked.pos[ranked.seg == k].tolist() == list(range(len(rows)))
        out.append((t.decode(), [names[int(g)] for g in rows]))
    return out


@st.composite
def runs(draw):
    """A run with 1-8 topics of 1-300 rows, listed in blocks or interleaved, with heavy ties."""
    n_topics = draw(st.integers(1, 8))
    sizes = draw(st.lists(st.integers(1, 300), min_size=n_topics, max_size=n_topics))
    names = [f"{100 + k}" for k in range(n_topics)]
    rows = []
    for name, size in zip(names, sizes):
        scores = draw(st.lists(st.sampled_from([0.0, 0.5, 1.0, 2.5, -1.0]), min_size=size, max_size=size))
        rows += [(name, f"d{name}-{i % 97}-{i}", s) for i, s in enumerate(scores)]
    if draw(st.booleans()):  # topics interleaved: not one block each
        rows = draw(st.permutations(rows))
    judged = set(draw(st.lists(st.sampled_from(names), min_size=1, unique=True)))
    return [r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows], judged


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=runs(), block=st.sampled_from([1, 7, 64, 100, 256, 257, 1000]))
def test_any_run_is_ranked_as_trec_eval_ranks_it_whatever_the_ranges(monkeypatch, data, block):
    topics, docnos, scores, judged = data
    monkeypatch.setattr(join, "_ARROW_ROWS", 8)  # every run here goes to the range-by-range sort
    monkeypatch.setattr(join, "_BLOCK", block)
    assert ranking(topics, docnos, scores, judged) == expected_ranking(topics, docnos, scores, judged)


@pytest.mark.parametrize("n_topics", [25, 26])
def test_26_topics_of_10100_documents(n_topics):
    # the last topic's rows cross the multiple of join._BLOCK = 262,144 rows only with 26 topics
    assert join._BLOCK == 1 << 18 and (n_topics - 1) * 10100 < join._BLOCK * (n_topics // 26 + 1)
    docs = 10100
    topics = np.repeat([str(t + 1) for t in range(n_topics)], docs)
    docnos = np.tile([f"d{d}" for d in range(docs)], n_topics)
    scores = np.tile(np.arange(docs, 0, -1, dtype=float), n_topics)
    qrels = (
        np.repeat([str(t + 1) for t in range(n_topics)], 67),
        np.tile([f"d{d}" for d in range(0, 201, 3)], n_topics),
    )
    rels = np.ones(len(qrels[0]), dtype=int)
    ev = evaluate((*qrels, rels), (topics, docnos, scores), measures=["map", "P.10", "num_ret"])
    assert ev.topics == sorted(str(t + 1) for t in range(n_topics))
    assert ev.aggregates["num_ret"] == n_topics * docs
    # every topic ranks d0, d1, ... : relevant at ranks 1, 4, 7, ..., 199 (67 of them)
    assert ev.per_topic["P_10"].tolist() == [0.4] * n_topics
    expected_ap = sum((k + 1) / (3 * k + 1) for k in range(67)) / 67
    assert np.allclose(ev.per_topic["map"], expected_ap, rtol=0, atol=1e-15)


def test_one_topic_longer_than_a_range():
    # one topic of more rows than join._BLOCK, all tied: one range of the whole run
    n = join._BLOCK + 5
    docnos = [f"doc{i:07d}" for i in range(n)]
    ev = evaluate((["7"], [docnos[-1]], [1]), (["7"] * n, docnos, np.zeros(n)), measures=["recip_rank"])
    assert ev.per_topic["recip_rank"].tolist() == [1.0]  # the highest docno comes first on a tie
