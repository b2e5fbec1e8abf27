"""The table a paper prints: a row per system, a column per measure x average, marks after Holm, the best in bold."""

import csv
import io
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from irmeans import ScoreMatrix, compare
from irmeans.comparison.by_measure import compare_measures
from irmeans.comparison.results_table import DOWN, MAX_LETTERED, UP, results_table

TOPICS = tuple(str(401 + t) for t in range(12))
FAST = {"permutations": 200, "bootstrap": 50}


def _matrix(rng, n, measure="map", shift=0.25):
    base = rng.uniform(0.05, 0.6, len(TOPICS))
    rows = [np.clip(base + shift * k + rng.normal(0, 0.05, len(TOPICS)), 0, 1) for k in range(n)]
    return ScoreMatrix(np.array(rows), tuple(f"s{k}" for k in range(n)), TOPICS, measure=measure)


@settings(max_examples=25)
@given(seed=st.integers(0, 10_000), n=st.integers(2, 5), shift=st.sampled_from([-0.2, 0.0, 0.05, 0.3]))
def test_with_a_baseline_an_arrow_marks_exactly_the_systems_the_test_finds_higher_or_lower(seed, n, shift):
    m = _matrix(np.random.default_rng(seed), n, shift=shift)
    baseline = m.systems[n // 2]
    c = compare(m, ["am", "gm:0.01"], baseline=baseline, test="t", **FAST)
    table = c.results_table()
    assert table.systems[0] == baseline and set(table.systems) == set(m.systems)
    assert table.marks[0] == ("", "")  # the baseline is not marked against itself
    for j, (system, _) in enumerate(c.pairs):
        row = table.systems.index(system)
        for k in range(2):
            expected = (UP if c.better[k, j] > 0 else DOWN) if c.significant[k, j] else ""
            assert table.marks[row][k] == expected
            assert table.values[row, k] == c.means[k, m.systems.index(system)]


@settings(max_examples=25)
@given(seed=st.integers(0, 10_000), n=st.integers(2, 5))
def test_without_a_baseline_a_letter_names_each_system_found_worse(seed, n):
    m = _matrix(np.random.default_rng(seed), n, shift=0.1)
    c = compare(m, ["am"], test="t", **FAST)
    table = c.results_table()
    assert table.systems == m.systems and table.letters == tuple("abcde"[:n])
    for row, system in enumerate(table.systems):
        beaten = {
            table.letters[m.systems.index(b if a == system else a)]
            for j, (a, b) in enumerate(c.pairs)
            if c.significant[0, j] and system in (a, b) and (c.better[0, j] > 0) == (a == system)
        }
        assert set(table.marks[row][0]) == beaten


def test_the_best_of_each_column_is_bold_and_ties_as_printed_are_all_bold():
    scores = np.array([[0.30, 0.50, 0.70], [0.30, 0.50, 0.70], [0.10, 0.20, 0.30], [0.300004, 0.5, 0.7]])
    m = ScoreMatrix(scores, ("a", "b", "c", "d"), ("1", "2", "3"), measure="map")
    table = compare(m, ["am", "median"], **FAST).results_table()
    assert [row[0] for row in table.best] == [True, True, False, True]  # 0.5000 three times, as printed
    md = table.format("markdown")
    assert md.count("**0.5000**") == 6 and "| (c) c | 0.2000 | 0.2000 |" in md
    tex = table.format("latex")
    assert tex.count(r"\textbf{0.5000}") == 6 and r"\textbf{0.2000}" not in tex


def test_the_caption_states_the_family_the_test_alpha_and_each_mark():
    m = _matrix(np.random.default_rng(1), 3)
    c = compare(m, ["am", "gm:0.01"], baseline="s0", test="t", alpha=0.01, **FAST)
    text = " ".join(c.results_table().notes)
    assert "each system against s0" in text
    assert "↑ (↓): significantly higher (lower) than s0 by the t-test on each average's scale" in text
    assert "Holm-adjusted p < 0.01 over the 4 comparisons of the measure (2 systems x 2 averages)" in text
    assert "in bold (ties all in bold)" in text
    lettered = " ".join(compare(m, ["am"], test="randomization", **FAST).results_table().notes)
    assert "every pair of systems compared (no baseline)" in lettered
    assert "A superscript letter names a system this one is significantly better than by the randomization test" in (
        lettered
    )


def test_several_measures_are_column_groups_and_holm_all_is_said():
    rng = np.random.default_rng(4)
    matrices = [_matrix(rng, 3, "map"), _matrix(rng, 3, "P_10")]
    both = compare_measures(matrices, ["am", "gm:0.01"], holm="all", baseline="s0", test="t", **FAST)
    table = both.results_table()
    assert [c[:2] for c in table.columns] == [("map", "am"), ("map", "gm:0.01"), ("P_10", "am"), ("P_10", "gm:0.01")]
    assert "over the 8 comparisons of every measure together (2 systems x 2 averages x 2 measures)" in " ".join(
        table.notes
    )
    for k, (_, c) in enumerate(both.by_measure):  # the marks are each measure's own, after the joint Holm
        for j, (system, _) in enumerate(c.pairs):
            for a in range(2):
                mark = table.marks[table.systems.index(system)][2 * k + a]
                assert (mark != "") == bool(c.significant[a, j])
    md = table.format("markdown").splitlines()
    assert md[2] == "| system | map: AM | map: εGM (ε = 0.01) | P\\_10: AM | P\\_10: εGM (ε = 0.01) |"
    assert md[4].startswith("| s0 (baseline) |")
    tex = table.format("latex")
    assert r"\multicolumn{2}{c}{map} & \multicolumn{2}{c}{P\_10}" in tex and r"\cmidrule(lr){2-3}" in tex


def test_too_many_systems_to_letter_get_no_marks_and_the_caption_says_why():
    rng = np.random.default_rng(2)
    m = ScoreMatrix(rng.uniform(0, 1, (MAX_LETTERED + 1, 6)), tuple(f"r{k}" for k in range(27)), tuple("123456"))
    table = compare(m, ["am"], permutations=20, bootstrap=10).results_table()
    assert all(mark == "" for row in table.marks for mark in row)
    assert "No marks: with no baseline, the 27 systems are more than the 26 that letters can mark" in " ".join(
        table.notes
    )


def test_csv_and_json_hold_each_value_unrounded_with_its_mark():
    m = _matrix(np.random.default_rng(3), 3)
    c = compare(m, ["am"], baseline="s1", test="t", **FAST)
    table = c.results_table()
    rows = list(csv.DictReader(io.StringIO(table.format("csv"))))
    assert [r["system"] for r in rows] == ["s1", "s0", "s2"] and rows[0]["baseline"] == "True"
    assert [float(r["value"]) for r in rows] == [c.means[0, 1], c.means[0, 0], c.means[0, 2]]
    data = json.loads(table.format("json"))
    assert [r["mark"] for r in data["rows"]] == [table.marks[i][0] for i in range(3)]
    assert data["caption"][0].startswith("Map, 3 systems") is False and data["caption"][0].endswith(".")
    with pytest.raises(ValueError, match="format must be one of text, markdown, latex, csv, json"):
        table.format("html")


def test_the_text_table_fits_100_columns_splitting_its_columns_where_needed():
    m = _matrix(np.random.default_rng(5), 3)
    specs = ["am", "gm:0.01", "logit:0.01", "hm:0.01", "median", "gm-floor:1e-5"]
    text = compare(m, specs, baseline="s0", **FAST).results_table().format("text")
    lines = text.splitlines()
    assert max(map(len, lines)) <= 100 and sum(line.startswith("system ") for line in lines) >= 2
    assert all(f"s{k}" in text for k in range(3)) and "**" in text


def test_results_table_of_a_list_of_one_measure_is_the_comparison_s():
    m = _matrix(np.random.default_rng(6), 3)
    c = compare(m, ["am"], baseline="s0", **FAST)
    assert results_table([("map", c)]).format("markdown") == c.results_table().format("markdown")


def test_a_notebook_shows_the_table_as_markdown_and_print_as_text():
    m = _matrix(np.random.default_rng(7), 3)
    table = compare(m, ["am"], baseline="s0", **FAST).results_table()
    assert table._repr_markdown_() + "\n" == table.format("markdown")
    assert str(table) == table.format("text") and repr(table) == "ResultsTable('map', systems=3, columns=1)"
