"""Per-topic (segment) sums and maxima: the fast paths for rows in topic order give the general paths' values."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from irmeans.trec.segments import seg_cumsum, seg_suffix_max


@st.composite
def segments(draw):
    lengths = np.array(draw(st.lists(st.integers(0, 12), min_size=1, max_size=12)), dtype=np.int64)
    n = int(lengths.sum())
    seg = np.repeat(np.arange(len(lengths)), lengths)
    pos = np.arange(n) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    values = np.array(draw(st.lists(st.sampled_from([-np.inf, 0.0, 0.25, 1 / 3, 0.5, 1.0]), min_size=n, max_size=n)))
    return values, seg, pos, lengths


@given(segments())
def test_suffix_max_in_topic_order_is_the_running_maximum_from_the_right(data):
    values, seg, pos, lengths = data
    want = [max(values[i : int(np.flatnonzero(seg == seg[i])[-1]) + 1]) for i in range(len(values))]
    assert seg_suffix_max(values, seg, len(lengths), pos, lengths).tolist() == want
    assert seg_suffix_max(values, seg, len(lengths)).tolist() == want


@given(segments())
def test_running_sums_in_topic_order_add_as_trec_eval_adds(data):
    values, seg, pos, lengths = data
    values = np.where(np.isinf(values), 0.125, values)
    want = []
    for s in range(len(lengths)):
        total = 0.0
        for v in values[seg == s]:
            total += v  # row by row, in order
            want.append(total)
    assert seg_cumsum(values, seg, pos, lengths).tolist() == want
