"""The shipped data: the TREC score matrices, their catalogue, a user's CSV, Robertson's example."""

import csv
import hashlib
from importlib import resources

import numpy as np
import pytest
from irmeans import datasets
from irmeans.errors import FileFormatError, IrmeansError

# Sizes as the archives' README gives them: topics x systems.
SIZES = {
    "adhoc5": (50, 61),
    "adhoc6": (50, 74),
    "adhoc7": (50, 103),
    "adhoc8": (50, 129),
    "robust2004": (249, 110),
    "terabyte2006": (149, 61),
    "web2010": (48, 88),
    "web2011": (50, 62),
    "web2012": (50, 48),
    "web2013": (50, 34),
    "web2014": (50, 30),
}


def test_catalog_lists_46_matrices_with_their_sizes():
    rows = datasets.catalog()
    assert len(rows) == 46
    assert len({r.name for r in rows}) == 46
    for r in rows:
        assert (r.topics, r.systems) == SIZES[r.collection]
        assert r.track.startswith("TREC") and str(r.year) in r.track + str(r.year)
        assert r.bibkey in {"urbano2019statistical", "urbano2018simulation", "urbano2019standardization"}
        assert "SIGIR" in r.citation
    measures = {}
    for r in rows:
        measures.setdefault(r.collection, []).append(r.measure)
    assert measures["adhoc8"] == ["ap", "p10", "rr"]
    assert measures["web2012"] == ["ap", "p10", "p20", "rr", "ndcg20", "err20"]
    assert measures["terabyte2006"] == ["ap", "ndcg"]


@pytest.mark.parametrize("entry", datasets.catalog(), ids=lambda e: e.name)
def test_load_matches_the_file_read_independently(entry):
    m = datasets.load(entry.collection, entry.measure)
    text = datasets.data_file(f"{entry.name}.csv").read_text()
    rows = list(csv.reader(text.splitlines()))
    body = np.array([[float(v) for v in r] for r in rows[1:]])
    if rows[0][0] == "topic":
        assert m.topics == tuple(r[0] for r in rows[1:])
        body = body[:, 1:]
    else:
        assert m.topics == tuple(str(i) for i in range(1, len(rows)))
    np.testing.assert_array_equal(m.scores, body.T)  # systems x topics
    assert m.shape == (entry.systems, entry.topics)
    assert len(m.systems) == entry.systems and len(set(m.systems)) == entry.systems
    assert ((m.scores >= 0) & (m.scores <= 1)).all()
    assert not m.scores.flags.writeable
    assert m.collection == entry.collection and m.measure == entry.measure and m.citation == entry.citation


def test_the_files_are_shipped_unchanged():
    # The TREC8 AP file as the archive has it (sha256 of its bytes).
    data = (resources.files("irmeans.datasets") / "data" / "adhoc8_ap.csv").read_bytes()
    assert hashlib.sha256(data).hexdigest() == "1462159b10ec9631b8cdce8a6a38f1563def528921b5fa5799b78490fea51d7e"
    m = datasets.load("adhoc8", "ap")
    assert m.label == "TREC-8 ad hoc (1999), AP"
    assert round(100 * float((m.scores == 0).mean()), 1) == 2.6


def test_load_names_what_is_missing():
    with pytest.raises(IrmeansError, match="no collection 'trec9'"):
        datasets.load("trec9", "ap")
    with pytest.raises(IrmeansError, match="has no measure 'ndcg'; it has ap, p10, rr"):
        datasets.load("adhoc8", "ndcg")
    assert datasets.load("ADHOC8", "AP").name == "adhoc8_ap"


def test_load_all_by_measure():
    ap = datasets.load_all(["ap"])
    assert [m.collection for m in ap] == list(SIZES)
    assert len(datasets.load_all()) == 46


def test_read_csv(tmp_path):
    p = tmp_path / "mine.csv"
    p.write_text("system,t1,t2,t3\nA,0.5,0.25,0\nB, 0.1 ,1,7e-04\n\n")
    m = datasets.read_csv(p, measure="ap")
    assert m.systems == ("A", "B") and m.topics == ("t1", "t2", "t3")
    np.testing.assert_array_equal(m.scores, [[0.5, 0.25, 0.0], [0.1, 1.0, 0.0007]])
    assert m.name == "mine_ap" and m.collection == "mine"


@pytest.mark.parametrize(
    "text, line, message",
    [
        ("", None, "empty"),
        ("system,t1\nA,0.5\nB,0.1\n", 1, "fewer than 2 topics"),
        ("system,t1,t1\nA,0.5,0.1\nB,0.1,0.2\n", 1, "unique"),
        ("system,t1,t2\nA,0.5,0.1\nB,0.1\n", 3, "1 scores, but the header names 2 topics"),
        ("system,t1,t2\nA,0.5,0.1\nA,0.1,0.2\n", 3, "system name 'A' is repeated \\(first on line 2\\)"),
        ("system,t1,t2\nA,0.5,0.1\n ,0.1,0.2\n", 3, "the system name is empty"),
        ("system,t1,t2\nA,0.5,x\nB,0.1,0.2\n", 2, "system 'A', topic 't2': score 'x' is not a number"),
        ("system,t1,t2\nA,0.5,nan\nB,0.1,0.2\n", 2, "system 'A', topic 't2': score 'nan' is NaN"),
        ("system,t1,t2\nA,0.5,0.1\n", None, "fewer than 2 systems"),
    ],
)
def test_read_csv_errors_name_file_and_line(tmp_path, text, line, message):
    p = tmp_path / "bad.csv"
    p.write_text(text)
    with pytest.raises(FileFormatError, match=message) as info:
        datasets.read_csv(p)
    assert info.value.path == str(p) and info.value.line == line


def test_read_csv_takes_its_orientation_from_the_header(tmp_path):
    by_topic = tmp_path / "t.csv"
    by_topic.write_text("Topic,runA,runB,runC\n401,0.5,0.25,0\n402,0.1,0,1\n")
    m = datasets.read_csv(by_topic)
    assert m.systems == ("runA", "runB", "runC") and m.topics == ("401", "402")
    assert m.scores.tolist() == [[0.5, 0.1], [0.25, 0.0], [0.0, 1.0]]
    shipped = datasets.read_csv(datasets.data_file("robust2004_ap.csv"))
    assert np.array_equal(shipped.scores, datasets.load("robust2004", "ap").scores)


@pytest.mark.parametrize("first", ["", "run", "sys1", "topics", "name"])
def test_read_csv_refuses_a_header_that_does_not_say_which_way_it_runs(tmp_path, first):
    p = tmp_path / "x.csv"
    p.write_text(f"{first},a,b\nA,0.5,0.1\nB,0.1,0.2\n")
    with pytest.raises(FileFormatError, match="must say which way the file runs: 'system'") as info:
        datasets.read_csv(p)
    assert info.value.line == 1


def test_read_csv_of_a_missing_file(tmp_path):
    with pytest.raises(FileFormatError, match="cannot read it"):
        datasets.read_csv(tmp_path / "nothing.csv")


def test_robertson_example_still_loads():
    ap = datasets.robertson_example()
    assert ap.shape == (50,) and int((ap == 0).sum()) == 3
