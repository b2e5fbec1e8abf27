"""Long numbers (a run printed with ``%.40f``, a long run of digits) are read as trec_eval reads them.

trec_eval reads a score with ``atof`` (C's ``strtod``: the correctly rounded double, whatever
the number of digits) and a grade with ``atol``. Both readers (the exact one and pyarrow's) must
give the same, in a piece where every number is long as well as among short ones.
"""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from irmeans.trec import files
from irmeans.trec.evaluate import evaluate
from irmeans.trec.files import read_qrels, read_run

QRELS = "1 0 a 1\n1 0 b 0\n"


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize(
    "score",
    [
        "%.40f" % 0.5,
        "%.60f" % (1 / 3),
        "1" * 45,
        "0." + "3" * 400,
        "-" + "9" * 41 + ".5e-30",
        "9007199254740993" + "0" * 30,  # halfway between two doubles, then zeros: rounds to even
        "9007199254740993." + "0" * 40 + "1",  # just above halfway: rounds up
        "2.4703282292062327" + "0" * 30 + "e-324",  # just below half the smallest subnormal: 0
    ],
)
def test_a_one_line_run_of_a_long_score_is_read_as_strtod_reads_it(tmp_path, reader, score):
    run = read_run(_write(tmp_path, "r.txt", f"1 Q0 a 1 {score} tag\n"))
    assert run.scores.tolist() == [float(score)]
    assert math.copysign(1, run.scores[0]) == math.copysign(1, float(score))


def test_long_scores_rank_as_their_values(tmp_path, reader):
    # b's long score is the larger one: b ranks first, a second (AP of a at rank 2 is 0.5)
    text = "1 Q0 a 1 %.40f tag\n1 Q0 b 2 %s tag\n" % (0.25, "0." + "5" * 60)
    ev = evaluate(_write(tmp_path, "q.txt", QRELS), _write(tmp_path, "r.txt", text), measures=["map", "relstring"])
    assert ev["relstring"].tolist() == ["'01'"] and ev["map"].tolist() == [0.5]


@pytest.mark.parametrize("grade, value", [("1." + "0" * 45, 1), ("0" * 50 + "2", 2), ("-" + "0" * 60 + "1", -1)])
def test_a_long_grade_is_read_as_atol_reads_it(tmp_path, reader, grade, value):
    qrels = read_qrels(_write(tmp_path, "q.txt", f"1 0 a {grade}\n"))
    assert qrels.rels.tolist() == [value]


def test_a_long_grade_that_is_not_whole_is_refused_with_its_line(tmp_path, reader):
    with pytest.raises(ValueError, match=r"q\.txt:2: relevance '1\.0+5' is not an integer"):
        read_qrels(_write(tmp_path, "q.txt", "1 0 a 1\n1 0 b 1." + "0" * 45 + "5\n"))


_digits = st.text("0123456789", min_size=1, max_size=120)


@st.composite
def long_decimals(draw):
    whole, fraction = draw(_digits), draw(st.one_of(st.just(""), _digits))
    text = whole + ("." + fraction if fraction or draw(st.booleans()) else "")
    if draw(st.booleans()):
        text += "e" + str(draw(st.integers(-400, 400)))
    return draw(st.sampled_from(["", "-", "+"])) + text


@settings(max_examples=60)
@given(scores=st.lists(st.one_of(long_decimals(), st.floats(-1e6, 1e6).map(lambda x: "%.40f" % x)), min_size=1))
def test_any_mix_of_long_and_short_scores_reads_as_python_float(tmp_path_factory, scores):
    # Python's float() is correctly rounded, as C's strtod is: the two read every decimal alike
    tmp_path = tmp_path_factory.mktemp("long")
    text = "".join(f"1 Q0 d{i} {i} {s} tag\n" for i, s in enumerate(scores))
    path = _write(tmp_path, "r.txt", text)
    for threshold in (0, 1 << 62):  # pyarrow's reader, then the exact one
        with pytest.MonkeyPatch.context() as m:
            m.setattr(files, "ARROW_BYTES", threshold)
            assert read_run(path).scores.tolist() == [float(s) for s in scores]


@pytest.mark.parametrize("short", ["0.5", "2", "1e-3"])
def test_one_long_score_among_short_ones_that_read_plainly(tmp_path, reader, short):
    long = "%.40f" % 0.25
    run = read_run(_write(tmp_path, "r.txt", f"1 Q0 a 1 {short} tag\n1 Q0 b 2 {long} tag\n"))
    assert run.scores.tolist() == [float(short), 0.25]


def test_a_score_beyond_a_double_is_inf_without_a_numpy_warning(tmp_path, reader):
    import warnings

    path = _write(tmp_path, "r.txt", "1 Q0 a 1 1e400 tag\n1 Q0 b 2 -1" + "0" * 400 + " tag\n1 Q0 c 3 0.5 tag\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert read_run(path).scores.tolist() == [float("inf"), float("-inf"), 0.5]


@st.composite
def doubles_in_full(draw):
    """Decimals of 16 to 19 digits, as a double written in full has, many of them a hair from the halfway
    point between two doubles (where a reading rounded twice would go wrong)."""
    from decimal import Decimal

    x = draw(st.floats(1e-6, 1e9, allow_nan=False))
    if draw(st.booleans()):
        return repr(x)
    halfway = (Decimal(x) + Decimal(math.nextafter(x, math.inf))) / 2
    digits = draw(st.integers(16, 19))
    text = f"{halfway:.{digits}g}"
    return text if "e" not in text else repr(x)


@given(scores=st.lists(doubles_in_full(), min_size=1, max_size=50), sign=st.sampled_from(["", "-"]))
def test_decimals_of_16_to_19_digits_read_as_python_float(tmp_path_factory, scores, sign):
    path = _write(
        tmp_path_factory.mktemp("full"), "r.txt", "".join(f"1 Q0 d{i} {i} {sign}{s} t\n" for i, s in enumerate(scores))
    )
    with pytest.MonkeyPatch.context() as m:
        m.setattr(files, "ARROW_BYTES", 1 << 62)
        assert read_run(path).scores.tolist() == [float(sign + s) for s in scores]
