"""Every public function and argument, given what a careless or hostile caller gives: huge whole numbers (10**400,
past Python's 4,300-digit limit on turning an int into text), a list nested 5,000 deep, a generator, Decimal
scores, a tuple of mixed types, words. Each either works (a generator read once, as its list) or raises
IrmeansError with one short line in the library's own words: never Python's OverflowError, TypeError,
RecursionError or ValueError of its own, and never a message that prints the whole input.
"""

import decimal
import fractions
import math
import sys

import irmeans
import numpy as np
import pytest
from irmeans import IrmeansError

RELS = [1, 0, 1, 0, 1]
S = [[0.1, 0.5, 0.3, 0.9], [0.4, 0.2, 0.6, 0.1], [0.7, 0.1, 0.2, 0.8]]
QRELS = {"1": {"a": 1, "b": 0}, "2": {"c": 1}}
RUN = {"1": {"a": 2.0, "b": 1.0}, "2": {"c": 1.0}}
DICT = {"A": {"1": 0.1, "2": 0.8, "3": 0.5}, "B": {"1": 0.4, "2": 0.3, "3": 0.6}}

# name: (function, positional arguments, keyword arguments) of a call that works
CALLS = {
    "GM": (irmeans.GM, [], {"eps": 0.01}),
    "HM": (irmeans.HM, [], {"eps": 0.01}),
    "Logit": (irmeans.Logit, [], {"eps": 0.01}),
    "parse_average": (irmeans.parse_average, ["gm:0.01"], {}),
    "difficulty_halves": (irmeans.difficulty_halves, [[0.3, 0.1, 0.2, 0.5]], {}),
    "draw_halves": (irmeans.draw_halves, [6, 3], {"rng": 1}),
    "halves_tau": (irmeans.halves_tau, [S, "am", [[0, 1]], [[2, 3]]], {"chunk_size": 4}),
    "kendall_tau": (irmeans.kendall_tau, [[0.1, 0.4, 0.3], [0.2, 0.5, 0.6]], {}),
    "make_halves": (irmeans.make_halves, [S, "random", 3, 1], {}),
    "split_half": (irmeans.split_half, [S, "am", 5, 1], {"chunk_size": 2}),
    "tau_intervals": (
        irmeans.tau_intervals,
        [S, ["am", "gm:0.01"], 5, 1],
        {"n_bootstrap": 2, "bootstrap_splits": 2, "level": 0.9},
    ),
    "standardize": (irmeans.standardize, [S], {"ddof": 1, "reference": S}),
    "topic_difficulty": (irmeans.topic_difficulty, [S], {}),
    "paired_t_test": (irmeans.paired_t_test, [[0.2, 0.4, 0.5], [0.1, 0.3, 0.5]], {}),
    "randomization_test": (
        irmeans.randomization_test,
        [[0.2, 0.4, 0.5], [0.1, 0.3, 0.5]],
        {"permutations": 10, "seed": 1},
    ),
    "sign_test": (irmeans.sign_test, [[0.2, 0.4, 0.5], [0.1, 0.3, 0.5]], {}),
    "holm": (irmeans.holm, [[0.01, 0.04, 0.03]], {}),
    "arithmetic_mean": (irmeans.arithmetic_mean, [[0.2, 0.4]], {"axis": 0}),
    "geometric_mean": (irmeans.geometric_mean, [[0.2, 0.4]], {"eps": 0.01, "axis": 0}),
    "harmonic_mean": (irmeans.harmonic_mean, [[0.2, 0.4]], {"eps": 0.01, "axis": 0}),
    "logit_mean": (irmeans.logit_mean, [[0.2, 0.4]], {"eps": 0.01, "axis": 0}),
    "median": (irmeans.median, [[0.2, 0.4]], {"axis": 0}),
    "ap_unretrieved_at_end": (irmeans.ap_unretrieved_at_end, [RELS, 4, 100], {"level": 1}),
    "average_precision": (irmeans.average_precision, [RELS, 4], {"level": 1}),
    "expected_ap_random_order": (irmeans.expected_ap_random_order, [RELS, 4, 100], {"level": 1}),
    "interpolated_precision": (irmeans.interpolated_precision, [RELS, 4, [0.0, 0.5, 1.0]], {"level": 1}),
    "ndcg": (irmeans.ndcg, [[2, 0, 1], [2, 1, 1]], {}),
    "expected_reciprocal_rank": (irmeans.expected_reciprocal_rank, [[2, 0, 1], 3], {"max_grade": 2}),
    "precision_at": (irmeans.precision_at, [RELS, 3], {"level": 1}),
    "precision_recall_points": (irmeans.precision_recall_points, [RELS, 4], {"level": 1}),
    "r_precision": (irmeans.r_precision, [RELS, 4], {"level": 1}),
    "recall_at": (irmeans.recall_at, [RELS, 3, 4], {"level": 1}),
    "reciprocal_rank": (irmeans.reciprocal_rank, [RELS], {"level": 1}),
    "evaluate": (
        irmeans.evaluate,
        [QRELS, RUN],
        {
            "relevance_level": 1,
            "depth": 10,
            "measures": ["map", "P.2"],
            "num_docs": 10,
            "eps": 0.01,
            "averages": ["gm:0.01"],
        },
    ),
    "evaluate_runs": (
        irmeans.evaluate_runs,
        [QRELS, {"r1": RUN, "r2": {"1": {"a": 1.0, "b": 2.0}, "2": {"c": 1.0}}}, "map"],
        {"depth": 10},
    ),
    "compare": (
        irmeans.compare,
        [DICT, ["am", "gm:0.01"]],
        {"permutations": 10, "bootstrap": 10, "confidence": 0.9, "alpha": 0.1, "seed": 1},
    ),
    "compare_measures": (
        irmeans.compare_measures,
        [[irmeans.ScoreMatrix.from_dict(DICT), irmeans.ScoreMatrix.from_dict(DICT, measure="P_10")]],
        {"permutations": 10, "bootstrap": 10},
    ),
}


def deep(depth=5000):
    x = [0.5]
    for _ in range(depth):
        x = [x]
    return x


HOSTILE = {
    "10**400": 10**400,
    "-10**400": -(10**400),
    "10**5000": 10**5000,  # str() of it raises ValueError: no message may show it whole
    "Fraction(10**400)": fractions.Fraction(10**400),
    "Decimal('1e400')": decimal.Decimal("1e400"),
    "deep list": deep(),
    "(1, 'a', 1)": (1, "a", 1),
    "words": "ten",
    "nan": math.nan,
}


def cases():
    for name, (_, args, kwargs) in CALLS.items():
        for where in [*range(len(args)), *kwargs]:
            for hostile in HOSTILE:
                yield pytest.param(name, where, hostile, id=f"{name}-{where}-{hostile}")


def call(name, where, value):
    function, args, kwargs = CALLS[name]
    args, kwargs = list(args), dict(kwargs)
    if isinstance(where, int):
        args[where] = value
    else:
        kwargs[where] = value
    return function(*args, **kwargs)


@pytest.mark.parametrize("name, where, hostile", list(cases()))
def test_every_argument_refuses_what_it_cannot_take_in_the_library_s_words(name, where, hostile):
    limit = sys.getrecursionlimit()
    try:
        call(name, where, HOSTILE[hostile])
    except IrmeansError as exc:
        message = str(exc)
        assert "\n" not in message and len(message) < 400, message
    assert sys.getrecursionlimit() == limit


def test_the_baseline_calls_work():
    for name in CALLS:
        call(name, 0, CALLS[name][1][0]) if CALLS[name][1] else CALLS[name][0](**CALLS[name][2])


def test_a_generator_is_read_once_wherever_an_iterable_is_taken():
    s = np.array(S)
    once = irmeans.tau_intervals(s, (a for a in ["am", "median"]), 20, 1, n_bootstrap=0)
    assert list(once.rows) == ["am", "median"]  # the AM's row was dropped: the generator was read twice
    assert irmeans.compare(DICT, (a for a in ["am", "gm:0.01"]), permutations=10, bootstrap=10).to_csv() == (
        irmeans.compare(DICT, ["am", "gm:0.01"], permutations=10, bootstrap=10).to_csv()
    )
    matrices = [irmeans.ScoreMatrix.from_dict(DICT, measure=m) for m in ("map", "P_10")]
    several = irmeans.compare_measures((m for m in matrices), permutations=10, bootstrap=10)
    assert several.measures == ("map", "P_10")
    ev = irmeans.evaluate(QRELS, RUN, measures=(m for m in ["map", "P.2"]), averages=(a for a in ["gm:0.01"]))
    assert list(ev.aggregates)[:2] == ["map", "P_2"] and "map/gm:0.01" in ev.aggregates
    columns = (iter(["1", "1", "2"]), iter(["a", "b", "c"]), iter([1, 0, 1]))
    assert (
        irmeans.evaluate(columns, RUN, measures="map").aggregates
        == irmeans.evaluate(QRELS, RUN, measures="map").aggregates
    )
    runs = irmeans.evaluate_runs(QRELS, (r for r in [RUN, {"1": {"b": 2.0}, "2": {"c": 1.0}}]), "map")
    assert runs.shape == (2, 2)


def test_decimal_scores_are_taken_as_the_numbers_they_are():
    from decimal import Decimal

    as_decimals = {s: {t: Decimal(repr(v)) for t, v in row.items()} for s, row in DICT.items()}
    assert (
        irmeans.compare(as_decimals, permutations=10, bootstrap=10).to_csv()
        == irmeans.compare(DICT, permutations=10, bootstrap=10).to_csv()
    )
    assert irmeans.arithmetic_mean([Decimal("0.1"), Decimal("0.3")]) == pytest.approx(0.2)
    run = {"1": {"a": Decimal("2"), "b": Decimal("1.5")}, "2": {"c": Decimal("1")}}
    qrels = {"1": {"a": Decimal("1"), "b": Decimal("0")}, "2": {"c": Decimal("1")}}
    assert (
        irmeans.evaluate(qrels, run, measures="map").aggregates
        == irmeans.evaluate(QRELS, {"1": {"a": 2.0, "b": 1.5}, "2": {"c": 1.0}}, measures="map").aggregates
    )
    with pytest.raises(IrmeansError, match=r"relevance Decimal\('1.5'\) is not an integer"):
        irmeans.evaluate({"1": {"a": Decimal("1.5")}}, run, measures="map")
    with pytest.raises(IrmeansError, match=r"Decimal\('NaN'\)"):
        irmeans.arithmetic_mean([Decimal("NaN"), 1])


def test_a_frame_with_a_column_twice_is_refused_naming_it():
    pd = pytest.importorskip("pandas")  # the optional extra
    run = pd.DataFrame({"query_id": ["1", "1"], "doc_id": ["a", "b"], "score": [2.0, 1.0]})
    twice = pd.concat([run, run[["score"]]], axis=1)
    with pytest.raises(IrmeansError, match=r"run: the DataFrame has 2 columns named 'score' \(as pd.concat makes"):
        irmeans.evaluate(QRELS, twice)
    scores = pd.DataFrame({"1": [0.1, 0.2], "2": [0.3, 0.4]}, index=["A", "B"])
    with pytest.raises(IrmeansError, match="has 2 columns named '2'"):
        irmeans.compare(pd.concat([scores, scores[["2"]]], axis=1))


def test_one_row_given_as_the_columns_is_refused_with_what_to_give():
    with pytest.raises(IrmeansError, match=r"got \(1, 'a', 1\): for one row give \(\[1\], \['a'\], \[1\]\)"):
        irmeans.evaluate((1, "a", 1), RUN)


def test_a_list_nested_5000_deep_is_refused_without_recursion():
    for function in (irmeans.arithmetic_mean, irmeans.geometric_mean, irmeans.median, irmeans.standardize):
        with pytest.raises(IrmeansError, match=r"nested at most 64 deep .*got \[\[\[\[\.\.\.\]\]\]\]"):
            function(deep())
