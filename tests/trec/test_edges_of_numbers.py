"""The evaluator at the edges of numbers: -m parameters and grades of thousands of digits, gains near the largest
and smallest doubles, cutoffs beyond 64 bits. Each gives a value or one line in irmeans' words: never Python's
4,300-digit ValueError, never nan, never numpy's own warning ("invalid value encountered in cast").
"""

import math
import warnings

import pytest
from irmeans import IrmeansError
from irmeans.cli import main
from irmeans.trec.evaluate import evaluate
from irmeans.trec.table import MEASURE_FAMILIES

QRELS = "401 0 d1 2\n401 0 d2 1\n401 0 d3 0\n401 0 d4 1\n402 0 d5 1\n402 0 d6 2\n"
RUN = "".join(
    f"{t} Q0 d{d} {r} {10 - r} run\n"
    for t, docs in ((401, (3, 1, 9, 2)), (402, (6, 7, 5)))
    for r, d in enumerate(docs, 1)
)
NINES = "9" * 5000


@pytest.fixture
def files(tmp_path):
    q, r = tmp_path / "q.txt", tmp_path / "r.txt"
    q.write_text(QRELS)
    r.write_text(RUN)
    return str(q), str(r)


def quiet(qrels, run, measure):
    """The evaluation of one -m, with every warning an error: its 'all' values."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return evaluate(qrels, run, measures=[measure]).aggregates


@pytest.mark.parametrize(
    "measure",
    [f"P.{NINES}", f"success.{NINES}", f"unj.{NINES}", f"ndcg.{NINES}=1", f"rbp.p=0.5,{NINES}=2", f"G.{NINES}=1",
     f"ndcg_cut.{NINES}", f"Rprec_mult.{NINES}", f"set_F.{NINES}", f"P.-{NINES}", f"ndcg.-{NINES}=1"],
)  # fmt: skip
def test_a_parameter_of_thousands_of_digits_is_read_as_trec_eval_reads_it_or_refused(files, measure):
    try:
        values = quiet(*files, measure)
    except IrmeansError as exc:
        assert "\n" not in str(exc)
        return
    assert values and not any(isinstance(v, float) and math.isnan(v) for v in values.values())


def test_a_cutoff_of_thousands_of_digits_is_trec_eval_s_longest(files):
    # atol saturates at LONG_MAX: trec_eval's P_9223372036854775807
    assert quiet(*files, f"P.{NINES}") == {"P_9223372036854775807": 4 / (2 * (2**63 - 1))}


@pytest.mark.parametrize("grade", [NINES, NINES + ".0", "-" + NINES])
def test_a_grade_of_thousands_of_digits_is_refused_with_its_line(tmp_path, files, grade):
    q = tmp_path / "big.txt"
    q.write_text(f"401 0 d1 {grade}\n401 0 d2 1\n")
    with pytest.raises(IrmeansError, match=r"big.txt:1: relevance '-?9{20,}\.\.\.' is out of range"):
        evaluate(str(q), files[1], measures=["map"])
    with pytest.raises(IrmeansError, match="out of range") as caught:
        evaluate({"401": {"d1": (-1 if grade[0] == "-" else 1) * (10**5000 - 1)}}, files[1], measures=["map"])
    assert len(str(caught.value)) < 300


@pytest.mark.parametrize("family", ["ndcg", "ndcg_rel", "Rndcg"])
@pytest.mark.parametrize("gain", [1e308, 1.7976931348623157e308, 1e200, 1e-300])
def test_equal_gains_near_the_edges_of_doubles_give_the_binary_ndcg(files, family, gain):
    # nDCG is a ratio: any common factor of the gains leaves it as it is, so equal gains are binary relevance
    # (trec_eval's sums overflow to inf, and it prints 0 for the ratio inf / inf)
    # (below 1, trec_eval's sort of the gains, which truncates their differences, holds them equal to grade 0's
    # 0, and orders the ideal ranking otherwise: as for gains of 0.5)
    same = quiet(*files, f"{family}.1=1,2=1" if gain >= 1 else f"{family}.1=0.5,2=0.5")
    huge = quiet(*files, f"{family}.1={gain!r},2={gain!r}")
    assert list(huge.values()) == pytest.approx(list(same.values()), rel=1e-12, nan_ok=True)


def test_unequal_huge_gains_give_the_ndcg_of_their_ratios(files):
    assert quiet(*files, "ndcg.1=1e306,2=1e308") == pytest.approx(
        {"ndcg_1=1e306,2=1e308": quiet(*files, "ndcg.1=1,2=100")["ndcg_1=1,2=100"]}, rel=1e-12
    )


@pytest.mark.parametrize("mult", ["1e19", "-1e19", "1e300", "1.7976931348623157e308"])
def test_an_r_multiple_beyond_64_bits_casts_nothing_out_of_range(files, mult):
    values = quiet(*files, f"Rprec_mult.{mult}")  # numpy's "invalid value encountered in cast" was a warning
    assert 0 <= list(values.values())[0] < 1e-12  # a cutoff past every ranking, or before the first document


@pytest.mark.parametrize("family", [f.name for f in MEASURE_FAMILIES if f.form in ("doubles", "cut_double", "pairs")])
@pytest.mark.parametrize("value", ["1e308", "-1e308", "1e-308", "4.9e-324", "1e19", "-1e19"])
def test_every_parameter_at_the_edges_of_doubles_gives_no_warning_and_no_nan(files, family, value):
    spec = {
        "rbp": f"rbp.p=0.5,1={value}",
        "rbp_resid": f"rbp_resid.p=0.5,1={value}",
        "utility": f"utility.{value},-1,0,0",
    }.get(family, f"{family}.{value}" if family not in ("ndcg", "ndcg_rel", "Rndcg", "G", "binG", "dcg") else None)
    spec = spec or f"{family}.1={value},2={value}"
    try:
        values = quiet(*files, spec)
    except IrmeansError:
        return  # refused in one line: a parameter out of the family's range
    nan = [isinstance(v, float) and math.isnan(v) for v in values.values()]
    if family == "G" and abs(float(value)) > 1e300:
        return  # G's discount is log2 of (ideal cost - gain) summed: inf - inf, in trec_eval's C as here
    if any(nan):  # only where trec_eval's arithmetic gives NaN for ordinary values of that sign too
        ordinary = spec.replace(value, "-0.5" if value.startswith("-") else "0.5")
        assert [isinstance(v, float) and math.isnan(v) for v in quiet(*files, ordinary).values()] == nan, values


def test_the_command_line_prints_no_nan_and_no_numpy_warning(files, capsys):
    binary = quiet(*files, "ndcg.1=1,2=1")["ndcg_1=1,2=1"]
    status = main(["eval", "-m", "ndcg.1=1e308,2=1e308", "-m", "Rprec_mult.1e19", *files])
    out, err = capsys.readouterr()
    assert status == 0 and err == ""
    values = {line.split("\t")[0].strip(): line.split("\t")[2] for line in out.splitlines()}
    assert values == {"Rprec_mult_10000000000000000000.00": "0.0000", "ndcg_1=1e308,2=1e308": "%.4f" % binary}


@pytest.mark.parametrize("command", [["compare", "-n", "20", "-b", "20"], ["consistency", "-n", "20"]])
def test_a_seed_of_thousands_of_digits_is_refused_not_read_as_another(command, capsys):
    # any seed of at most 1,000 digits is its own; a longer one would have read as 10**1000, like every other
    status = main([*command, "--seed", NINES, "--dataset", "adhoc8:ap"])
    out, err = capsys.readouterr()
    assert (status, out) == (2, "") and "a seed of more than 1,000 digits is more than irmeans reads" in err
    assert (
        main(
            [
                *command,
                "--seed",
                "9" * 1000,
                "--dataset",
                "adhoc8:ap",
                "--format" if command[0] == "compare" else "--digits",
                "csv" if command[0] == "compare" else "3",
            ]
        )
        == 0
    )
