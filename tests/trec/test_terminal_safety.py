"""No name reaches a terminal raw, and every output is valid UTF-8, in every subcommand and format.

A run's runid or a topic may hold ESC or BEL sequences, which a terminal obeys (they can retitle or
clear it), and bytes that are not UTF-8. Text shows every character that does not print as its
escape (as a newline is shown ``\\n``); Markdown, LaTeX and CSV the same under their own syntax;
JSON writes ``\\u`` escapes, valid UTF-8 in which each name reads back as itself. trec_eval's lines
(``irmeans eval``) keep the bytes of an id that are not UTF-8 as read, as trec_eval does, but
escape its control characters.
"""

import json
import re
import subprocess
import sys

import pytest
from irmeans import compare, evaluate_runs

RUNIDS = [b"evil\x1b]0;pwned\x07", b"clear\x1b[2J\xc2\x9b5m", b"caf\xe9"]  # OSC title, CSI clear and C1 CSI, latin-1
TOPICS = [b"401", b"402\x1b[31m", b"403"]
# A control character a terminal could obey: C0 but the line's own tab and newline, DEL, and C1 in UTF-8.
CONTROL = re.compile(rb"[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]")


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("terminal")
    qrels = folder / "qrels.txt"
    qrels.write_bytes(b"".join(t + b" 0 d%d %d\n" % (d, d % 2) for t in TOPICS for d in range(6)))
    runs = []
    for k, runid in enumerate(RUNIDS):
        path = folder / f"run{k}.txt"
        lines = [
            t + b" Q0 d%d %d %.1f " % (d, r, 10 - r + k * ((d + i) % 3)) + runid + b"\n"
            for i, t in enumerate(TOPICS)
            for r, d in enumerate(range(6))
        ]
        path.write_bytes(b"".join(lines))
        runs.append(str(path))
    return str(qrels), runs


def irmeans(*args):
    done = subprocess.run([sys.executable, "-m", "irmeans.cli", *args], capture_output=True, timeout=300)
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    assert not CONTROL.search(done.stderr), done.stderr
    return done.stdout


@pytest.mark.parametrize("table", [False, True])
@pytest.mark.parametrize("fmt", ["text", "markdown", "latex", "csv", "json"])
def test_compare_writes_no_control_character_and_valid_utf8_in_every_format(files, fmt, table):
    qrels, runs = files
    out = irmeans(
        "compare", "-m", "map", "-n", "100", "-b", "20", "--format", fmt, *(["--results-table"] * table), qrels, *runs
    )
    assert not CONTROL.search(out), CONTROL.search(out)
    text = out.decode("utf-8")  # strict: every byte is UTF-8
    if fmt == "json":
        data = json.loads(text)
        names = evaluate_runs(qrels, runs, "map").systems
        found = {r["system"] for r in data["rows"]} if table else set(data["scores"]["systems"])
        assert found == set(names) and len(found) == 3  # each name itself, none merged
        assert "caf\udce9" in names
    elif fmt != "csv" or not table:
        assert "\\x1b" in text or "\\textbackslash{}x1b" in text  # shown, escaped, not dropped


def test_the_api_s_json_is_valid_utf8_and_reads_back_the_names(files, tmp_path):
    qrels, runs = files
    c = compare(evaluate_runs(qrels, runs, "map"), ["am"], permutations=50, bootstrap=10)
    text = c.to_json(tmp_path / "c.json")
    text.encode("utf-8")
    assert json.loads((tmp_path / "c.json").read_bytes().decode("utf-8"))["scores"]["systems"] == list(c.matrix.systems)
    c.to_csv(tmp_path / "c.csv")
    assert not CONTROL.search((tmp_path / "c.csv").read_bytes())
    (tmp_path / "c.csv").read_bytes().decode("utf-8")


def test_eval_escapes_control_characters_of_runids_and_topics_and_keeps_other_bytes_as_read(files):
    qrels, runs = files
    for run in runs:
        out = irmeans("eval", "-q", "-m", "map", "-m", "runid", qrels, run)
        assert not CONTROL.search(out)
        assert b"402\\x1b[31m\t" in out
    assert b"runid                 \tall\tcaf\xe9\n" in out  # the bytes of trec_eval's line, as read


def test_consistency_and_datasets_write_no_control_character(files):
    qrels, runs = files
    out = irmeans("consistency", "-m", "map", "-n", "20", "--bootstrap", "0", qrels, *runs)
    assert not CONTROL.search(out) and out.decode("utf-8")
    out = irmeans("datasets")
    assert not CONTROL.search(out) and out.decode("utf-8")
