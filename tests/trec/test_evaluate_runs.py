"""evaluate_runs: runs against one qrels to a systems × topics ScoreMatrix, every qrels topic scored (-c)."""

import shutil
import warnings
from pathlib import Path

import irmeans
import numpy as np
import pytest
from irmeans import Run, evaluate, evaluate_runs
from irmeans.errors import IrmeansError

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
QRELS = str(EXAMPLES / "qrels.txt")
RUNS = [str(EXAMPLES / "runs" / f"{name}.txt") for name in ("baseline", "feedback", "phrases")]


@pytest.mark.parametrize("measure", ["map", "P.10", "ndcg_cut.5", "recip_rank"])
def test_each_row_is_the_run_s_own_evaluation_with_every_qrels_topic(measure):
    m = evaluate_runs(QRELS, RUNS, measure)
    assert m.systems == ("baseline", "feedback", "phrases")
    for row, path in zip(m.scores, RUNS):
        ev = evaluate(QRELS, path, complete=True, measures=[measure])
        ((line, values),) = ev.per_topic.items()
        assert m.topics == tuple(ev.topics) and m.measure == line
        np.testing.assert_array_equal(row, values)
    assert m.collection == "qrels" and m.label == f"qrels_{m.measure}"


def test_a_run_without_some_judged_topics_scores_0_there_with_a_warning(tmp_path):
    short = tmp_path / "short.txt"
    lines = Path(RUNS[0]).read_text().splitlines()
    lines = [line for line in lines if not line.startswith(("401 ", "402 "))]
    short.write_text("\n".join(line.replace("baseline", "short") for line in lines) + "\n")
    with pytest.warns(UserWarning, match=r"short.txt: no results for 2 of the 10 judged topics \(401, 402\)"):
        m = evaluate_runs(QRELS, [RUNS[0], str(short)], "map")
    assert m.topics[:2] == ("401", "402")
    assert m.scores[1, :2].tolist() == [0.0, 0.0]
    np.testing.assert_array_equal(m.scores[1, 2:], m.scores[0, 2:])


def test_runs_sharing_a_runid_are_named_by_their_files(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    copies = [shutil.copy(RUNS[0], tmp_path / "a" / "one.txt"), shutil.copy(RUNS[0], tmp_path / "a" / "two.txt")]
    assert evaluate_runs(QRELS, copies, "map").systems == ("one.txt", "two.txt")
    same_name = [shutil.copy(RUNS[0], tmp_path / d / "run.txt") for d in ("a", "b")]
    assert evaluate_runs(QRELS, same_name, "map").systems == tuple(str(p) for p in same_name)
    with pytest.raises(IrmeansError, match="the same file"):
        evaluate_runs(QRELS, [RUNS[0], RUNS[0]], "map")


def test_a_mapping_names_the_runs_and_runs_may_be_objects_or_arrays():
    run = irmeans.read_run(RUNS[1])
    arrays = (["401", "401"], ["FT401-0382", "x"], [2.0, 1.0])
    with pytest.warns(UserWarning, match="run 'tiny': no results for 9 of the 10"):
        m = evaluate_runs(irmeans.read_qrels(QRELS), {"fb": run, "tiny": arrays, "base": RUNS[0]}, "map")
    assert m.systems == ("fb", "tiny", "base")
    assert m.scores[1, 0] == evaluate(QRELS, arrays, complete=True, measures=["map"])["map"][0]
    assert m.collection == ""  # no file to name it after
    with pytest.warns(UserWarning) as caught:
        unnamed = evaluate_runs(QRELS, [Run.from_arrays(*arrays), Run.from_arrays(*arrays)], "map")
    assert [str(w.message).split(":")[0] for w in caught] == ["run 1", "run 2"]
    assert unnamed.systems == ("run1", "run2")  # both runids are "run"


def test_qrels_from_standard_input_are_read_once_for_every_run(monkeypatch):
    import io
    import sys

    text = Path(QRELS).read_bytes()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text)))
    m = evaluate_runs("-", RUNS, "map")
    np.testing.assert_array_equal(m.scores, evaluate_runs(QRELS, RUNS, "map").scores)
    assert m.collection == ""


def test_progress_is_called_once_a_run():
    calls = []
    evaluate_runs(QRELS, RUNS, "map", progress=calls.append)
    assert calls == [1, 1, 1]


def test_level_and_depth_go_to_the_evaluator():
    m = evaluate_runs(QRELS, RUNS[:1], "P.10", relevance_level=2, depth=5)
    ev = evaluate(QRELS, RUNS[0], complete=True, measures=["P.10"], relevance_level=2, depth=5)
    np.testing.assert_array_equal(m.scores[0], ev["P_10"])


@pytest.mark.parametrize(
    "runs, measure, message",
    [
        (RUNS, "P.5,10", r"gives 2 values a topic \(P_5, P_10\): pick one"),
        (RUNS, "num_q", "gives 0 values a topic"),
        ([], "map", "no runs"),
        (RUNS[0], "map", "a sequence or a mapping of runs"),
        (RUNS, ["map"], "one trec_eval measure"),
        (RUNS, "nosuch", "nosuch"),
        (["-", RUNS[0], "-"], "map", "standard input"),
    ],
)
def test_what_cannot_be_a_matrix_is_refused(runs, measure, message):
    with pytest.raises(IrmeansError, match=message):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            evaluate_runs(QRELS, runs, measure)


def test_a_bad_run_file_is_named():
    with pytest.raises(IrmeansError, match="no-such-run.txt"):
        evaluate_runs(QRELS, [RUNS[0], "no-such-run.txt"], "map")


def test_a_measure_of_several_lines_is_refused_before_any_run_is_read(monkeypatch):
    # the measure's lines come from the measure itself, not from what an evaluation printed
    import irmeans.trec.evaluate as evaluation

    monkeypatch.setattr(evaluation, "evaluate", lambda *a, **k: pytest.fail("a run was evaluated"))
    with pytest.raises(IrmeansError, match=r"gives 3 values a topic \(ndcg_cut_5, ndcg_cut_10, ndcg_cut_20\)"):
        evaluate_runs(QRELS, ["no-such-run.txt"], "ndcg_cut.5,10,20")
