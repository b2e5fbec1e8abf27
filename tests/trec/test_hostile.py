"""Hostile and unusual input: the right number, or one line naming the file, the line and what is wrong.

Every failure must exit non-zero with nothing on standard output and no traceback.
"""

import gzip
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest
from irmeans.trec.evaluate import evaluate
from irmeans.trec.files import Qrels, Run, read_qrels, read_run
from irmeans.trec.table import parse_measures

QRELS = "1 0 a 1\n1 0 b 0\n1 0 c 2\n2 0 x 1\n"
RUN = "1 Q0 a 1 3 tag\n1 Q0 b 2 2 tag\n1 Q0 c 3 1 tag\n2 Q0 y 1 1 tag\n2 Q0 x 2 0.5 tag\n"


def chosen(specs):
    """The measures ``specs`` choose, by family name."""
    return {c.family.name: c for c in parse_measures(specs)}


def irmeans(*args, stdin=None, stdout=subprocess.PIPE):
    proc = subprocess.run(
        [sys.executable, "-m", "irmeans.cli", *args], input=stdin, stdout=stdout, stderr=subprocess.PIPE
    )
    return proc.returncode, proc.stdout, proc.stderr.decode("utf-8", "replace")


@pytest.fixture
def files(tmp_path):
    q, r = tmp_path / "q.txt", tmp_path / "r.txt"
    q.write_text(QRELS)
    r.write_text(RUN)
    return str(q), str(r)


def one_line_error(status, out, err, *needles):
    assert status != 0
    assert not out
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    for needle in needles:
        assert needle in lines[0], lines[0]


def value(out, name, topic="all"):
    for line in out.decode().splitlines():
        n, t, v = line.split("\t")
        if n.strip() == name and t == topic:
            return v
    raise KeyError(name)


# --- Python number syntax is not trec_eval's -------------------------------------------


@pytest.mark.parametrize(
    "qrels, run, needle",
    [
        (QRELS, RUN.replace(" 3 tag", " 1_0 tag", 1), "r.txt:1: score '1_0' is not a number"),
        (QRELS.replace("a 1", "a 1_0"), RUN, "q.txt:1: relevance '1_0' is not an integer"),
        (QRELS, RUN.replace(" 3 tag", " nan tag", 1), "r.txt:1: score 'nan' is not a number (NaN cannot be ranked)"),
        (QRELS, RUN.replace(" 3 tag", " 0x1p3x tag", 1), "r.txt:1: score '0x1p3x' is not a number"),
        (QRELS.replace("a 1", "a 9223372036854775808"), RUN, "q.txt:1: relevance '9223372036854775808' is out of"),
        (QRELS.replace("a 1", "a 1.5"), RUN, "q.txt:1: relevance '1.5' is not an integer"),
    ],
)
def test_numbers_outside_c_syntax_are_refused_with_the_line(tmp_path, qrels, run, needle):
    (tmp_path / "q.txt").write_text(qrels)
    (tmp_path / "r.txt").write_text(run)
    one_line_error(*irmeans("eval", str(tmp_path / "q.txt"), str(tmp_path / "r.txt")), needle)


def test_c_number_forms_are_read_as_c_reads_them(tmp_path, files):
    r = tmp_path / "hex.txt"
    r.write_text(RUN.replace(" 3 tag", " 0x1.8p1 tag").replace(" 2 2 tag", " 2 +2. tag").replace(" 1 tag", " 1E0 tag"))
    status, out, _ = irmeans("eval", "-q", "-m", "map", files[0], str(r))
    status2, out2, _ = irmeans("eval", "-q", "-m", "map", *files)
    assert status == status2 == 0 and out == out2


@pytest.mark.parametrize(
    "flags, needle",
    [
        (["-l", "1_0"], "argument -l: '1_0' is not an integer"),
        (["-M", "1_0"], "argument -M: '1_0' is not an integer"),
        (["-M", "-1"], "argument -M: '-1' is not a whole number >= 0"),
        (["-m", "P.1_0"], "cutoff '1_0' is not an integer"),
        (["-m", "P.0,5"], "cutoffs must be positive"),
        (["-m", "P.5,5"], "duplicate cutoffs"),
        (["-m", "P."], "nothing after the '.'"),
        (["-m", "ndcg.1"], "name=value pairs"),
        (["-m", "ndcg.1=x"], "value 'x' of '1' is not a finite number"),
        (["-m", "utility.1,2"], "utility takes 4 coefficients"),
        (["-m", "Rprec_mult.0.5,0.5"], "duplicate cutoffs"),
        (["-m", "prefs_simp"], "needs preference or qrels_jg judgments"),
        (["--eps", "1_0"], "argument --eps: '1_0' is not a number"),
    ],
)
def test_bad_flags_are_one_line(files, flags, needle):
    one_line_error(*irmeans("eval", *flags, *files), needle)


def test_huge_depth_means_no_limit(files):
    status, out, err = irmeans("eval", "-M", "99999999999999999999", "-m", "map", "-m", "num_ret", *files)
    assert status == 0 and "Traceback" not in err
    assert value(out, "num_ret") == "5"


def test_negative_level_behaves_as_trec_eval(tmp_path):
    # trec_eval -l -1: an unjudged document passes the ranked-list test (rel >= -1), so
    # recip_rank finds it; bpref counts judged documents only, and stays at most 1
    q, r = tmp_path / "q.txt", tmp_path / "r.txt"
    q.write_text("1 0 a 1\n1 0 b 0\n")
    r.write_text("1 Q0 u 1 3 t\n1 Q0 a 2 2 t\n1 Q0 b 3 1 t\n")
    status, out, _ = irmeans("eval", "-l", "-1", "-m", "bpref", "-m", "recip_rank", "-m", "num_rel_ret", str(q), str(r))
    assert status == 0
    assert value(out, "bpref") == "1.0000" and value(out, "recip_rank") == "1.0000"
    assert value(out, "num_rel_ret") == "2"


# --- Files that are not what they should be ----------------------------------------------


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_dev_zero_is_refused_at_once(files, monkeypatch):
    one_line_error(*irmeans("eval", files[0], "/dev/zero"), "/dev/zero:1: a NUL byte")
    # at once: after the first chunk, not after reading on (for ever)
    import irmeans.trec.source as source

    read = []
    real = source.Source.readinto
    monkeypatch.setattr(source.Source, "readinto", lambda self, view: read.append(len(view)) or real(self, view))
    with pytest.raises(ValueError, match="/dev/zero:1: a NUL byte"):
        read_run("/dev/zero")
    assert sum(read) <= 2 * source.CHUNK_BYTES


@pytest.mark.skipif(not os.path.exists("/proc/self/pagemap"), reason="needs /proc")
def test_proc_pagemap_is_refused(files):
    status, out, err = irmeans("eval", files[0], "/proc/self/pagemap")
    one_line_error(status, out, err, "/proc/self/pagemap")


def test_an_endless_line_is_refused(small_chunks, tmp_path, files, monkeypatch):
    import irmeans.trec.files as trec_files
    import irmeans.trec.source as source

    monkeypatch.setattr(source, "MAX_LINE_BYTES", 1 << 16)
    small_chunks(1 << 12)
    r = tmp_path / "long.txt"
    r.write_text("1 Q0 a 1 3 t\n" + "x" * (1 << 17) + "\n")
    with pytest.raises(ValueError, match=r"long\.txt:2: line longer than"):
        trec_files.read_run(str(r))


def test_dash_reads_standard_input(files):
    status, out, err = irmeans("eval", "-m", "map", files[0], "-", stdin=RUN.encode())
    assert status == 0, err
    status2, out2, _ = irmeans("eval", "-m", "map", *files)
    assert out == out2
    status, out, err = irmeans("eval", "-m", "map", "-", files[1], stdin=QRELS.encode())
    assert status == 0 and out == out2


def test_gzip_files_are_read_transparently(tmp_path, files):
    q, r = tmp_path / "q.txt.gz", tmp_path / "r.gz"
    q.write_bytes(gzip.compress(QRELS.encode()))
    r.write_bytes(gzip.compress(RUN.encode()))
    _, plain, _ = irmeans("eval", "-q", *files)
    status, out, err = irmeans("eval", "-q", str(q), str(r))
    assert status == 0 and out == plain, err
    bad = tmp_path / "bad.gz"
    bad.write_bytes(gzip.compress(RUN.encode())[:-12])
    one_line_error(*irmeans("eval", files[0], str(bad)), "bad.gz", "gzip")


def test_a_100_kb_docno_is_cheap(tmp_path, monkeypatch):
    name = "d" * 100_000
    q, r = tmp_path / "q.txt", tmp_path / "r.txt"
    q.write_text(f"1 0 {name} 1\n1 0 {name}x 0\n")
    r.write_text(f"1 Q0 {name}x 1 1 t\n1 Q0 {name} 2 1 t\n")
    # cheap: no array padded to the longest docno (its size is the longest times the number of docnos)
    from irmeans.trec.strings import Strings

    monkeypatch.setattr(Strings, "to_array", lambda self: pytest.fail("docnos padded to the longest"))
    ev = evaluate(str(q), str(r), measures=["map", "relstring"])
    assert ev["relstring"].tolist() == ["'01'"]  # tie broken by docno descending: the longer one first


def test_non_utf8_topics_print_distinctly(tmp_path):
    q, r = tmp_path / "q.txt", tmp_path / "r.txt"
    q.write_bytes(b"caf\xe9 0 a 1\ncaf\xc3\xa9 0 a 0\ncaf\xc3\xa9 0 b 1\n")
    r.write_bytes(b"caf\xe9 Q0 a 1 1 t\ncaf\xc3\xa9 Q0 a 1 1 t\n")
    status, out, _ = irmeans("eval", "-q", "-m", "num_rel", str(q), str(r))
    assert status == 0
    assert out.splitlines()[:2] == [b"num_rel               \tcaf\xc3\xa9\t1", b"num_rel               \tcaf\xe9\t1"]


def test_missing_topics_warning_is_summarised(tmp_path, files):
    q = tmp_path / "many.txt"
    q.write_text(QRELS + "".join(f"t{i} 0 z 1\n" for i in range(500)))
    status, out, err = irmeans("eval", "-m", "map", str(q), files[1])
    assert status == 0
    assert len(err.strip().splitlines()) == 1 and len(err) < 400
    assert "500 topics in" in err and "(-c counts them as empty rankings)" in err and "and 490 more" in err
    assert "complete=True" not in err


# --- The extra 'all' lines ----------------------------------------------------------------


def test_extra_lines_only_when_asked_for(files):
    _, out, _ = irmeans("eval", "-m", "map", *files)
    assert [line.split(b"\t")[0].strip() for line in out.splitlines()] == [b"map"]
    _, out, _ = irmeans("eval", "-m", "hm_map", *files)
    assert [line.split(b"\t")[0].strip() for line in out.splitlines()] == [b"hm_map"]
    _, out, _ = irmeans("eval", "-m", "P.5", "--extra", *files)
    names = [line.split(b"\t")[0].strip() for line in out.splitlines()]
    assert names == [b"P_5", b"gm_map_add", b"hm_map", b"median_map", b"logit_map"]
    _, out, _ = irmeans("eval", *files)
    assert out.splitlines()[-4].startswith(b"gm_map_add")


# --- Signals and output that cannot be written --------------------------------------------


def _ctrl_c_as_from_a_terminal():
    # A background job of a non-interactive shell (make test runs these tests in one) starts with Ctrl-C
    # ignored, and Python then never raises KeyboardInterrupt; from a terminal, Ctrl-C is the default.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _wait_until_it_reads_the_pipe(pid: int, timeout: float = 60) -> None:
    """Until process ``pid`` waits on a pipe (its start-up done, however loaded the machine), as Linux's
    ``/proc/PID/wchan`` says; 1.5 s where there is no such file."""
    wchan = f"/proc/{pid}/wchan"
    if not os.path.exists(wchan):
        time.sleep(1.5)
        return
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with open(wchan) as f:
            if "pipe" in f.read():
                return
        time.sleep(0.05)
    raise AssertionError(f"process {pid} never waited on its input")


def test_ctrl_c_exits_130_quietly(files):
    # the run comes from a pipe that stays open: the command is still reading when interrupted
    proc = subprocess.Popen(
        [sys.executable, "-m", "irmeans.cli", "eval", "-q", files[0], "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=_ctrl_c_as_from_a_terminal,
    )
    proc.stdin.write(RUN.encode())
    proc.stdin.flush()
    _wait_until_it_reads_the_pipe(proc.pid)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert out == b"" and err == b""


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_disk_is_one_line(files):
    with open("/dev/full", "wb") as full:
        status, _, err = irmeans("eval", "-q", *files, stdout=full)
    assert status == 1
    assert err.strip().splitlines() == ["irmeans eval: error: cannot write the output (No space left on device)"]


def test_output_closed_early_is_one_line_and_141(files):
    proc = subprocess.Popen(
        [sys.executable, "-m", "irmeans.cli", "eval", "-q", *files], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    proc.stdout.close()
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 141
    assert err.decode().splitlines() == ["irmeans eval: error: the output was closed before all of it was written"]


@pytest.mark.parametrize("unbuffered", ["1", ""])
def test_a_file_size_limit_is_one_line_never_a_silent_cut(tmp_path, files, unbuffered):
    # Python's unbuffered text stream ignores a short write: the output was cut and the exit was 0
    import resource

    limit = 4096

    def small_files():  # pragma: no cover - runs in the child
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    out = tmp_path / "out.txt"
    env = {**os.environ, "PYTHONUNBUFFERED": unbuffered}
    with open(out, "wb") as fh:
        proc = subprocess.run(
            [sys.executable, "-m", "irmeans.cli", "eval", "-q", *files],
            stdout=fh,
            stderr=subprocess.PIPE,
            env=env,
            preexec_fn=small_files,
        )
    full = irmeans("eval", "-q", *files)[1]
    assert len(full) > limit and out.stat().st_size == limit
    assert proc.returncode == 1
    assert proc.stderr.decode().splitlines() == ["irmeans eval: error: cannot write the output (File too large)"]


# --- The Python API -----------------------------------------------------------------------


def test_api_refuses_what_it_cannot_represent():
    with pytest.raises(ValueError, match=r"row 0: relevance 1e\+19 is out of range"):
        Qrels.from_arrays(["1"], ["a"], [1e19])
    with pytest.raises(ValueError, match="out of range"):
        Qrels.from_arrays(["1"], ["a"], np.array([2**63], dtype=np.uint64))
    with pytest.raises(ValueError, match="masked"):
        Qrels.from_arrays(["1"], ["a"], np.ma.masked_array([1], mask=[True]))
    with pytest.raises(ValueError, match="masked"):
        Run.from_arrays(["1"], ["a"], np.ma.masked_array([1.0], mask=[True]))
    qrels, run = (["1"], ["a"], [1]), (["1"], ["a"], [1.0])
    with pytest.raises(ValueError, match="depth must be a whole number"):
        evaluate(qrels, run, depth=2.7)
    with pytest.raises(ValueError, match="relevance_level must be a whole number"):
        evaluate(qrels, run, relevance_level=1.5)
    assert evaluate(qrels, run, depth=2.0, measures=["map"])["map"].tolist() == [1.0]


def test_qrels_grade_too_large_names_the_line(tmp_path):
    q = tmp_path / "q.txt"
    q.write_text("1 0 a 1\n1 0 b 18446744073709551616\n")
    with pytest.raises(ValueError, match=r"q\.txt:2: relevance '18446744073709551616' is out of range"):
        read_qrels(str(q))


# --- The measure grammar, one test per parameter form --------------------------------------


@pytest.mark.parametrize(
    "spec, names",
    [
        ("P.10,5", ["P_5", "P_10"]),
        ("ndcg_cut.5,10", ["ndcg_cut_5", "ndcg_cut_10"]),
        ("success.2", ["success_2"]),
        ("Rprec_mult.1.5,0.5", ["Rprec_mult_0.50", "Rprec_mult_1.50"]),
        ("iprec_at_recall.0.25", ["iprec_at_recall_0.25"]),
        ("set_F.2", ["set_F_2"]),
        ("relstring.20", ["relstring_20"]),
        ("utility.1,-1,0,0", ["utility_1,-1,0,0"]),
        ("11pt_avg.0.2,0.5,0.8", ["11pt_avg_0.2,0.5,0.8"]),
        ("ndcg.1=0,2=5", ["ndcg_1=0,2=5"]),
        ("Rndcg.1=2", ["Rndcg_1=2"]),
        ("ndcg_rel.2=3", ["ndcg_rel_2=3"]),
        ("G.1=2", ["G_1=2"]),
        ("dcg", ["dcg"]),
        ("ideal_dcg.3=10", ["ideal_dcg_3=10"]),
        ("rbp.p=0.5", ["rbp_p=0.5"]),
        ("rbp_resid.p=0.8", ["rbp_resid_p=0.8"]),
        ("yaap", ["yaap"]),
        ("map.5", ["map"]),  # trec_eval ignores parameters of a measure that takes none
    ],
)
def test_every_parameter_form_and_its_line_names(spec, names):
    qrels = (["1"] * 4 + ["2"] * 2, ["a", "b", "c", "d", "x", "y"], [1, 0, 2, 3, 1, 0])
    run = (["1"] * 4 + ["2"] * 2, ["a", "b", "c", "e", "y", "x"], [4.0, 3.0, 2.0, 1.0, 2.0, 1.0])
    ev = evaluate(qrels, run, measures=[spec])
    assert [n for n in ev.per_topic] == names


def test_first_parameters_win_as_in_trec_eval():
    assert chosen(["P.5", "P.10"])["P"].params == (5,)
    assert chosen(["official", "P.7"])["P"].params == (7,)


def test_gains_change_ndcg_as_trec_eval_defines_it():
    # grades 1 and 2; gains 1=0,2=5: the ranking a(1), c(2) has DCG 5/log2(3), ideal 5
    qrels = (["1", "1"], ["a", "c"], [1, 2])
    run = (["1", "1"], ["a", "c"], [2.0, 1.0])
    ev = evaluate(qrels, run, measures=["ndcg.1=0,2=5", "dcg.1=0,2=5", "ideal_dcg.1=0,2=5"])
    assert ev["dcg_1=0,2=5"][0] == pytest.approx(5 / np.log2(3))
    assert ev["ideal_dcg_1=0,2=5"][0] == pytest.approx(5.0)
    assert ev["ndcg_1=0,2=5"][0] == pytest.approx(1 / np.log2(3))


def test_a_topic_does_not_depend_on_the_others():
    rng = np.random.default_rng(5)
    topics, docs, scores, qt, qd, qg = [], [], [], [], [], []
    for t in range(40):
        n = int(rng.integers(1, 300))
        for i in range(n):
            topics.append(f"t{t}")
            docs.append(f"d{i}")
            scores.append(float(rng.random()))
        for i in rng.choice(n, min(n, 60), replace=False):
            qt.append(f"t{t}")
            qd.append(f"d{i}")
            qg.append(int(rng.integers(0, 5)))
    measures = ["ndcg", "ndcg_cut.10,100", "ndcg_rel", "Rndcg", "G", "map", "rbp", "dcg"]
    everything = evaluate((qt, qd, qg), (topics, docs, scores), measures=measures)
    keep = [i for i, t in enumerate(topics) if t == "t7"]
    qkeep = [i for i, t in enumerate(qt) if t == "t7"]
    alone = evaluate(
        ([qt[i] for i in qkeep], [qd[i] for i in qkeep], [qg[i] for i in qkeep]),
        ([topics[i] for i in keep], [docs[i] for i in keep], [scores[i] for i in keep]),
        measures=measures,
    )
    i = everything.topics.index("t7")
    for name in alone.per_topic:
        assert everything[name][i] == alone[name][0], name  # bit for bit


# --- scores trec_eval ranks first or last ---------------------------------------------


def test_infinite_scores_rank_as_trec_eval_ranks_them(tmp_path):
    # trec_eval 10.0 on these files: relstring '--111', AP 0.4778 for topic 1 (inf ties broken
    # by docno descending: e d c a, then b at -inf)
    q, r = tmp_path / "q.txt", tmp_path / "r.txt"
    q.write_text("1 0 a 1\n1 0 b 1\n1 0 c 1\n2 0 a 1\n")
    r.write_text(
        "1 Q0 a 1 inf r\n1 Q0 b 2 -inf r\n1 Q0 c 3 INF r\n1 Q0 d 4 1e400 r\n1 Q0 e 5 Infinity r\n2 Q0 a 1 0.5 r\n"
    )
    status, out, err = irmeans("eval", "-q", "-m", "map", "-m", "relstring", str(q), str(r))
    assert (status, err) == (0, "")
    assert value(out, "relstring", "1") == "'--111'"
    assert value(out, "map", "1") == "0.4778" and value(out, "map") == "0.7389"


# --- what the command line is given ----------------------------------------------------


def test_standard_input_may_be_given_once(files):
    status, out, err = irmeans("eval", "-", "-", stdin=QRELS.encode())
    one_line_error(status, out, err, "irmeans eval: error: '-' (standard input) is given as the qrels and as a run")


@pytest.mark.parametrize("name", ["no\nsuch.txt", "tab\there.txt", "nul\x7f.txt"])
def test_a_file_name_that_does_not_print_keeps_the_reason(tmp_path, files, name):
    status, out, err = irmeans("eval", files[0], str(tmp_path / name))
    one_line_error(status, out, err, repr(str(tmp_path / name)) + ": no such file")


@pytest.mark.parametrize(
    "qrels, run, needle",
    [
        (
            (["1"], ["a"]),
            (["1"], ["a"], [1.0]),
            "qrels must be a Qrels, a file, (topics, docnos, rels) sequences, a pandas DataFrame (query_id, doc_id, relevance) or a dict of dicts ({query: {doc: relevance}}); got a tuple of 2",
        ),
        (
            (["1"], ["a"], [1]),
            None,
            "run must be a Run, a file, (topics, docnos, scores[, runid]) sequences, a pandas DataFrame (query_id, doc_id, score) or a dict of dicts ({query: {doc: score}}); got None",
        ),
        (
            3,
            (["1"], ["a"], [1.0]),
            "qrels must be a Qrels, a file, (topics, docnos, rels) sequences, a pandas DataFrame (query_id, doc_id, relevance) or a dict of dicts ({query: {doc: relevance}}); got 3",
        ),
    ],
)
def test_what_evaluate_cannot_read_is_named(qrels, run, needle):
    from irmeans.errors import IrmeansError

    with pytest.raises(IrmeansError) as info:
        evaluate(qrels, run, measures=["map"])
    assert str(info.value) == needle
