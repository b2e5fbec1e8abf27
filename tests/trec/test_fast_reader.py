"""The pyarrow fast path of the readers gives what the exact reader gives, or leaves the piece to it."""

import numpy as np
import pytest
from irmeans.trec import files, ranking
from irmeans.trec.evaluate import evaluate
from irmeans.trec.files import read_qrels, read_run
from irmeans.trec.segments import seg_cumsum


def write(tmp_path, name, data):
    path = tmp_path / name
    path.write_bytes(data if isinstance(data, bytes) else data.encode())
    return str(path)


@pytest.fixture(autouse=True)
def fast_for_every_file(monkeypatch):
    """Every file here goes to pyarrow's tokeniser, however small (it takes only big ones otherwise)."""
    monkeypatch.setattr(files, "ARROW_BYTES", 0)


def exact(monkeypatch, reader, path, **kw):
    with monkeypatch.context() as m:
        m.setattr(files, "ARROW_BYTES", 1 << 62)
        return reader(path, **kw)


def same_run(a, b):
    assert a.topics.tolist() == b.topics.tolist()
    assert a.docnos.tolist() == b.docnos.tolist()
    assert a.scores.tolist() == b.scores.tolist()
    assert [str(x) for x in np.signbit(a.scores)] == [str(x) for x in np.signbit(b.scores)]
    assert a.runid == b.runid
    assert list(np.asarray(a.lines)) == list(np.asarray(b.lines))


def same_qrels(a, b):
    assert a.topics.tolist() == b.topics.tolist()
    assert a.docnos.tolist() == b.docnos.tolist()
    assert a.rels.tolist() == b.rels.tolist()
    assert list(np.asarray(a.lines)) == list(np.asarray(b.lines))


RUNS = [
    "1 Q0 d1 1 2.5 tag\n1 Q0 d2 2 -1e3 tag\n2 Q0 d3 1 .5 tag\n2 Q0 d4 2 7. tagB",
    "1 Q0 d1 1 +2.5 tag extra\n1 Q0 d2 2 -0 tag extra\n",
    "1\tQ0\td1\t1\t2.5\ttag\n1\tQ0\td2\t2\t1e-320\ttag\n",
    "1 Q0 d1 1 0x1p3 tag\n1 Q0 d2 2 1 tag\n",  # hexadecimal: only C reads it
    "1 Q0 d1 1 1.7976931348623157e308 tag\n1 Q0 d2 2 123456789012345678901234567890 tag\n",
    "1 Q0 d1 1 2.5 tag\n1  Q0 d2 2 1 tag\n",  # two spaces
    "1 Q0 d1 1 2.5 tag\n#1 Q0 d2 2 1 tag\n",  # a comment
    "1 Q0 d1 1 2.5 tag \n1 Q0 d2 2 1 tag \n",  # trailing blanks
    "\ufeff1 Q0 d1 1 2.5 tag\n",  # a byte-order mark is part of the topic
    "1 Q0 d1 1 2.5 tag\r\n1 Q0 d2 2 1 tag\r\n",
    "1 Q0 d1\t1 2.5 tag\n",  # space and tab
    "1 Q0 d\x0b1 1 2.5 tag\n",
    "1 Q0 d1 1 2.5 tag\n\n1 Q0 d2 2 1 tag\n",  # a blank line
    "t\xe9 Q0 d\xff 1 2.5 \xfe\n",  # not UTF-8
    "1 Q0 a 1 inf t\n1 Q0 b 2 -inf t\n1 Q0 c 3 INF t\n1 Q0 d 4 1e400 t\n1 Q0 e 5 Infinity t\n1 Q0 f 6 -1E999 t\n",
]


@pytest.mark.parametrize("text", RUNS)
@pytest.mark.parametrize("chunk", [8, 1 << 21])
def test_run_fast_path_reads_what_the_exact_reader_reads(small_chunks, tmp_path, monkeypatch, text, chunk):
    small_chunks(chunk)
    data = text.encode("latin-1") if "\xff" in text else text.encode()
    path = write(tmp_path, "r.txt", data)
    same_run(read_run(path), exact(monkeypatch, read_run, path))


QRELS = [
    "1 0 d1 1\n1 0 d2 0\n2 0 d3 -2\n",
    "1\t0\td1\t1\n1\t0\td2\t+3\n",
    "1 0 d1 007\n1 0 d2 -0\n",
    "1 0 d1 9223372036854775806\n1 0 d2 -9223372036854775808\n",
]


@pytest.mark.parametrize("text", QRELS)
def test_qrels_fast_path_reads_what_the_exact_reader_reads(tmp_path, monkeypatch, text):
    path = write(tmp_path, "q.txt", text)
    same_qrels(read_qrels(path), exact(monkeypatch, read_qrels, path))


@pytest.mark.parametrize(
    "text, message",
    [
        ("1 0 d1 0x10\n", "relevance '0x10' is not an integer"),
        ("1 0 d1 9223372036854775808\n", "out of range"),
        ("1 0 d1 1 5\n", "too many fields"),
        ("1 0 d1\n", "too few fields"),
    ],
)
def test_qrels_the_fast_path_leaves_to_the_exact_reader(tmp_path, text, message):
    with pytest.raises(ValueError, match=message):
        read_qrels(write(tmp_path, "q.txt", text))


@pytest.mark.parametrize("score", ["nan", "NAN", "-nan", "1_0", "0x", "--1", "infinit"])
def test_bad_scores_get_the_exact_readers_message(tmp_path, score):
    with pytest.raises(ValueError, match=r"r\.txt:2: score"):
        read_run(write(tmp_path, "r.txt", f"1 Q0 d1 1 1 t\n1 Q0 d2 2 {score} t\n"))


def regular_run(rng, topics, docs):
    lines = []
    for t in rng.permutation(topics):
        names = rng.choice(10**6, size=docs, replace=False)
        scores = np.sort(np.round(rng.normal(size=docs), 1))[::-1]
        lines += [f"{t} Q0 doc-{n} {i + 1} {s} run" for i, (n, s) in enumerate(zip(names, scores))]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("seed", [0, 1])
def test_big_runs_rank_and_join_as_the_exact_path(small_chunks, tmp_path, monkeypatch, seed):
    # blocks of more rows than ranking.ARROW_ROWS: ranked by pyarrow's sort
    rng = np.random.default_rng(seed)
    run_text = regular_run(rng, [str(100 + t) for t in range(60)], 500)
    judged = {(str(100 + t), f"doc-{n}"): rng.integers(-1, 3) for t in range(62) for n in rng.choice(10**6, 300)}
    # every third docno of the run judged too, so that many match
    for line in run_text.splitlines()[::3]:
        t, _, d = line.split()[:3]
        judged[t, d] = rng.integers(0, 3)
    qrels = "".join(f"{t} 0 {d} {g}\n" for (t, d), g in judged.items())
    rpath, qpath = write(tmp_path, "r.txt", run_text), write(tmp_path, "q.txt", qrels)
    small_chunks(1 << 14)
    monkeypatch.setattr(ranking, "ARROW_ROWS", 1000)  # pieces of ~1,100 lines: blocks sorted by pyarrow
    fast = evaluate(qpath, rpath, measures=["all_trec"], complete=True)
    with monkeypatch.context() as m:
        m.setattr(files, "ARROW_BYTES", 1 << 62)
        m.setattr(ranking, "ARROW_ROWS", 10**9)
        slow = evaluate(qpath, rpath, measures=["all_trec"], complete=True)
    assert fast.topics == slow.topics
    for name in slow.per_topic:
        a, b = fast.per_topic[name], slow.per_topic[name]
        assert a.tolist() == b.tolist(), name


@pytest.mark.parametrize("depth", [None, 2])
def test_documents_retrieved_twice_are_found_while_joining(tmp_path, depth):
    rows = [f"1 Q0 d{i} {i} {100 - i} r" for i in range(30000)] + ["1 Q0 d7 30001 -5 r", "9 Q0 x 1 1 r"]
    rpath = write(tmp_path, "r.txt", "\n".join(rows) + "\n")
    qpath = write(tmp_path, "q.txt", "1 0 d7 1\n")
    with pytest.raises(
        ValueError, match=r"r\.txt:30001: document 'd7' retrieved twice for topic '1' \(first on line 8\)"
    ):
        evaluate(qpath, rpath, measures=["map"], depth=depth)
    with pytest.raises(ValueError, match="retrieved twice"):
        read_run(rpath)


def test_seg_cumsum_in_order_equals_the_grouped_sum():
    rng = np.random.default_rng(3)
    lengths = np.array([5, 5, 0, 7, 7, 7, 1, 5])
    seg = np.repeat(np.arange(len(lengths)), lengths)
    pos = np.concatenate([np.arange(k) for k in lengths])
    values = rng.normal(size=len(seg))
    got = seg_cumsum(values, seg, pos, lengths)
    want = np.concatenate([np.cumsum(values[seg == s]) for s in range(len(lengths))])
    assert got.tolist() == want.tolist()
    # rows out of segment order: the grouped path
    o = rng.permutation(len(seg))
    assert seg_cumsum(values[o], seg[o], pos[o], lengths).tolist() == want[o].tolist()
