"""Hand-worked examples for the vectorised evaluator."""

import math
import warnings

import numpy as np
import pytest
from irmeans.trec.evaluate import evaluate
from irmeans.trec.table import MEASURE_FAMILIES, parse_measures

# Topic 1: relevant a, c; judged non-relevant b, e; d is not judged.
# Topic 2: only non-relevant judgments.  Topic 3: judged but never retrieved.
QRELS = (["1", "1", "1", "1", "2", "3"], ["a", "b", "c", "e", "x", "z"], [1, 0, 2, 0, 0, 1])
# Scores tie for b and c in topic 1: docno descending puts c before b.
RUN = (
    ["1", "1", "1", "1", "2", "2", "9"],
    ["a", "b", "c", "d", "x", "y", "q"],
    [3.0, 2.0, 2.0, 1.0, 5.0, 4.0, 1.0],
    "handmade",
)


def chosen(specs):
    """The measures ``specs`` choose, by family name."""
    return {c.family.name: c for c in parse_measures(specs)}


def ev(**kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return evaluate(QRELS, RUN, **kw)


def test_ties_broken_by_docno_descending():
    e = ev(measures=["map", "P.1,2,3", "recip_rank", "relstring"])
    # ranking of topic 1: a (rel), c (rel), b, d
    assert e.topics == ["1", "2"]
    assert e["P_2"].tolist() == [1.0, 0.0]
    assert e["map"][0] == pytest.approx((1 / 1 + 2 / 2) / 2)
    assert e["relstring"][0] == "'120-'"
    assert e["recip_rank"].tolist() == [1.0, 0.0]


def test_topic_without_relevant_documents_counts_as_zero():
    e = ev(measures=["map", "num_rel", "gm_map", "num_q"])
    assert e["map"].tolist() == [1.0, 0.0]
    assert e.aggregates["map"] == 0.5
    assert e.aggregates["num_q"] == 2
    assert e.aggregates["num_rel"] == 2
    # gm_map floors AP at 1e-5
    assert e.aggregates["gm_map"] == pytest.approx(math.sqrt(1.0 * 1e-5))


def test_missing_topic_warns_and_is_left_out():
    with pytest.warns(UserWarning, match=r"1 topic in .* is left out \(complete=True counts them .*\): 3$"):
        e = evaluate(QRELS, RUN, measures=["map"])
    assert e.topics == ["1", "2"] and e.missing == ["3"]


def test_complete_counts_missing_topics_as_empty_rankings():
    e = evaluate(QRELS, RUN, complete=True, measures=["map", "num_ret", "num_rel", "P.5"])
    assert e.topics == ["1", "2", "3"]
    assert e["num_ret"].tolist() == [4, 2, 0]
    assert e["num_rel"].tolist() == [2, 0, 1]
    assert e.aggregates["map"] == pytest.approx(1.0 / 3)
    assert e.aggregates["P_5"] == pytest.approx((2 / 5) / 3)


def test_depth_cuts_after_sorting():
    e = ev(depth=1, measures=["map", "num_ret", "Rprec"])
    assert e["num_ret"].tolist() == [1, 1]
    assert e["map"][0] == pytest.approx(0.5)  # only a is kept
    assert e["Rprec"][0] == pytest.approx(0.5)


def test_relevance_level():
    e = ev(relevance_level=2, measures=["map", "num_rel", "bpref", "ndcg"])
    # only c (grade 2) is relevant; it is at rank 2
    assert e["num_rel"].tolist() == [1, 0]
    assert e["map"][0] == pytest.approx(0.5)
    # bpref: c has one judged non-relevant doc (a, grade 1 < 2) above it;
    # min(1, R=1) / min(num_nonrel=3, R=1) = 1 -> contribution 0
    assert e["bpref"][0] == 0.0
    # ndcg ignores -l: gains a=1, c=2 at ranks 1, 2; ideal c then a
    dcg = 1 + 2 / math.log2(3)
    idcg = 2 + 1 / math.log2(3)
    assert e["ndcg"][0] == pytest.approx(dcg / idcg)


def test_bpref_and_set_measures_by_hand():
    e = ev(
        measures=[
            "bpref",
            "set_P",
            "set_recall",
            "set_F",
            "num_nonrel_judged_ret",
            "iprec_at_recall",
            "success.1",
            "recall.1",
        ]
    )
    # topic 1: a, c both relevant with no judged non-relevant above them
    assert e["bpref"][0] == 1.0
    assert e["set_P"][0] == 0.5 and e["set_recall"][0] == 1.0
    assert e["set_F"][0] == pytest.approx(2 * 0.5 * 1.0 / 1.5)
    assert e["num_nonrel_judged_ret"].tolist() == [1, 1]
    assert e["iprec_at_recall_1.00"][0] == 1.0
    assert e["success_1"].tolist() == [1.0, 0.0]
    assert e["recall_1"][0] == 0.5


def test_unjudged_negative_grade_is_not_relevant():
    qrels = (["1", "1", "1"], ["a", "b", "c"], [-1, 1, 0])
    run = (["1", "1", "1"], ["a", "b", "c"], [3.0, 2.0, 1.0])
    e = evaluate(qrels, run, measures=["map", "num_rel", "relstring", "infAP", "unj.5"])
    assert e["num_rel"].tolist() == [1]
    assert e["map"][0] == 0.5
    assert e["relstring"][0] == "'.10'"
    assert e["unj_5"][0] == pytest.approx(1 / 5)


def test_run_topics_absent_from_qrels_are_ignored():
    e = ev(measures=["num_ret"])
    assert "9" not in e.topics
    assert e.aggregates["num_ret"] == 6


def test_to_frame_and_aggregates_order():
    e = ev(measures=["official"])
    assert not hasattr(e, "to_pandas")  # one public name for the frame
    assert list(e.aggregates)[:3] == ["runid", "num_q", "num_ret"]
    assert e.aggregates["runid"] == "handmade"
    try:
        import pandas  # noqa: F401  (an optional dependency: the standalone install has none)
    except ImportError:
        with pytest.raises(ImportError, match=r"irmeans\[pandas\]"):
            e.to_frame()
        return
    frame = e.to_frame()
    assert list(frame.index) == ["1", "2"]
    np.testing.assert_array_equal(frame["map"].to_numpy(), e["map"])


def test_parse_measures():
    assert chosen(["P.10,5"])["P"].params == (5, 10)
    assert list(chosen(["set"]))[-1] == "set_F"
    with pytest.raises(ValueError, match="unknown measure 'nope'"):
        parse_measures(["nope"])
    assert chosen(["map.3"])["map"].params is None  # trec_eval ignores parameters of map
    with pytest.raises(ValueError, match="positive"):
        parse_measures(["P.0"])


def test_one_irmeans_eval_reads_its_measures_once(tmp_path, monkeypatch, capsys):
    import irmeans.cli.eval_command as cli
    import irmeans.trec.evaluate as evaluation
    from irmeans.cli import main
    from irmeans.trec import table

    read, real = [], table.parse_measures

    def counted(*args, **kwargs):
        read.append(args[0])
        return real(*args, **kwargs)

    for module in (cli, evaluation, table):  # wherever it is looked up
        monkeypatch.setattr(module, "parse_measures", counted, raising=False)
    (tmp_path / "q").write_text("1 0 a 1\n")
    (tmp_path / "r").write_text("1 Q0 a 1 1 t\n")
    assert main(["eval", "-m", "map", "-m", "P.5", "-a", "gm:0.01", str(tmp_path / "q"), str(tmp_path / "r")]) == 0
    assert read == [["map", "P.5"]]
    assert "map/gm:0.01" in capsys.readouterr().out


def test_measures_read_already_keep_their_own_extra_lines_eps_and_averages():
    run = (["1"], ["a"], [1.0])
    chosen = parse_measures(["map", "hm_map"], eps=0.1)
    assert evaluate((["1"], ["a"], [1]), run, measures=chosen).aggregates["hm_map"] == 1.0
    for options in ({"extra": True}, {"eps": 0.5}, {"averages": ["median"]}):
        with pytest.raises(ValueError, match="measures given as a Selection have their own extra lines"):
            evaluate((["1"], ["a"], [1]), run, measures=chosen, **options)


def test_bad_depth_and_no_overlap():
    with pytest.raises(ValueError, match="depth must be a whole number >= 0"):
        ev(depth=-1)
    with pytest.raises(ValueError, match="no topic of the run"):
        evaluate((["7"], ["a"], [1]), (["8"], ["a"], [1.0]))


# --- Fast paths of the join give what plain sorting and lookup give ---

import irmeans.trec.join as eval_join  # noqa: E402
import irmeans.trec.strings as trec_strings  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st
from irmeans.trec.files import Qrels, Run  # noqa: E402
from irmeans.trec.run_blocks import InMemory  # noqa: E402
from irmeans.trec.strings import Strings, order_descending  # noqa: E402


def tie_heavy(seed, n_topics=25, docs=60, prefix="", suffix=""):
    rng = np.random.default_rng(seed)
    topics, docnos, scores, qt, qd, qr = [], [], [], [], [], []
    for t in range(n_topics):
        qid = str(t + 1)  # "1", "2", ..., "10": file order is not strcmp order
        ids = rng.choice(10**6, docs, replace=False)
        for d in ids:
            topics.append(qid)
            docnos.append(f"{prefix}{d:07d}{suffix}")
            scores.append(float(rng.integers(0, 8)) / 4)
            if rng.random() < 0.5:
                qt.append(qid)
                qd.append(docnos[-1])
                qr.append(int(rng.integers(-1, 3)))
    return (qt, qd, qr), (topics, docnos, scores)


def plain_ranking(run):
    """(topic, docno) in trec_eval's order: topic, score descending, docno descending."""
    topics, docnos, scores = run
    rows = sorted(zip(topics, scores, docnos), key=lambda r: (r[0].encode(), -r[1]))
    out, i = [], 0
    while i < len(rows):
        j = i
        while j < len(rows) and rows[j][:2] == rows[i][:2]:
            j += 1
        out.extend(sorted(rows[i:j], key=lambda r: r[2].encode(), reverse=True))
        i = j
    return [(t, d) for t, _, d in out]


@pytest.mark.parametrize("prefix, suffix", [("", ""), ("clueweb09-en0000-", ""), ("x", "-a-rather-long-common-tail")])
def test_ranking_breaks_ties_by_docno_descending(prefix, suffix):
    _, run = tie_heavy(1, prefix=prefix, suffix=suffix)
    # every document judged with its own grade, so the grades spell the ranking
    grade = {d: i for i, d in enumerate(sorted(set(run[1])))}
    qrels = (run[0], run[1], [grade[d] for d in run[1]])
    r = eval_join.build_ranked(Qrels.from_arrays(*qrels), InMemory(Run.from_arrays(*run)))
    got = list(zip([t.decode() for t in r.topics[r.seg]], r.rel.tolist()))
    assert got == [(t, grade[d]) for t, d in plain_ranking(run)]


@settings(max_examples=60)
@given(
    st.lists(
        st.tuples(st.integers(0, 40), st.binary(min_size=1, max_size=20).filter(lambda b: b"\0" not in b)),
        min_size=1,
        max_size=200,
    )
)
def test_group_sort_orders_docnos_descending_within_groups(items):
    items = sorted(set(items), key=lambda x: x[0])
    group = np.array([g for g, _ in items], dtype=np.int64)
    docnos = [d for _, d in items]
    s = Strings.from_sequence(docnos)
    sub = order_descending(s.data, s.starts, s.lengths, group)
    got = [(int(group[i]), docnos[i]) for i in sub]
    want = sorted(((int(g), d) for g, d in zip(group, docnos)), key=lambda x: (x[0], [-c for c in x[1]] + [1]))
    assert got == want


def per_topic(e, names=("map", "P_5", "ndcg", "recip_rank", "Rprec", "num_rel_ret", "relstring")):
    return {n: e[n].tolist() for n in names}


def test_shuffled_run_and_qrels_give_the_same_values():
    qrels, run = tie_heavy(2)
    base = evaluate(qrels, run, measures=["map", "P.5", "ndcg", "recip_rank", "Rprec", "num_rel_ret", "relstring"])
    rng = np.random.default_rng(0)
    pr, pq = rng.permutation(len(run[0])), rng.permutation(len(qrels[0]))
    shuffled = evaluate(
        tuple(np.asarray(c)[pq] for c in qrels),
        tuple(np.asarray(c)[pr] for c in run),
        measures=["map", "P.5", "ndcg", "recip_rank", "Rprec", "num_rel_ret", "relstring"],
    )
    assert per_topic(shuffled) == per_topic(base)


def test_hash_collisions_fall_back_to_string_comparison(monkeypatch):
    qrels, run = tie_heavy(3)
    measures = ["map", "P.5", "ndcg", "recip_rank", "Rprec", "num_rel_ret", "relstring"]
    base = evaluate(qrels, run, measures=measures, depth=40)
    # a hash with only a few distinct values: every kind of collision happens
    strong = trec_strings.hash_strings
    monkeypatch.setattr(trec_strings, "hash_strings", lambda *args: (strong(*args) & np.uint64(3)) << np.uint64(62))
    calls = []
    exact = eval_join.QrelsIndex._find_bytes
    monkeypatch.setattr(eval_join.QrelsIndex, "_find_bytes", lambda *a: calls.append(1) or exact(*a))
    assert per_topic(evaluate(qrels, run, measures=measures, depth=40)) == per_topic(base)
    assert calls  # the qrels' keys collide: the lookup went by the bytes


def test_every_kernel_is_listed_documented_and_has_one_contract():
    import inspect

    from irmeans.cli import eval_command as cli
    from irmeans.trec import kernels

    public = {
        n
        for n, f in vars(kernels).items()
        if inspect.isfunction(f) and f.__module__ == kernels.__name__ and not n.startswith("_")
    }
    assert public <= set(kernels.__all__)
    assert all(n.startswith("calc_") for n in public)
    for name in public:
        assert inspect.getdoc(getattr(kernels, name)), name
        assert list(inspect.signature(getattr(kernels, name)).parameters) == ["c", "params"], name
    for fam in MEASURE_FAMILIES:
        if fam.kernel is not None:
            assert fam.name in fam.kernel.__doc__, fam.name  # the trec_eval measure it computes
            assert fam.kernel.__module__ == kernels.__name__
    assert inspect.getdoc(cli.add_parser) and inspect.getdoc(cli.run_eval)


@pytest.mark.parametrize(
    "spec, lines", [("P.5 ", ["P_5"]), ("P.5, 10", ["P_5", "P_10"]), ("ndcg.1=0, 2= 5", ["ndcg_1=0, 2= 5"])]
)
def test_blanks_around_a_measure_s_parameters_are_read_as_trec_eval_reads_them(spec, lines):
    ev = evaluate((["1"], ["a"], [1]), (["1"], ["a"], [1.0]), measures=[spec])
    assert list(ev.aggregates) == lines


@pytest.mark.parametrize("measures", [5, [5], ["map", None]])
def test_measures_that_are_not_measure_names_are_one_clear_error(measures):
    from irmeans.errors import IrmeansError

    with pytest.raises(IrmeansError, match="measures must be a trec_eval measure such as 'map'"):
        evaluate((["1"], ["a"], [1]), (["1"], ["a"], [1.0]), measures=measures)
