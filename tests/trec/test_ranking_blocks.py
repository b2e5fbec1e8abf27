"""Ranking a run block by block as it is read: every layout around the boundaries of the pieces.

A run file is read in pieces that end where the topic changes, and ranked and joined a block
of whole topics at a time (``run_blocks.RunReader``): a topic may be longer than a piece and end
several pieces later, a piece may hold one topic or many, and a file whose topics come back
after others is read again, whole, when a topic does.  A big block is ordered by pyarrow's
sort (``ranking.ARROW_ROWS``).
The ranking must be trec_eval's whatever the run's size, the pieces' size and the layout:
score descending, docno descending (``strcmp``) on ties, each topic on its own.  Each
document is judged with a grade of its own, so the grades of the ranked rows spell out the
ranking, which is compared with a plain Python sort.
"""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from irmeans.trec import files, join, ranking, run_blocks, source
from irmeans.trec.evaluate import evaluate
from irmeans.trec.files import Qrels, Run
from irmeans.trec.ranked import NONPOOL, UNJUDGED
from irmeans.trec.run_blocks import InMemory, RunReader


def expected_ranking(topics, docnos, scores, evaluated):
    """Each evaluated topic's docnos in trec_eval's order, topics in strcmp order."""
    out = []
    for t in sorted(set(topics) & evaluated, key=lambda s: s.encode()):
        rows = [(s, d.encode()) for tt, d, s in zip(topics, docnos, scores) if tt == t]
        rows.sort(key=lambda r: (-r[0], [-b for b in r[1]] + [1]))  # docno descending as strcmp
        out.append((t, [d.decode() for _, d in rows]))
    return out


def grades(topics, docnos, judged_topics):
    """Qrels judging every document of the judged topics with a grade of its own: (qrels, name of each grade)."""
    ids = {d: i + 1 for i, d in enumerate(sorted(set(docnos)))}
    qt, qd, qg = [], [], []
    for t in judged_topics:
        for d in sorted({d for tt, d in zip(topics, docnos) if tt == t}):
            qt.append(t)
            qd.append(d)
            qg.append(ids[d])
    return Qrels.from_arrays(qt, qd, qg), {i: d for d, i in ids.items()}


def ranking_of(ranked, names):
    out = []
    for k, t in enumerate(ranked.topics):
        rows = ranked.rel[ranked.seg == k]
        assert ranked.pos[ranked.seg == k].tolist() == list(range(len(rows)))
        out.append((t.decode(), [names[int(g)] for g in rows]))
    return out


def write_run(path, topics, docnos, scores):
    path.write_text(
        "".join(f"{t} Q0 {d} {i} {float(s)!r} r\n" for i, (t, d, s) in enumerate(zip(topics, docnos, scores)))
    )
    return str(path)


@st.composite
def runs(draw):
    """A run with 1-8 topics of 1-300 rows, listed in blocks or interleaved, with heavy ties."""
    n_topics = draw(st.integers(1, 8))
    sizes = draw(st.lists(st.integers(1, 300), min_size=n_topics, max_size=n_topics))
    names = [f"{100 + k}" for k in range(n_topics)]
    rows = []
    for name, size in zip(names, sizes):
        scores = draw(st.lists(st.sampled_from([0.0, 0.5, 1.0, 2.5, -1.0]), min_size=size, max_size=size))
        rows += [(name, f"d{name}-{i % 97}-{i}", s) for i, s in enumerate(scores)]
    if draw(st.booleans()):  # topics interleaved: not one stretch each
        rows = draw(st.permutations(rows))
    judged = set(draw(st.lists(st.sampled_from(names), min_size=1, unique=True)))
    return [r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows], judged


@settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=runs(), piece=st.sampled_from([1, 24, 64, 100, 256, 257, 1000, 1 << 21]))
def test_a_run_file_is_ranked_as_trec_eval_ranks_it_whatever_the_pieces(
    small_chunks, tmp_path_factory, monkeypatch, data, piece
):
    topics, docnos, scores, judged = data
    small_chunks(piece)  # pieces of a line or two up to the whole file
    path = write_run(tmp_path_factory.mktemp("run") / "r.txt", topics, docnos, scores)
    qrels, names = grades(topics, docnos, judged)
    got = ranking_of(join.build_ranked(qrels, RunReader(path)), names)
    assert got == expected_ranking(topics, docnos, scores, judged)


@settings(max_examples=100, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=runs(), rows=st.sampled_from([1, 7, 64, 257, 10**9]))
def test_a_run_in_memory_is_ranked_as_trec_eval_ranks_it_by_either_sort(monkeypatch, data, rows):
    pytest.importorskip("pyarrow")
    import pyarrow  # noqa: F401 - loaded, so that big blocks go to its sort

    topics, docnos, scores, judged = data
    monkeypatch.setattr(ranking, "ARROW_ROWS", rows)
    qrels, names = grades(topics, docnos, judged)
    got = ranking_of(join.build_ranked(qrels, InMemory(Run.from_arrays(topics, docnos, scores))), names)
    assert got == expected_ranking(topics, docnos, scores, judged)


@pytest.mark.parametrize("n_topics", [25, 26])
@pytest.mark.parametrize("source", ["file", "arrays"])
def test_26_topics_of_10100_documents(tmp_path, n_topics, source):
    # the shape that crashed the range-by-range sort: the last topic crossing 262,144 rows
    docs = 10100
    topics = np.repeat([str(t + 1) for t in range(n_topics)], docs)
    docnos = np.tile([f"d{d}" for d in range(docs)], n_topics)
    scores = np.tile(np.arange(docs, 0, -1, dtype=float), n_topics)
    judged = [f"d{d}" for d in range(0, 201, 3)]
    qrels = (np.repeat([str(t + 1) for t in range(n_topics)], len(judged)), np.tile(judged, n_topics))
    rels = np.ones(len(qrels[0]), dtype=int)
    run = (topics, docnos, scores) if source == "arrays" else write_run(tmp_path / "r.txt", topics, docnos, scores)
    ev = evaluate((*qrels, rels), run, measures=["map", "P.10", "num_ret"])
    assert ev.topics == sorted(str(t + 1) for t in range(n_topics))
    assert ev.aggregates["num_ret"] == n_topics * docs
    # every topic ranks d0, d1, ... : relevant at ranks 1, 4, 7, ..., 199 (67 of them)
    assert ev.per_topic["P_10"].tolist() == [0.4] * n_topics
    expected_ap = sum((k + 1) / (3 * k + 1) for k in range(67)) / 67
    assert np.allclose(ev.per_topic["map"], expected_ap, rtol=0, atol=1e-15)


def test_one_tied_topic_across_many_pieces(small_chunks, tmp_path, monkeypatch):
    small_chunks(1 << 12)
    n = 20_000
    docnos = [f"doc{i:07d}" for i in range(n)]
    path = write_run(tmp_path / "r.txt", ["7"] * n, docnos, [0.0] * n)
    ev = evaluate((["7"], [docnos[-1]], [1]), path, measures=["recip_rank", "num_ret"])
    assert ev.per_topic["recip_rank"].tolist() == [1.0]  # the highest docno comes first on a tie
    assert ev.aggregates["num_ret"] == n


def read_all_ahead(items):
    """Every piece split before the first is used: the topic table holds the file's topics from the start."""
    yield from list(items)


@pytest.mark.parametrize("ahead", ["a piece ahead", "every piece ahead"])
@pytest.mark.parametrize("back", [True, False])
def test_a_file_in_stretches_is_read_once_in_blocks_of_whole_topics_and_one_that_comes_back_again_whole(
    small_chunks, tmp_path, monkeypatch, back, ahead
):
    small_chunks(64)
    if ahead == "every piece ahead":  # a topic seen first in a later piece is not one that comes back
        monkeypatch.setattr(files, "ahead", read_all_ahead)
    calls = []
    real = files.pieces
    counted = lambda *a, **k: calls.append(k.get("stretches", False)) or real(*a, **k)  # noqa: E731
    monkeypatch.setattr(files, "pieces", counted)
    monkeypatch.setattr(run_blocks, "pieces", counted)
    topics = ["1"] * 40 + ["2"] * 40 + (["1"] * 5 if back else ["3"] * 5)
    docnos = [f"d{i}" for i in range(85)]
    scores = [float(i % 7) for i in range(85)]
    path = write_run(tmp_path / "r.txt", topics, docnos, scores)
    blocks = RunReader(path).map(lambda b: [b.topic_ids[c] for c in b.topic_codes.tolist()])
    # streamed: several blocks, each topic whole in one of them; a topic that comes back: the file as one block
    assert len(blocks) == 1 if back else len(blocks) > 1
    for topic in (b"1", b"2", b"3"):
        assert [b.count(topic) for b in blocks if topic in b] in ([], [topics.count(topic.decode())])
    assert calls == ([True, False] if back else [True])
    qrels, names = grades(topics, docnos, set(topics))
    got = ranking_of(join.build_ranked(qrels, RunReader(path)), names)
    assert got == expected_ranking(topics, docnos, scores, set(topics))


def test_a_duplicate_and_a_later_bad_line_report_the_bad_line_first(small_chunks, tmp_path, monkeypatch):
    # as when the file is read whole: field counts and values are checked before duplicates
    small_chunks(64)
    lines = [f"1 Q0 d{i} {i} 1 r" for i in range(30)] + ["1 Q0 d3 31 0 r"] + [f"2 Q0 e{i} {i} 1 r" for i in range(30)]
    lines[50] = "2 Q0 e19 19 r"
    (tmp_path / "r.txt").write_text("\n".join(lines) + "\n")
    with pytest.raises(ValueError, match=r"r\.txt:51: too few fields"):
        evaluate((["1"], ["d1"], [1]), str(tmp_path / "r.txt"), measures=["map"])
    lines[50] = "2 Q0 e19 19 1 r"
    (tmp_path / "r.txt").write_text("\n".join(lines) + "\n")
    with pytest.raises(ValueError, match=r"r\.txt:31: document 'd3' retrieved twice for topic '1' \(first on line 4\)"):
        evaluate((["1"], ["d1"], [1]), str(tmp_path / "r.txt"), measures=["map"])


@settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    data=runs(),
    grades=st.lists(st.sampled_from([None, 0, 1, 2, -1]), min_size=1, max_size=10),
    depth=st.sampled_from([None, 1, 3, 50]),
)
def test_ranked_grades_are_trec_eval_s_when_many_documents_share_a_grade(monkeypatch, data, grades, depth):
    # documents tied on score with one grade may come in any order; the ranked grades may not
    topics, docnos, scores, judged = data
    qt, qd, qg = [], [], []
    for i, (t, d) in enumerate(zip(topics, docnos)):
        g = grades[i % len(grades)]
        if t in judged and g is not None:
            qt.append(t)
            qd.append(d)
            qg.append(g)
    if not qt:
        return
    grade_of = {(t, d): g for t, d, g in zip(qt, qd, qg)}
    ranked = join.build_ranked(
        Qrels.from_arrays(qt, qd, qg), InMemory(Run.from_arrays(topics, docnos, scores)), depth=depth
    )
    want = []
    for t, docs in expected_ranking(topics, docnos, scores, set(qt)):
        for d in docs[:depth]:
            g = grade_of.get((t, d))
            want.append(NONPOOL if g is None else (UNJUDGED if g < 0 else g))
    assert ranked.rel.tolist() == want


# --- Chunks that end where the topic changes, decided on the bytes ---------------------------


def first_field(line):
    """A line's first field, or None if it does not start with one (blank, comment, leading blank)."""
    return None if not line or line[0] <= 32 or line[:1] == b"#" else line.split()[0]


@st.composite
def run_lines(draw):
    """Lines of runs: stretches of topics (short, 8 bytes and more than 32), some coming back, and odd lines."""
    names = [b"1", b"22", b"7_3", b"abcdefgh", b"x" * 40, b"1234567890" * 3 + b"123456789"]
    lines = []
    for _ in range(draw(st.integers(1, 12))):
        topic = draw(st.sampled_from(names))
        sep = draw(st.sampled_from([b" ", b"\t"]))
        for i in range(draw(st.integers(1, 40))):
            lines.append(topic + sep + b"Q0 d%d %d 1.5 r" % (i, i))
        if draw(st.integers(0, 5)) == 0:
            lines.append(draw(st.sampled_from([b"", b"# a comment", b"  1 Q0 dd 1 1 r", b"\t"])))
    return lines


@given(lines=run_lines(), size=st.sampled_from([16, 64, 256, 1000]), end=st.sampled_from([b"\n", b""]))
def test_chunks_end_where_the_first_field_changes_and_keep_every_byte(tmp_path_factory, lines, size, end):
    path = tmp_path_factory.mktemp("chunks") / "r.txt"
    text = b"\n".join(lines) + end
    path.write_bytes(text)
    got = list(source.chunks(str(path), size, stretches=True))
    assert b"".join(bytes(c.raw[: c.n]) for c in got) == text + (b"\n" if text and not text.endswith(b"\n") else b"")
    line = 1
    for c, after in zip(got, got[1:] + [None]):
        assert c.first_line == line
        line += bytes(c.raw[: c.n]).count(b"\n")
        if after is None or c.goes_on:
            continue
        last = bytes(c.raw[: c.n]).split(b"\n")[-2]
        nxt = bytes(after.raw[: after.n]).split(b"\n")[0]
        # a chunk that does not go on ends at a change of first field, between two lines that start with one
        assert first_field(last) is not None and first_field(nxt) is not None
        assert first_field(last) != first_field(nxt)
    plain = all(first_field(x) is not None and len(first_field(x)) <= 39 for x in lines)
    if plain:
        assert not any(c.goes_on for c in got)


def test_a_stretch_longer_than_its_limit_goes_on_in_the_next_chunk(tmp_path, monkeypatch):
    monkeypatch.setattr(source, "MAX_STRETCH_BYTES", 256)
    text = b"".join(b"7 Q0 d%d %d 1 r\n" % (i, i) for i in range(100)) + b"8 Q0 e 1 1 r\n"
    (tmp_path / "r.txt").write_bytes(text)
    got = list(source.chunks(str(tmp_path / "r.txt"), 64, stretches=True))
    assert b"".join(bytes(c.raw[: c.n]) for c in got) == text
    assert any(c.goes_on for c in got) and max(c.n for c in got) <= 256
