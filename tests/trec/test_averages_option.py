"""``irmeans eval -a SPEC`` and ``evaluate(..., averages=...)``: every measure printed per topic averaged another way;
and ``evaluate()`` on pandas DataFrames and dicts of dicts, the forms ir_measures, pytrec_eval and ranx take."""

import io
import pathlib
import subprocess
import sys

import numpy as np
import pytest
from irmeans.averages import GM, HM, Logit, Median, parse_average
from irmeans.cli import main
from irmeans.trec.evaluate import evaluate
from irmeans.trec.table import BY_NAME

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples"
QRELS, RUN = str(EXAMPLES / "qrels.txt"), str(EXAMPLES / "runs" / "feedback.txt")


def cli(argv, monkeypatch):
    out, err = io.BytesIO(), io.StringIO()
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(out, encoding="utf-8"))
    monkeypatch.setattr(sys, "stderr", err)
    status = main(argv)
    sys.stdout.flush()
    return status, out.getvalue().decode(), err.getvalue()


def test_every_measure_printed_per_topic_gets_a_line_for_each_average(monkeypatch):
    status, out, _ = cli(
        ["eval", "-m", "map", "-m", "ndcg_cut.10", "-a", "gm:0.01", "-a", "median", QRELS, RUN], monkeypatch
    )
    assert status == 0
    names = [line.split("\t")[0].strip() for line in out.splitlines()]
    assert names == ["map", "ndcg_cut_10", "map/gm:0.01", "map/median", "ndcg_cut_10/gm:0.01", "ndcg_cut_10/median"]
    ev = evaluate(QRELS, RUN, measures=["map", "ndcg_cut.10"])
    values = {line.split("\t")[0].strip(): line.split("\t")[2] for line in out.splitlines()}
    assert values["ndcg_cut_10/gm:0.01"] == "%6.4f" % GM(eps=0.01)(ev["ndcg_cut_10"])
    assert values["map/median"] == "%6.4f" % Median()(ev["map"])


def test_without_a_the_output_is_unchanged(monkeypatch):
    _, plain, _ = cli(["eval", "-q", QRELS, RUN], monkeypatch)
    _, again, _ = cli(["eval", "-q", "-a", "am", QRELS, RUN], monkeypatch)
    added = again[len(plain) :].splitlines()
    assert again.startswith(plain) and added and all(line.split("\t")[0].strip().endswith("/am") for line in added)


def test_a_am_lines_equal_trec_eval_s_own_mean_lines_for_every_measure():
    ev = evaluate(QRELS, RUN, measures=["all_trec"], averages=["am"])
    means = [n for n in ev.printed if n in ev.aggregates and ev.kinds[n] == "double"]
    assert len(means) > 80
    for name in means:
        assert ev.aggregates[f"{name}/am"] == ev.aggregates[name], name  # to the bit
    assert ev.aggregates["num_ret/am"] == ev.aggregates["num_ret"] / len(ev.topics)


def test_the_same_from_python_and_an_average_given_as_a_value():
    ev = evaluate(QRELS, RUN, measures=["P.5"], averages=[HM(eps=0.01), "logit:0.01"])
    assert ev.aggregates["P_5/hm:0.01"] == HM(eps=0.01)(ev["P_5"])
    assert ev.aggregates["P_5/logit:0.01"] == Logit(eps=0.01)(ev["P_5"])
    assert ev.kinds["P_5/hm:0.01"] == "double"


def test_an_average_that_cannot_take_the_values_is_a_note(monkeypatch):
    status, out, err = cli(["eval", "-m", "num_ret", "-m", "map", "-a", "logit:0.01", QRELS, RUN], monkeypatch)
    assert status == 0 and "num_ret/logit" not in out and "map/logit:0.01" in out
    assert "irmeans eval: note: num_ret/logit:0.01 line left out, undefined: " in err and "[0, 1]" in err


@pytest.mark.parametrize("spec, message", [("bogus", "unknown average 'bogus'"), ("median:0.1", "takes no ε")])
def test_a_bad_spec_is_a_usage_error(monkeypatch, spec, message):
    status, out, err = cli(["eval", "-a", spec, QRELS, RUN], monkeypatch)
    assert (status, out) == (2, "") and message in err and len(err.strip().splitlines()) == 1


def test_the_extra_lines_default_eps_is_chapter_10_s():
    import argparse

    from irmeans.cli.eval_command import add_parser

    assert BY_NAME["gm_map_add"].average == parse_average("gm:0.01")
    text = " ".join(add_parser(argparse.ArgumentParser().add_subparsers()).format_help().split())
    assert "--eps E epsilon of the extra gm_map_add, hm_map and logit_map lines (default 0.01)" in text


# --- DataFrames and dicts of dicts --------------------------------------------------------


def arrays():
    return (["1", "1", "2", "2"], ["a", "b", "c", "d"], [1, 0, 2, 1]), (
        ["1", "1", "2", "2"],
        ["b", "a", "c", "e"],
        [3.0, 2.0, 1.0, 0.5],
    )


def test_a_dataframe_with_ir_measures_columns():
    import pandas as pd  # a test tool in both environments, never a dependency of the library

    (qt, qd, qg), (rt, rd, rs) = arrays()
    want = evaluate((qt, qd, qg), (rt, rd, rs), measures=["official"])
    q = pd.DataFrame({"query_id": qt, "doc_id": qd, "relevance": qg, "iteration": "0"})
    r = pd.DataFrame({"query_id": rt, "doc_id": rd, "score": rs})
    got = evaluate(q, r, measures=["official"])
    assert got.aggregates == want.aggregates and got.topics == want.topics
    with pytest.raises(ValueError, match="run: the DataFrame has no column score"):
        evaluate(q, r.rename(columns={"score": "s"}))


def test_dicts_of_dicts_as_pytrec_eval_and_ranx_take_them():
    (qt, qd, qg), (rt, rd, rs) = arrays()
    want = evaluate((qt, qd, qg), (rt, rd, rs), measures=["official", "ndcg"])
    q, r = {}, {}
    for t, d, g in zip(qt, qd, qg):
        q.setdefault(t, {})[d] = g
    for t, d, s in zip(rt, rd, rs):
        r.setdefault(t, {})[d] = s
    got = evaluate(q, r, measures=["official", "ndcg"])
    assert got.aggregates == want.aggregates
    for name in got.per_topic:
        assert np.array_equal(got[name], want[name]), name
    with pytest.raises(ValueError, match="topic '1' maps to a list"):
        evaluate({"1": ["a"]}, r)


def test_dicts_do_not_import_pandas():
    code = (
        "import sys, irmeans; "
        "irmeans.evaluate({'1': {'a': 1}}, {'1': {'a': 1.0, 'b': 0.5}}, measures=['map']); "
        "print('pandas' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


@pytest.mark.parametrize(
    "spec, topic, value",
    [("hm:0", "402", "0"), ("logit:0", "401", "1.0")],
)
def test_a_value_an_average_cannot_take_is_named_by_its_topic(tmp_path, monkeypatch, spec, topic, value):
    q, r = tmp_path / "q.txt", tmp_path / "r.txt"
    q.write_text("401 0 a 1\n402 0 b 1\n")
    r.write_text("401 Q0 a 1 1 t\n402 Q0 c 1 1 t\n")  # AP 1 on 401, 0 on 402
    status, out, err = cli(["eval", "-m", "map", "-a", spec, str(q), str(r)], monkeypatch)
    assert status == 0 and f"map/{spec}" not in out
    assert f"note: map/{spec} line left out, undefined: topic '{topic}': its value {value} is refused: " in err
    assert "index" not in err
