"""Names shown safely and measured as a terminal shows them (irmeans._display, the one home every formatter uses)."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from irmeans._display import GLUE, json_text, shown, width, wrap

# Any text a file can give a name: every code point, lone surrogates of bytes that are not UTF-8 among them.
ANY_TEXT = st.text(st.characters(blacklist_categories=()), max_size=20)
UNDECODABLE = st.binary(min_size=1, max_size=12).map(lambda b: b.decode("utf-8", "surrogateescape"))


@pytest.mark.parametrize(
    "name, expected",
    [
        ("run\x1b]0;pwned\x07", "run\\x1b]0;pwned\\x07"),  # retitles a terminal
        ("clear\x1b[2J", "clear\\x1b[2J"),
        ("a\nb\tc\rd", "a\\nb\\tc\\rd"),
        ("csi\x9b2J", "csi\\x9b2J"),  # the C1 control that starts a sequence alone
        ("rtl\u202eevil", "rtl\\u202eevil"),
        ("caf\udce9", "caf\\xe9"),  # a byte that is not UTF-8, as surrogateescape holds it
        ("café 检索", "café 检索"),
    ],
)
def test_every_character_that_does_not_print_is_shown_as_its_escape(name, expected):
    assert shown(name) == expected


def test_trec_eval_s_lines_keep_the_bytes_of_their_ids_but_escape_controls():
    assert shown("caf\udce9\x1b", keep_bytes=True) == "caf\udce9\\x1b"


@given(ANY_TEXT)
def test_what_is_shown_prints_and_holds_no_control_character(text):
    out = shown(text)
    assert out.isprintable()
    out.encode("utf-8")  # no lone surrogate left
    assert out == text or not text.isprintable()


@pytest.mark.parametrize(
    "text, columns",
    [("bm25", 4), ("检索系统", 8), ("εGM (ε = 0.01)", 14), ("e\u0301", 1), ("ｆｕｌｌ", 8), ("한국어", 6)],
)
def test_width_counts_columns_as_a_terminal_does(text, columns):
    # East Asian wide and full-width characters take 2 columns, a combining mark 0, ambiguous ones (ε) 1
    assert width(text) == columns


WORDS = st.lists(st.text(st.sampled_from("ab中-/0."), min_size=1, max_size=15), min_size=1, max_size=30)


@given(WORDS, st.integers(5, 40))
def test_a_line_is_never_wider_than_asked_unless_one_word_alone_is(words, columns):
    lines = wrap(" ".join(words), columns)
    for line in lines:
        assert width(line) <= columns or " " not in line.strip()
    assert " ".join(lines).split() == " ".join(words).split()  # nothing lost, nothing broken inside a word


@given(st.lists(st.sampled_from(["word", "another", "x"]), max_size=12), st.integers(8, 30))
def test_glued_words_and_a_value_with_its_label_stay_on_one_line(words, columns):
    held = "Holm" + GLUE + "p" + GLUE + "=" + GLUE + "0.13"
    path = "/a" + GLUE + "folder" + GLUE + "with" + GLUE + "spaces/qrels.txt"
    text = " ".join([*words, held, *words, path, "alpha", "=", "0.05", *words])
    lines = wrap(text, columns)
    assert any("Holm p = 0.13" in line for line in lines) and any("alpha = 0.05" in line for line in lines)
    # a path wider than the line stands alone on a line of its own, whole
    assert "/a folder with spaces/qrels.txt" in lines
    assert not any(line.endswith(("Holm", "p =", "=", "alpha")) for line in lines)


@given(st.lists(st.one_of(ANY_TEXT, UNDECODABLE), min_size=1, max_size=6))
def test_json_is_valid_utf8_and_every_name_reads_back_as_itself(names):
    text = json_text({"systems": names})
    raw = text.encode("utf-8")  # would raise on a lone surrogate written as it is
    back = json.loads(raw.decode("utf-8"))["systems"]
    assert back == names  # each name itself: two names never become one
    assert "\ufffd" not in text or any("\ufffd" in n for n in names)
    assert all(c.isprintable() for c in text)  # nothing a terminal would obey
