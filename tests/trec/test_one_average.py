"""The evaluator's ``all`` lines are the library's averages: one formula, the same bits.

trec_eval's mean adds the topics' values one after the other; :class:`irmeans.averages.AM`
adds the same way, and ``evaluate()``'s means are ``AM``'s formula with C's arithmetic
(:meth:`~irmeans.averages.Average.unchecked`), so ``ev.aggregates["P_10"]`` and
``irmeans.arithmetic_mean(ev["P_10"])`` agree to the last bit, but where trec_eval's rounding
takes the mean a hair outside the values (three values of 0.1 have the mean
0.10000000000000002): the library's average is then held within them.  The extra lines of
``irmeans eval`` are ``evaluate()``'s rows, printed.
"""

import io
import sys

import irmeans
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from irmeans.averages import AM, GM, HM, TREC_EVAL_GM, Logit, Median
from irmeans.cli import main
from irmeans.trec.evaluate import evaluate
from irmeans.trec.summary import summarize
from irmeans.trec.table import BY_NAME, MEASURE_FAMILIES, Sum, parse_measures


def test_every_family_carries_its_average():
    averages = {f.name: f.average for f in MEASURE_FAMILIES}
    assert averages["map"] == AM() and averages["P"] == AM()
    assert averages["gm_map"] is TREC_EVAL_GM and averages["gm_bpref"] is TREC_EVAL_GM
    assert averages["num_ret"] == Sum() and averages["num_q"] == Sum()
    assert averages["relstring"] is None and averages["runid"] is None
    extra = {f.name: f.average for f in BY_NAME.values() if f.extra}
    assert {n: type(a) for n, a in extra.items()} == {
        "gm_map_add": GM,
        "hm_map": HM,
        "median_map": Median,
        "logit_map": Logit,
    }


def held(value, lifted):
    """``value`` held within the values an average averages."""
    return float(np.clip(value, np.min(lifted), np.max(lifted)))


@given(values=st.lists(st.floats(0, 1), min_size=1, max_size=250))
def test_the_evaluator_s_mean_is_the_library_s_to_the_bit(values):
    v = np.array(values)
    totals, _ = summarize({"P_10": v, "map": v, "gm_map": v}, parse_measures(["P.10", "map", "gm_map"]))
    assert totals["P_10"] == AM().unchecked(v) and totals["map"] == AM().unchecked(v)  # == on floats: every bit
    assert irmeans.arithmetic_mean(v) == AM()(v) == held(totals["map"], v)
    assert totals["gm_map"] == TREC_EVAL_GM.unchecked(v)
    assert TREC_EVAL_GM(v) == held(totals["gm_map"], np.maximum(v, 1e-5))


def test_where_trec_eval_s_mean_leaves_its_values_the_library_s_is_held_within_them():
    v = np.array([0.1, 0.1, 0.1])
    totals, _ = summarize({"map": v, "gm_map": np.zeros(1)}, parse_measures(["map"]))
    assert totals["map"] == 0.10000000000000002 == (0.1 + 0.1 + 0.1) / 3  # trec_eval's C arithmetic
    assert AM()(v) == 0.1 and TREC_EVAL_GM([0.0]) == 1e-5  # equal values give that value back


def test_many_random_vectors_of_250_topics_agree_to_the_bit():
    # the count: 821 of 1,000 such vectors differed when the two means were summed differently
    rng = np.random.default_rng(26)
    chosen = parse_measures(["P.10"])
    for _ in range(1000):
        v = rng.random(250)
        assert summarize({"P_10": v}, chosen)[0]["P_10"] == AM().unchecked(v)
        assert irmeans.arithmetic_mean(v) == held(AM().unchecked(v), v)


@pytest.fixture
def pair(tmp_path):
    rng = np.random.default_rng(3)
    q, r = tmp_path / "q.txt", tmp_path / "r.txt"
    q.write_text("".join(f"{t} 0 d{d} {int(rng.integers(0, 3))}\n" for t in range(1, 40) for d in range(30)))
    r.write_text("".join(f"{t} Q0 d{d} {d} {rng.random():.3f} run\n" for t in range(1, 40) for d in range(50)))
    return str(q), str(r)


def cli(argv, monkeypatch):
    out = io.BytesIO()
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(out, encoding="utf-8"))
    assert main(argv) == 0
    sys.stdout.flush()
    return {(n.strip(), t): v for n, t, v in (line.split("\t") for line in out.getvalue().decode().splitlines())}


@pytest.mark.parametrize("eps", [None, "0.1", "1e-5"])
def test_irmeans_eval_s_extra_lines_are_evaluate_s_rows(pair, monkeypatch, eps):
    flags = [] if eps is None else ["--eps", eps]
    printed = cli(["eval", "--digits", "17", *flags, *pair], monkeypatch)
    ev = evaluate(*pair, eps=0.01 if eps is None else float(eps))
    for name in ("gm_map_add", "hm_map", "median_map", "logit_map", "map", "gm_map", "P_10", "num_ret"):
        value = ev.aggregates[name]
        want = "%d" % value if isinstance(value, int) else "%6.17f" % value
        assert printed[name, "all"] == want, name
    ap = ev["map"]
    e = 0.01 if eps is None else float(eps)
    assert ev.aggregates["gm_map_add"] == GM(eps=e)(ap) and ev.aggregates["hm_map"] == HM(eps=e)(ap)
    assert ev.aggregates["median_map"] == Median()(ap) and ev.aggregates["logit_map"] == Logit(eps=e)(ap)


def test_an_undefined_extra_line_is_a_note_in_the_evaluation():
    # topic 2's relevant document is not retrieved: its AP is 0, and the HM of a zero with ε = 0 is undefined
    ev = evaluate((["1", "2"], ["a", "b"], [1, 1]), (["1", "2"], ["a", "c"], [1.0, 1.0]), measures=["hm_map"], eps=0)
    assert ev["hm_map"].tolist() == [1.0, 0.0]
    assert ev.aggregates == {} and "harmonic mean of a set with a zero" in ev.notes["hm_map"]
