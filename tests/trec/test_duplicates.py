"""A document retrieved (or judged) twice for a topic is found whatever the docnos' hashes.

Hashes of docnos only find candidates; the decision is made on the bytes. Here the hash is made
to collide on purpose (its range shrunk to a few values, or to one), so that docnos with equal
hashes sit between the two copies of a real duplicate: it must still be refused, as trec_eval
refuses it ("duplicate docs"), in runs and in qrels, by both readers and from arrays, and docnos
that only share a hash must not be taken for one another.
"""

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from irmeans.trec import strings
from irmeans.trec.duplicates import find_duplicate
from irmeans.trec.evaluate import evaluate
from irmeans.trec.files import Qrels, Run, read_qrels, read_run

_STRONG = strings.hash_strings


@pytest.fixture(params=["one value", "four values"])
def colliding(request, monkeypatch):
    """The docnos' hash shrunk to one value (everything collides) or to four."""
    if request.param == "one value":
        monkeypatch.setattr(strings, "hash_strings", lambda data, s, n: np.zeros(len(s), np.uint64))
    else:
        monkeypatch.setattr(
            strings, "hash_strings", lambda data, s, n: (_STRONG(data, s, n) & np.uint64(3)) << np.uint64(62)
        )
    return request.param


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


QRELS = "1 0 a 1\n1 0 b 0\n1 0 c 1\n2 0 a 1\n"
# a, then b and c (which share a's hash when it is shrunk), then a again: a is retrieved twice
RUN_TWICE = "1 Q0 a 1 3 t\n1 Q0 b 2 2 t\n1 Q0 c 3 1.5 t\n1 Q0 a 4 1 t\n2 Q0 a 1 1 t\n"


def test_a_run_with_a_document_twice_is_refused_whatever_the_hash(tmp_path, reader, colliding):
    run = write(tmp_path, "r.txt", RUN_TWICE)
    with pytest.raises(ValueError, match=r"r\.txt:4: document 'a' retrieved twice for topic '1' \(first on line 1\)"):
        read_run(run)
    with pytest.raises(ValueError, match=r"r\.txt:4: document 'a' retrieved twice for topic '1' \(first on line 1\)"):
        evaluate(write(tmp_path, "q.txt", QRELS), run, measures=["map"])


def test_qrels_with_a_document_judged_twice_are_refused_whatever_the_hash(tmp_path, reader, colliding):
    qrels = write(tmp_path, "q.txt", "1 0 a 1\n1 0 b 0\n1 0 a 0\n2 0 a 1\n")
    with pytest.raises(ValueError, match=r"q\.txt:3: document 'a' judged twice for topic '1' \(first on line 1\)"):
        read_qrels(qrels)


def test_arrays_with_a_document_twice_are_refused_whatever_the_hash(colliding):
    topics, docnos = ["1", "1", "1", "1", "2"], ["a", "b", "c", "a", "a"]
    with pytest.raises(ValueError, match=r"row 3: document 'a' retrieved twice for topic '1' \(first in row 0\)"):
        Run.from_arrays(topics, docnos, [3.0, 2.0, 1.5, 1.0, 1.0])
    with pytest.raises(ValueError, match=r"row 3: document 'a' judged twice for topic '1' \(first in row 0\)"):
        Qrels.from_arrays(topics, docnos, [1, 0, 1, 0, 1])
    with pytest.raises(ValueError, match="retrieved twice"):
        evaluate((["1"], ["a"], [1]), (topics, docnos, [3.0, 2.0, 1.5, 1.0, 1.0]), measures=["map"])


def test_documents_that_only_share_a_hash_are_told_apart(tmp_path, reader, colliding):
    run = RUN_TWICE.replace("1 Q0 a 4 1 t", "1 Q0 d 4 1 t")
    qrels, path = write(tmp_path, "q.txt", QRELS), write(tmp_path, "r.txt", run)
    measures = ["map", "relstring", "num_rel_ret", "P.2"]
    got = evaluate(qrels, path, measures=measures)
    assert got["relstring"].tolist() == ["'101-'", "'1'"]
    assert got["map"].tolist() == [(1 + 2 / 3) / 2, 1.0]


def brute_force(codes, names):
    """The pair whose later row comes first, by comparing every two rows."""
    for later in range(len(names)):
        for earlier in range(later):
            if codes[earlier] == codes[later] and names[earlier] == names[later]:
                return earlier, later
    return None


@given(
    rows=st.lists(st.tuples(st.integers(0, 2), st.sampled_from(["a", "b", "ab", "ba", "", "a" * 70])), max_size=25),
    bits=st.integers(0, 3),
)
def test_the_first_duplicate_is_found_exactly_for_any_hash(rows, bits):
    codes = np.array([c for c, _ in rows], dtype=np.int64)
    names = [n for _, n in rows]
    docnos = strings.Strings.from_sequence(names)
    with pytest.MonkeyPatch.context() as m:  # a hash of `bits` bits: 1 to 8 values
        m.setattr(
            strings,
            "hash_strings",
            lambda d, s, n: _STRONG(d, s, n) >> np.uint64(64 - bits) if bits else np.zeros(len(s), np.uint64),
        )
        assert find_duplicate(codes, docnos) == brute_force(codes.tolist(), names)


def test_every_order_of_three_copies_and_a_colliding_name(colliding):
    for order in itertools.permutations(["a", "a", "a", "b"]):
        docnos = strings.Strings.from_sequence(list(order))
        want = brute_force([0] * 4, list(order))
        assert find_duplicate(np.zeros(4, np.int64), docnos) == want


@given(
    codes=st.lists(st.integers(0, 5), min_size=1, max_size=60).map(sorted),
    back=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
)
def test_keys_sorted_in_two_halves_are_sorted_as_in_one(codes, back, seed):
    # the qrels' keys are sorted in two halves, in two threads, where the file's topics come in the order they
    # were coded; where a topic comes back (or there is one topic), in one go: the same order either way
    from irmeans.trec import duplicates

    codes = np.array(codes + ([0] if back else []), dtype=np.int32)
    hashes = np.random.default_rng(seed).integers(0, 4, len(codes), dtype=np.uint64) << np.uint64(60)
    key = duplicates.topic_keys(codes, hashes, duplicates.topic_bits(int(codes.max()) + 1))
    with pytest.MonkeyPatch.context() as m:
        m.setattr(duplicates, "_HALVES_FROM", 2)
        got = duplicates._key_order(key, codes)
    assert got.tolist() == np.argsort(key, kind="stable").tolist()


def test_qrels_sorted_in_halves_find_their_duplicate_and_their_documents(tmp_path, monkeypatch):
    from irmeans.trec import duplicates

    monkeypatch.setattr(duplicates, "_HALVES_FROM", 4)
    lines = [f"{t} 0 d{d} {d % 3}" for t in (1, 2, 3, 4) for d in range(6)]
    qrels = write(tmp_path, "q.txt", "\n".join(lines) + "\n")
    run = write(tmp_path, "r.txt", "".join(f"{t} Q0 d{d} {d} {9 - d} t\n" for t in (1, 2, 3, 4) for d in range(9)))
    got = evaluate(qrels, run, measures=["num_rel_ret", "relstring"])
    assert got["relstring"].tolist() == ["'012012---'"] * 4
    lines[20] = "4 0 d0 1"  # d0 judged twice for topic 4, in the second half
    with pytest.raises(ValueError, match=r"q2\.txt:21: document 'd0' judged twice for topic '4' \(first on line 19\)"):
        read_qrels(write(tmp_path, "q2.txt", "\n".join(lines) + "\n"))
