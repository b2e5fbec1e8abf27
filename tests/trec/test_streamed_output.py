"""``irmeans eval -q``: the per-topic lines are written a few hundred topics at a time, never all built at once.

With 100,000 topics and ``-m all_trec`` the lines are about ten million: built whole they took 2.4 GB.
Each write here holds at most a block of topics' lines, and the lines are trec_eval's, byte for
byte (the per-value formatting is compared with C's ``printf`` formats, NaN's sign included).
"""

import io
import sys

import numpy as np
import pytest
from irmeans.cli import eval_command, main
from irmeans.cli.output import Output


@pytest.fixture
def many_topics(tmp_path):
    n = 2000
    q, r = tmp_path / "q.txt", tmp_path / "r.txt"
    q.write_text("".join(f"{t} 0 d{t} {t % 3}\n" for t in range(n)))
    r.write_text("".join(f"{t} Q0 d{t if t % 5 else t + 1} 1 {t % 7} run\n" for t in range(n)))
    return str(q), str(r), n


def test_per_topic_lines_are_written_block_by_block(many_topics, monkeypatch):
    q, r, n = many_topics
    writes = []
    monkeypatch.setattr(Output, "write", lambda self, text: writes.append(text))
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    assert main(["eval", "-q", "-n", "-m", "all_trec", q, r]) == 0
    lines = [line for text in writes for line in text.splitlines()]
    per_topic = len(lines) // n
    assert len(lines) == n * per_topic and per_topic > 90
    assert len(writes) == -(-n // eval_command._TOPICS_AT_ONCE)  # one write per block of topics
    assert max(len(t.splitlines()) for t in writes) == eval_command._TOPICS_AT_ONCE * per_topic


def test_the_lines_are_the_values_as_printf_prints_them(many_topics, monkeypatch):
    q, r, _ = many_topics
    out = io.BytesIO()
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(out, encoding="utf-8"))
    assert main(["eval", "-q", "-M", "0", "-c", "-m", "all_trec", "--digits", "6", q, r]) == 0
    sys.stdout.flush()
    from irmeans.trec.evaluate import evaluate

    ev = evaluate(q, r, measures=["all_trec"], depth=0, complete=True)
    want = []
    for i, topic in enumerate(ev.topics):
        for name in ev.printed:
            v = ev.per_topic[name][i]
            kind = ev.kinds[name]
            if kind == "long":
                text = "%d" % v
            elif kind == "string":
                text = v
            elif np.isnan(v):
                text = "%6s" % ("-nan" if np.signbit(v) else "nan")
            else:
                text = "%6.6f" % v
            want.append("%-22s\t%s\t%s" % (name, topic, text))
    got = out.getvalue().decode().splitlines()[: len(want)]
    assert got == want
    assert any(line.endswith("  -nan") for line in got)  # -M 0: trec_eval's 0/0 in iprec_at_recall
