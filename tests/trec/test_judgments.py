"""What the measures take from the qrels, topic by topic (TopicJudgments), against a count made row by row.

The counts come from the distinct (topic, grade) pairs of the judged rows: a table of a count
per topic and grade where grades are few, a sort of the rows where they are far apart. Both
must give what a loop over the rows gives, negative grades (judged, unusable) left out.
"""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from irmeans.trec import ranked
from irmeans.trec.ranked import TopicJudgments


def by_rows(topic, grade, level, topics):
    """Each field of TopicJudgments, counted row by row."""
    num_rel, num_nonrel, num_pos = [0] * topics, [0] * topics, [0] * topics
    max_grade = [-1] * topics
    pairs = {}
    for t, g in zip(topic, grade):
        if g < 0:
            continue
        num_rel[t] += g >= level
        num_nonrel[t] += g < level
        num_pos[t] += g > 0
        max_grade[t] = max(max_grade[t], g)
        pairs[t, g] = pairs.get((t, g), 0) + 1
    ideal = [
        g for t in range(topics) for g in sorted((g for u, g in zip(topic, grade) if u == t and g > 0), reverse=True)
    ]
    levels = sorted((t, g, n) for (t, g), n in pairs.items())
    return num_rel, num_nonrel, max_grade, num_pos, ideal, levels


def fields(j):
    t, g, n = j.levels
    levels = list(zip(t.tolist(), g.tolist(), n.tolist()))
    return j.num_rel.tolist(), j.num_nonrel.tolist(), j.max_grade.tolist(), j.num_pos.tolist(), j.ideal.tolist(), levels


@given(
    rows=st.lists(
        st.tuples(st.integers(0, 5), st.one_of(st.integers(-2, 4), st.integers(-(2**62), 2**62))), max_size=40
    ),
    level=st.integers(-1, 3),
    extra_topics=st.integers(0, 2),
)
@pytest.mark.parametrize("way", ["table", "sort"])
def test_the_judgments_of_each_topic_are_counted_as_row_by_row(way, rows, level, extra_topics):
    topic = np.array([t for t, _ in rows], dtype=np.int32)
    grade = np.array([g for _, g in rows], dtype=np.int64)
    topics = (max(topic.tolist(), default=-1) + 1) + extra_topics
    with pytest.MonkeyPatch.context() as m:
        if way == "sort":  # no table, however few the grades
            m.setattr(ranked, "_TABLE_PER_ROW", -(10**9))
            m.setattr(ranked, "_TABLE_ANYWAY", -1)
        got = TopicJudgments.of(topic, grade, level, topics)
    assert fields(got) == by_rows(topic.tolist(), grade.tolist(), level, topics)


def test_a_table_is_made_only_where_the_grades_are_few(monkeypatch):
    sorted_ = []
    lexsort = np.lexsort
    monkeypatch.setattr(ranked.np, "lexsort", lambda keys: sorted_.append(len(keys[0])) or lexsort(keys))
    topic, few = np.repeat(np.arange(50, dtype=np.int32), 20), np.tile(np.arange(-1, 3), 250)
    TopicJudgments.of(topic, few, 1, 50)
    assert max(sorted_) < 50 * 4  # only the pairs were ordered (for the ideal ranking)
    sorted_.clear()
    TopicJudgments.of(topic, few * 10**12, 1, 50)  # grades far apart: the rows are sorted
    assert max(sorted_) >= 750
