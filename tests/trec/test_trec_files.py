"""Tests of the TREC qrels and run readers."""

import os
import threading

import numpy as np
import pytest
from irmeans.trec.files import Qrels, Run, read_qrels, read_run
from irmeans.trec.strings import Strings


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_qrels_fields_comments_and_blank_lines(tmp_path):
    path = write(tmp_path, "q.txt", "# header\n1 0 d1 2\n\n1 0 doc#7_x -1\n  2 0 d3 0\n")
    q = read_qrels(path)
    assert q.topics.tolist() == [b"1", b"1", b"2"]
    assert q.docnos.tolist() == [b"d1", b"doc#7_x", b"d3"]
    assert q.rels.tolist() == [2, -1, 0]
    assert q.lines.tolist() == [2, 4, 5]


def test_qrels_without_final_newline(tmp_path):
    q = read_qrels(write(tmp_path, "q.txt", "1 0 d1 1\n1 0 d2 0"))
    assert q.rels.tolist() == [1, 0]


@pytest.mark.parametrize(
    "text, message",
    [
        ("1 0 d1 1\n1 0 d2\n", "q.txt:2: too few fields (3, a qrels line has exactly 4)"),
        ("1 0 d1 1 extra\n", "q.txt:1: too many fields (5, a qrels line has exactly 4)"),
        ("1 0 d1 1\n# c\n1 0 d2 x\n", "q.txt:3: relevance 'x' is not an integer"),
        ("1 0 d1 1\n1 0 d2 1.5\n", "q.txt:2: relevance '1.5' is not an integer"),
        ("1 0 d1 1\n2 0 d1 1\n1 0 d1 0\n", "q.txt:3: document 'd1' judged twice for topic '1' (first on line 1)"),
        ("# only a comment\n\n", "q.txt: no judgments in the file"),
    ],
)
def test_qrels_errors_name_file_and_line(tmp_path, text, message):
    path = write(tmp_path, "q.txt", text)
    with pytest.raises(ValueError) as err:
        read_qrels(path)
    assert str(err.value) == str(tmp_path / "q.txt") + message[len("q.txt") :]


def test_run_fields_extra_columns_and_comments(tmp_path):
    text = (
        "1 Q0 d1 1 2.5 tagA\n  # a comment, even indented\n1\tQ0\td#2\t2\t-1e3\ttagA extra fields\n\n2 Q0 d3 9 7 tagB\n"
    )
    r = read_run(write(tmp_path, "r.txt", text))
    assert r.topics.tolist() == [b"1", b"1", b"2"]
    assert r.docnos.tolist() == [b"d1", b"d#2", b"d3"]
    assert r.scores.tolist() == [2.5, -1000.0, 7.0]
    assert r.runid == "tagB"  # the tag of the last line, as trec_eval
    assert r.lines.tolist() == [1, 3, 5]


@pytest.mark.parametrize(
    "text, message",
    [
        ("1 Q0 d1 1 2.5 t\n1 Q0 d2 2 2.0\n", "r.txt:2: too few fields (5, a run line has at least 6)"),
        ("1 Q0 d1 1 2.5 t\n\n1 Q0 d2 2 abc t\n", "r.txt:3: score 'abc' is not a number"),
        ("1 Q0 d1 1 nan t\n", "r.txt:1: score 'nan' is not a number (NaN cannot be ranked)"),
        ("1 Q0 d1 1 2 t\n1 Q0 d2 2 -NaN t\n", "r.txt:2: score '-NaN' is not a number (NaN cannot be ranked)"),
        (
            "1 Q0 d1 1 2 t\n2 Q0 d1 1 2 t\n1 Q0 d1 5 1 t\n",
            "r.txt:3: document 'd1' retrieved twice for topic '1' (first on line 1)",
        ),
        ("", "r.txt: the run is empty"),
        ("# nothing\n", "r.txt: the run is empty"),
    ],
)
def test_run_errors_name_file_and_line(tmp_path, text, message):
    path = write(tmp_path, "r.txt", text)
    with pytest.raises(ValueError) as err:
        read_run(path)
    assert str(err.value) == str(tmp_path / "r.txt") + message[len("r.txt") :]


def test_missing_file(tmp_path):
    missing = str(tmp_path / "nope.txt")
    with pytest.raises(ValueError, match=r"nope\.txt: no such file$"):
        read_run(missing)
    with pytest.raises(ValueError, match=r"nope\.txt: no such file$"):
        read_qrels(missing)


def test_from_arrays():
    q = Qrels.from_arrays(["1", "1"], ["a", "b"], [1, 0])
    assert q.docnos.dtype.kind == "S" and q.rels.tolist() == [1, 0]
    r = Run.from_arrays(np.array(["1"]), [b"a"], [0.5], runid="x")
    assert r.topics.tolist() == [b"1"] and r.runid == "x"
    with pytest.raises(ValueError, match=r"<arrays>: score at index 0 is nan: values must be numbers \(not NaN\)"):
        Run.from_arrays(["1"], ["a"], [np.nan])
    with pytest.raises(ValueError, match=r"row 0: relevance 0\.5 is not an integer"):
        Qrels.from_arrays(["1"], ["a"], [0.5])


def test_from_arrays_rejects_duplicates_like_the_readers():
    # the same docno in two topics is fine; twice in one topic is not
    Qrels.from_arrays(["1", "2"], ["a", "a"], [1, 0])
    Run.from_arrays(["1", "2"], ["a", "a"], [1.0, 1.0])
    with pytest.raises(
        ValueError,
        match=r"^judgments: row 3: document 'a' judged twice for "
        r"topic '1' \(first in row 0\)$",
    ):
        Qrels.from_arrays(["1", "1", "2", "1"], ["a", "b", "a", "a"], [1, 0, 1, 0], source="judgments")
    with pytest.raises(
        ValueError,
        match=r"^<arrays>: row 2: document 'd' retrieved twice for "
        r"topic 'q' \(first in row 1\)$",
    ):
        Run.from_arrays(["q", "q", "q"], ["c", "d", "d"], [3.0, 2.0, 1.0])


def test_qrels_and_run_compare_by_identity_and_hash():
    # numpy fields: field-wise == would raise; identity equality keeps them usable in sets and dicts
    q = Qrels.from_arrays(["1", "1"], ["a", "b"], [1, 0])
    r = Run.from_arrays(["1"], ["a"], [0.5])
    assert q == q and r == r
    assert q != Qrels.from_arrays(["1", "1"], ["a", "b"], [1, 0])
    assert {q: 1, r: 2}[q] == 1 and hash(r) == hash(r)
    with pytest.raises(AttributeError):
        q.source = "other"  # still frozen


def test_hash_depends_on_the_bytes_alone():
    long_name = b"x" * 700 + b"tail"
    a = Strings.from_sequence([b"abc", b"abcdefghij", long_name]).hashes()
    b = Strings.from_sequence([b"zz" * 300, b"abc", long_name, long_name[:-1] + b"T"]).hashes()
    assert len({int(a[0]), int(a[1]), int(a[2])}) == 3
    assert a[0] == b[1] and a[2] == b[2] and b[2] != b[3]


# --- Chunked reading: any chunk size gives the same arrays and messages ---

import re  # noqa: E402

import irmeans.number_syntax as numbers  # noqa: E402
import irmeans.trec.source as source  # noqa: E402
from hypothesis import given  # noqa: E402
from hypothesis import strategies as st


def reference_run(text):
    """A plain Python reading of a run, for comparison."""
    topics, docnos, scores, lines = [], [], [], []
    for number, line in enumerate(text.encode().split(b"\n"), 1):
        fields = line.split()
        if not fields or fields[0].startswith(b"#"):
            continue
        topics.append(fields[0])
        docnos.append(fields[2])
        scores.append(float(fields[4]))
        lines.append(number)
    return topics, docnos, scores, lines


MESSY_RUN = (
    "# header\n"
    "1 Q0 d1 1 2.5 tagA\n"
    "1\tQ0\td#2\t2\t-1e3\ttagA extra fields\n"
    "\n"
    "   \n"
    "  # indented comment\n"
    "1 Q0 dx 3 .5 tagA\r\n"
    "2  Q0   a-long-document-name-over-16 4 +7 tagB \n"
    "2 Q0 d\x013 5 5. tagB\n"
    "2 Q0 d4 6 -0.0000012345 tagB\x0b\n"
    "3 Q0 d5 7 123456789012.5 tagC\n"
    "3 Q0 d6 8 1.23456789012345678 tagC"
)  # no final newline


@pytest.mark.parametrize("chunk", [1, 7, 16, 33, 64, 1 << 21])
def test_chunked_run_matches_reference(small_chunks, tmp_path, monkeypatch, chunk):
    small_chunks(chunk)
    r = read_run(write(tmp_path, "r.txt", MESSY_RUN))
    topics, docnos, scores, lines = reference_run(MESSY_RUN)
    assert r.topics.tolist() == topics
    assert r.docnos.tolist() == docnos
    assert r.scores.tolist() == scores
    assert r.lines.tolist() == lines
    assert r.runid == "tagC"


def regular_run(n, crlf=False, final_newline=True):
    rng = np.random.default_rng(n)
    end = "\r\n" if crlf else "\n"
    rows = [
        f"{100 + i // 7} Q0 doc{rng.integers(0, 10**6):07d}-{i} {i} {rng.normal() * 10:.{i % 6}f} run" for i in range(n)
    ]
    text = end.join(rows) + (end if final_newline else "")
    return text


@pytest.mark.parametrize("crlf", [False, True])
@pytest.mark.parametrize("final_newline", [False, True])
@pytest.mark.parametrize("chunk", [5, 100, 257, 1 << 21])
def test_chunk_boundaries_inside_lines(small_chunks, tmp_path, monkeypatch, crlf, final_newline, chunk):
    text = regular_run(300, crlf, final_newline)
    path = write(tmp_path, "r.txt", "")
    with open(path, "w", newline="") as fh:
        fh.write(text)
    small_chunks(chunk)
    r = read_run(path)
    topics, docnos, scores, lines = reference_run(text)
    assert r.topics.tolist() == topics
    assert r.docnos.tolist() == docnos
    assert r.scores.tolist() == scores
    assert r.lines.tolist() == lines


@pytest.mark.parametrize("chunk", [3, 20, 1 << 21])
def test_chunked_qrels(small_chunks, tmp_path, monkeypatch, chunk):
    text = "# c\n1 0 d1 2\n\n1 0 doc#7_x -1\n  2 0 d3 0\n2\t0\td4\t+3\r\n2 0 d5 007"
    small_chunks(chunk)
    q = read_qrels(write(tmp_path, "q.txt", text))
    assert q.topics.tolist() == [b"1", b"1", b"2", b"2", b"2"]
    assert q.docnos.tolist() == [b"d1", b"doc#7_x", b"d3", b"d4", b"d5"]
    assert q.rels.tolist() == [2, -1, 0, 3, 7]
    assert q.lines.tolist() == [2, 4, 5, 6, 7]


@pytest.mark.parametrize("chunk", [4, 16, 1 << 21])
def test_field_count_error_beats_earlier_value_error(small_chunks, tmp_path, monkeypatch, chunk):
    # as if the file were checked in one go: wrong field counts first
    text = "1 Q0 d1 1 abc t\n" + "1 Q0 d2 2 2 t\n" * 5 + "1 Q0 d9 3 2\n"
    small_chunks(chunk)
    with pytest.raises(ValueError) as err:
        read_run(write(tmp_path, "r.txt", text))
    assert str(err.value).endswith("r.txt:7: too few fields (5, a run line has at least 6)")
    text = "1 0 d1 x\n" + "1 0 d2 1\n" * 5 + "1 0 d3 1 1\n"
    with pytest.raises(ValueError) as err:
        read_qrels(write(tmp_path, "q.txt", text))
    assert str(err.value).endswith("q.txt:7: too many fields (5, a qrels line has exactly 4)")


@pytest.mark.parametrize("chunk", [6, 1 << 21])
def test_errors_name_the_right_line_with_small_chunks(small_chunks, tmp_path, monkeypatch, chunk):
    small_chunks(chunk)
    text = "1 Q0 d1 1 2 t\n" * 3 + "\n# c\n" + "1 Q0 d5 5 nan t\n"
    with pytest.raises(ValueError, match=r"r\.txt:6: score 'nan' is not a number \(NaN cannot be ranked\)$"):
        read_run(write(tmp_path, "r.txt", text))
    text = "1 0 d1 1\n1 0 d2 1\n\n1 0 d1 0\n"
    with pytest.raises(
        ValueError,
        match=r"q\.txt:4: document 'd1' judged twice for topic '1' "
        r"\(first on line 1\)$",
    ):
        read_qrels(write(tmp_path, "q.txt", text))


@given(
    st.lists(
        st.one_of(
            st.floats(allow_nan=False, allow_infinity=False).map(repr),
            st.tuples(st.floats(-1e6, 1e6), st.integers(0, 12)).map(lambda t: f"{t[0]:.{t[1]}f}"),
            st.from_regex(r"[+-]?[0-9]{0,20}(\.[0-9]{0,20})?", fullmatch=True).filter(
                lambda s: any(c.isdigit() for c in s)
            ),
        ),
        min_size=1,
        max_size=40,
    )
)
def test_scores_parse_like_python_float(texts):
    # all tokens, and the short ones alone (a narrower matrix of bytes)
    for batch in (texts, [t for t in texts if len(t) <= 8]):
        if not batch:
            continue
        values, ok = numbers._decimal(*as_words(batch), fraction=True)
        want = np.array([float(t) for t in batch])
        assert np.array_equal(values[ok], want[ok])
        assert np.array_equal(np.signbit(values[ok]), np.signbit(want[ok]))
        # the fast path takes only plain decimals of at most 19 digits (15 without an 80-bit long double),
        # and every one of at most 15
        most = 19 if numbers._EXTENDED else 15
        for text, taken in zip(batch, ok.tolist()):
            assert plain_decimal(text, r"\.?", 15) <= taken <= plain_decimal(text, r"\.?", most)


def plain_decimal(text, dot, most):
    digits = sum(c in "0123456789" for c in text)
    return bool(re.fullmatch(rf"[+-]?[0-9]*{dot}[0-9]*", text)) and 1 <= digits <= most and len(text) <= 40


def as_words(texts):
    s = np.array([t.encode() for t in texts])
    words = np.zeros((len(s), -(-s.dtype.itemsize // 8)), dtype="<u8")
    words.view(f"S{8 * words.shape[1]}")[:, 0] = s
    return words, np.array([len(t.encode()) for t in texts])


@given(
    st.lists(
        st.one_of(
            st.integers(-(10**18), 10**18).map(str),
            st.from_regex(r"[+-]?0*[0-9]{1,5}", fullmatch=True),
            st.sampled_from(["1.0", "x", "-", "+", "1e3", "٣"]),
        ),
        min_size=1,
        max_size=30,
    )
)
def test_grades_parse_like_python_int(texts):
    for batch in (texts, [t for t in texts if len(t.encode()) <= 8]):
        if not batch:
            continue
        values, ok = numbers._decimal(*as_words(batch), fraction=False)
        for v, good, t in zip(values.tolist(), ok.tolist(), batch):
            assert good == plain_decimal(t, "", 18)
            if good:
                assert v == int(t)


def _through_fifo(tmp_path, name, text, read):
    """``read`` applied to a FIFO that a thread fills with ``text``."""
    fifo = tmp_path / name
    os.mkfifo(fifo)
    writer = threading.Thread(target=lambda: fifo.write_bytes(text.encode()))
    writer.start()
    try:
        return read(str(fifo))
    finally:
        writer.join()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_reading_a_pipe_gives_what_the_file_gives_in_full_chunks(tmp_path):
    run = "".join(f"{t} Q0 doc{d} {d} {1 - d / 1000:.4f} bm25\n" for t in range(5) for d in range(400))
    qrels = "".join(f"{t} 0 doc{d} {d % 3}\n" for t in range(5) for d in range(0, 400, 7))
    from_file = read_run(write(tmp_path, "r.txt", run))
    from_pipe = _through_fifo(tmp_path, "r.fifo", run, read_run)
    for field in ("topics", "docnos", "scores", "lines"):
        assert np.array_equal(getattr(from_pipe, field), getattr(from_file, field)), field
    assert from_pipe.runid == from_file.runid == "bm25"
    from_file = read_qrels(write(tmp_path, "q.txt", qrels))
    from_pipe = _through_fifo(tmp_path, "q.fifo", qrels, read_qrels)
    for field in ("topics", "docnos", "rels", "lines"):
        assert np.array_equal(getattr(from_pipe, field), getattr(from_file, field)), field
    # a pipe reports size 0: its pieces must still be chunk-sized, not a line each
    newlines = _through_fifo(tmp_path, "n.fifo", run, lambda name: [c.newlines for c in source.chunks(name)])
    assert newlines == [2000]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_docnos_gathered_past_32_bit_offsets_get_64_bit_ones(small_chunks, tmp_path, monkeypatch):
    # a pipe's size is unknown: its rows are gathered into a buffer that grows as they come, their
    # docnos' offsets 32-bit while the buffer is under 2 GiB (here a limit of 3,000 bytes) and 64-bit past it
    import irmeans.trec.files as files

    small_chunks(512)
    monkeypatch.setattr(files, "_INT32_MAX", 3000)
    qrels = "".join(f"{t} 0 doc-{t}-{d:04d} {d % 3}\n" for t in range(1, 4) for d in range(200))
    from_pipe = _through_fifo(tmp_path, "q.fifo", qrels, read_qrels)
    assert from_pipe.docno_strings.starts.dtype == np.int64
    assert from_pipe.docnos.tolist() == [f"doc-{t}-{d:04d}".encode() for t in range(1, 4) for d in range(200)]
