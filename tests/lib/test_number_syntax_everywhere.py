"""One number syntax: the scores CSV, the shipped data and every numeric option read numbers as C does.

``irmeans.number_syntax`` reads what C's ``strtod`` reads in full (as the TREC readers do):
Python's ``float()`` would read ``1_000`` as 1000 and ``0_5`` as 5.0, and unicode digits too.
A refused cell names the file, the line, the system and the topic, and shows the cell.
"""

import re

import numpy as np
import pytest
from irmeans import datasets, number_syntax
from irmeans.cli import main
from irmeans.errors import FileFormatError

BAD_CELLS = {
    "": "the score is empty",
    "  ": "the score is empty",
    "x": "score 'x' is not a number",
    "1_000": "score '1_000' is not a number",
    "0_5": "score '0_5' is not a number",
    "nan": "score 'nan' is NaN",
    "NaN": "score 'NaN' is NaN",
    "inf": "score 'inf' is infinite",
    "-Infinity": "score '-Infinity' is infinite",
    "1e400": r"score '1e400' is too large for a double \(it reads as inf\)",
    "-1e999": r"score '-1e999' is too large for a double",
    "\u0663": "score '\u0663' is not a number",  # an Arabic-Indic three, which float() reads
    "\uff10.\uff15": "score '\uff10.\uff15' is not a number",  # full-width 0.5
    "\u22120.5": "score '\u22120.5' is not a number",  # a minus sign that is not '-'
    "0.5%": "score '0.5%' is not a number",
    "1e": "score '1e' is not a number",
    "--1": "score '--1' is not a number",
    "1.2.3": "score '1.2.3' is not a number",
    "\u00bd": "score '\u00bd' is not a number",
    "TRUE": "score 'TRUE' is not a number",
    "1 000": "score '1 000' is not a number",
    "0x": "score '0x' is not a number",
    "1j": "score '1j' is not a number",
}

GOOD_CELLS = {" 0.5 ": 0.5, "+.5": 0.5, "5.": 5.0, "5e-1": 0.5, "0x1p-1": 0.5, "-0": 0.0, "\t1E0": 1.0, '"0.25"': 0.25}


def write(path, text):
    path.write_bytes(text.encode("utf-8"))
    return path


@pytest.mark.parametrize("cell", list(BAD_CELLS), ids=[repr(c) for c in BAD_CELLS])
@pytest.mark.parametrize("orientation", ["system", "topic"])
def test_a_bad_cell_names_file_line_system_topic_and_cell(tmp_path, cell, orientation):
    if orientation == "system":
        text = f"system,401,402,403\nrunA,0.1,0.2,0.3\nrunB,0.4,{cell},0.6\n"
        line = 3
    else:
        text = f"topic,runA,runB\n401,0.1,0.4\n402,0.2,{cell}\n403,0.3,0.6\n"
        line = 3
    p = write(tmp_path / "s.csv", text)
    with pytest.raises(FileFormatError) as info:
        datasets.read_csv(p)
    assert (info.value.path, info.value.line) == (str(p), line)
    assert re.fullmatch(rf"{re.escape(str(p))}:3: system 'runB', topic '402': {BAD_CELLS[cell]}.*", str(info.value))


@pytest.mark.parametrize("cell, value", list(GOOD_CELLS.items()), ids=[repr(c) for c in GOOD_CELLS])
def test_what_c_reads_in_full_is_read_the_same(tmp_path, cell, value):
    p = write(tmp_path / "s.csv", f"system,401,402\nrunA,{cell},0.3\nrunB,0.4,0.6\n")
    assert datasets.read_csv(p).scores[0, 0] == value


def test_the_command_shows_the_same_message(tmp_path, capsys):
    p = write(tmp_path / "s.csv", "system,401,402\nrunA,0.1,1_000\nrunB,0.4,0.6\n")
    assert main(["consistency", "--scores", str(p), "-n", "5"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"irmeans consistency: error: {p}:2: system 'runA', topic '402': score '1_000' is not a number " + (
        "(numbers are read as C reads them: digits with one '.' and an optional exponent, no '_' or ',')\n"
    )


def test_a_long_name_is_a_name_not_a_broken_file(tmp_path):
    long = "run-" + "x" * 300_000  # past csv's 128 KiB field limit
    p = write(tmp_path / "s.csv", f"system,401,402\n{long},0.1,0.2\nrunB,0.4,0.6\n")
    m = datasets.read_csv(p)
    assert m.systems == (long, "runB")
    import csv

    assert csv.field_size_limit() == 131072  # the module's limit is left as it was
    q = write(tmp_path / "t.csv", f'topic,"{long}",b\n401,0.1,0.2\n402,0.4,0.6\n')
    assert datasets.read_csv(q).systems == (long, "b")


def test_a_file_that_is_not_utf8_names_the_line(tmp_path):
    p = tmp_path / "s.csv"
    p.write_bytes(b"system,401,402\nrunA,0.1,0.2\nr\xe9sum\xe9,0.4,0.6\n")
    with pytest.raises(FileFormatError, match=r"s.csv:3: not UTF-8 text: byte 0xe9") as info:
        datasets.read_csv(p)
    assert info.value.line == 3


def test_many_systems_are_read_and_their_names_checked(tmp_path):
    n = 20_000
    rows = "".join(f"run{i},{i / n!r},{(n - i) / n!r}\n" for i in range(n))
    m = datasets.read_csv(write(tmp_path / "s.csv", "system,401,402\n" + rows))
    assert m.scores.shape == (n, 2) and m.systems[-1] == f"run{n - 1}"
    with pytest.raises(FileFormatError, match=rf"s2.csv:{n + 2}: system name 'run7' is repeated \(first on line 9\)"):
        datasets.read_csv(write(tmp_path / "s2.csv", "system,401,402\n" + rows + "run7,0.1,0.2\n"))


def test_the_shipped_matrices_read_through_the_same_syntax(monkeypatch):
    seen = []
    real = number_syntax.c_floats

    def spy(texts):
        seen.append(len(texts))
        return real(texts)

    monkeypatch.setattr(datasets, "c_floats", spy)
    m = datasets.load("adhoc8", "ap")
    assert len(seen) == m.shape[1] and set(seen) == {m.shape[0]}
    assert datasets.robertson_example().shape == (50,)


def test_c_floats_reads_as_c_float_does():
    texts = ["0.5", "1e-3", ".5", "5.", "-0", "0x1.8p1", "inf", "1e400"]
    values, bad = number_syntax.c_floats(texts)
    assert bad == -1
    assert values.tolist() == [number_syntax.c_float(t) for t in texts]
    for broken in (["0.5", "1_0"], ["0.5", ""], ["1e"], ["0.5", "\u0663"]):
        assert number_syntax.c_floats(broken)[1] == len(broken) - 1


@pytest.mark.parametrize(
    "option",
    [["-n", "1_0"], ["-n", "\u0663"], ["--seed", "0_1"], ["--digits", "1_0"], ["-a", "gm:1_0"], ["-a", "gm:0_5"]],
)
def test_every_numeric_option_reads_c_s_syntax(tmp_path, capsys, option):
    p = write(tmp_path / "s.csv", "system,401,402,403\nrunA,0.1,0.2,0.3\nrunB,0.4,0.5,0.6\nrunC,0.7,0.1,0.2\n")
    status = main(["consistency", "--scores", str(p), *option])
    out, err = capsys.readouterr()
    assert status in (1, 2) and out == "" and len(err.splitlines()) == 1
    assert option[1] in err


def test_numbers_c_reads_are_taken_in_options(tmp_path, capsys):
    p = write(tmp_path / "s.csv", "system,401,402,403\nrunA,0.1,0.2,0.3\nrunB,0.4,0.5,0.6\nrunC,0.7,0.1,0.2\n")
    assert main(["consistency", "--scores", str(p), "-n", "+10", "--seed", "007", "-a", "gm:.5e-1"]) == 0
    out = capsys.readouterr().out
    assert "gm:0.05" in out and "10 random splits (seed 7)" in out
    np.testing.assert_equal(number_syntax.c_float(".5e-1"), 0.05)


def test_an_unclosed_quote_is_named_with_its_line(tmp_path, capsys):
    from irmeans.cli import main

    path = tmp_path / "q.csv"
    path.write_text('system,t1,t2\nA,0.5,0.1\nB,"0.1,0.2\nC,0.3,0.4\n')
    assert main(["consistency", "--scores", str(path), "-n", "5"]) == 1
    err = capsys.readouterr().err
    assert f'{path}:3: a quote (") opened on this line is never closed' in err and "scores, but" not in err


def test_a_hexadecimal_score_reads_alike_in_every_reader(tmp_path):
    # C's strtod reads 0x1p-1 as 0.5, and so does every reader of irmeans, the files' and the Python API's
    import pandas as pd
    from irmeans import ScoreMatrix, datasets, evaluate

    path = tmp_path / "s.csv"
    path.write_text("system,t1,t2\nA,0x1p-1,0.1\nB,0.1,0.2\n")
    from_csv = datasets.read_csv(path).scores
    from_dict = ScoreMatrix.from_dict({"A": {"t1": "0x1p-1", "t2": 0.1}, "B": {"t1": 0.1, "t2": 0.2}}).scores
    frame = pd.DataFrame({"t1": ["0x1p-1", 0.1], "t2": [0.1, 0.2]}, index=["A", "B"], dtype=object)
    assert from_csv.tolist() == from_dict.tolist() == ScoreMatrix.from_frame(frame).scores.tolist()
    (tmp_path / "r.txt").write_text("1 Q0 a 1 0x1p-1 t\n1 Q0 b 2 0.25 t\n")
    run = evaluate((["1"], ["b"], [1]), str(tmp_path / "r.txt"), measures=["recip_rank"])
    assert run["recip_rank"].tolist() == [0.5]  # b (0.25) ranks after a (0x1p-1 = 0.5)
