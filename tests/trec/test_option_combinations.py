"""eval's and consistency's options that change the output's shape, in every combination (property tests).

irmeans eval: -q (per-topic lines), -n (no 'all' lines), several runs (a prefix), -a (an 'all' line NAME/SPEC a
measure), --extra (the four extra lines), -m (one measure, several, a nickname), --digits, -c. Each output is held
to what each option says, and to the library's own numbers, whatever the others.

irmeans consistency: -a (one average or several, std-), --split (random or by difficulty), --bootstrap (0 or
some), -n, --digits, and the source (a CSV, runs). Each report has its header, one row an average, the
difference table exactly when an average other than the AM is asked for, and '-' exactly where an interval cannot
be had (one split, no bootstrap).
"""

import io
import re
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from irmeans.cli import main
from irmeans.trec.evaluate import evaluate
from irmeans.trec.table import EXTRA_FAMILIES

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
QRELS = str(EXAMPLES / "qrels.txt")
RUNS = [str(EXAMPLES / "runs" / f"{name}.txt") for name in ("baseline", "feedback", "phrases")]
SCORES = str(EXAMPLES / "scores.csv")


def run(args):
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = main(args)
    return status, out.getvalue(), err.getvalue()


measures = st.lists(st.sampled_from(["map", "P.5,10", "recip_rank", "ndcg_cut.10", "gm_map", "hm_map", "official"]),
                    min_size=0, max_size=3, unique=True)  # fmt: skip
averages = st.lists(st.sampled_from(["am", "gm:0.01", "median", "logit:0.01"]), max_size=2, unique=True)


@settings(max_examples=25)
@given(
    q=st.booleans(),
    n=st.booleans(),
    c=st.booleans(),
    extra=st.booleans(),
    m=measures,
    a=averages,
    digits=st.integers(0, 6),
    runs=st.lists(st.sampled_from(RUNS), min_size=1, max_size=3, unique=True),
)
def test_eval_s_lines_are_what_each_option_says_whatever_the_others(q, n, c, extra, m, a, digits, runs):
    args = ["eval", *(["-q"] if q else []), *(["-n"] if n else []), *(["-c"] if c else [])]
    args += [*(["--extra"] if extra else []), "--digits", str(digits)]
    args += [x for spec in m for x in ("-m", spec)] + [x for spec in a for x in ("-a", spec)]
    status, out, err = run([*args, QRELS, *runs])
    assert status == 0, err
    lines = out.splitlines()
    by_run = {r: [] for r in runs}
    for line in lines:
        fields = line.split("\t")
        if len(runs) > 1:  # the run as given, a tab, then the line that run alone prints
            assert fields[0] in by_run
            by_run[fields[0]].append("\t".join(fields[1:]))
        else:
            by_run[runs[0]].append(line)
    for path, own in by_run.items():
        ev = evaluate(QRELS, path, complete=c, measures=m or None, extra=extra, averages=a)
        names = [line.split("\t")[0].strip() for line in own]
        topics = [line.split("\t")[1] for line in own]
        assert all(len(line.split("\t")) == 3 for line in own)
        per_topic = [t for t in topics if t != "all"]
        if q:  # every printed measure for every topic, topic after topic
            assert per_topic == [t for t in ev.topics for _ in ev.printed]
        else:
            assert not per_topic
        alls = [name for name, t in zip(names, topics) if t == "all"]
        if n:
            assert not alls
            continue
        assert alls == list(ev.aggregates)
        for spec in a:  # -a: an 'all' line NAME/SPEC for each measure printed per topic
            wanted = {f"{name}/{spec}" for name in ev.printed if ev.kinds[name] != "string"} - set(ev.notes)
            assert wanted <= set(alls)  # (a note on stderr for one undefined on these values: a GM of utility)
        if extra:
            assert {fam.name for fam in EXTRA_FAMILIES} - set(ev.notes) <= set(alls)
        for line, name in zip(own, names):
            value = line.split("\t")[2].strip()
            if ev.kinds.get(name) == "double" and value not in ("nan", "-nan"):
                assert re.fullmatch(rf"-?\d+{'.' if digits else ''}\d{{{digits}}}", value), line


@settings(max_examples=30)
@given(
    a=st.lists(st.sampled_from(["am", "gm:0.01", "std-am", "median", "std-gm:0.01"]), max_size=3, unique=True),
    split=st.sampled_from(["random", "hard-easy", "middle-rest"]),
    bootstrap=st.sampled_from([0, 2, 5]),
    splits=st.sampled_from([1, 20]),
    digits=st.integers(0, 6),
    runs=st.booleans(),
)
def test_consistency_s_report_is_what_each_option_says_whatever_the_others(a, split, bootstrap, splits, digits, runs):
    source = ["-m", "map", QRELS, *RUNS] if runs else ["--scores", SCORES]
    args = ["consistency", *source, "--split", split, "--bootstrap", str(bootstrap), "-n", str(splits)]
    args += ["--digits", str(digits), *[x for spec in a for x in ("-a", spec)]]
    status, out, err = run(args)
    if status == 1:  # the three example runs tie on a half under some averages: said in one line, as a refusal
        assert runs and "Kendall's tau is undefined" in err and out == ""
        return
    assert status == 0, err
    asked = a or ["am", "gm:0.01", "gm-floor:1e-05", "std-am"]
    lines = out.splitlines()
    assert lines[0].startswith("# ") and ("x 10 topics" if runs else "x 50 topics") in lines[0]
    assert lines[1].startswith("# averages: ") and all(f"{spec} = " in lines[1] for spec in asked)
    assert any(line.startswith("# topic difficulty:") for line in lines) == (split != "random")
    table = lines.index("average\tmean_tau\tsplits_low\tsplits_high\ttopics_low\ttopics_high\ttau_2.5%\ttau_97.5%")
    rows = [line.split("\t") for line in lines[table + 1 : table + 1 + len(asked)]]
    assert [r[0] for r in rows] == asked
    one_split = split != "random" or splits == 1
    for r in rows:
        assert len(r) == 8 and re.fullmatch(rf"-?\d+{'.' if digits else ''}\d{{{digits}}}", r[1])
        assert (r[2] == "-") == one_split and (r[6] == "-") == one_split  # over splits, and their spread
        if bootstrap == 0:  # over topics: none without a bootstrap
            assert r[4:6] == ["-", "-"]
    others = [spec for spec in asked if spec != "am"]
    differences = "average\tmean_diff\thigher\tlower\tsplits_low\tsplits_high\ttopics_low\ttopics_high"
    assert (differences in lines) == bool(others)
    if others:
        rows = [line.split("\t") for line in lines[lines.index(differences) + 1 :]]
        assert [r[0] for r in rows] == others and all(len(r) == 8 for r in rows)
    # both sources have too few systems to tell (3 runs, 8 systems): said on stderr, once, never in the report
    assert err.count("irmeans consistency: warning: ") == 1 and "warning" not in out
