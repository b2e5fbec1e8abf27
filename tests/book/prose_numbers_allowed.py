"""The numbers the book's prose may type, each with where it comes from (tests/book/test_prose_numbers.py).

Every other number of the prose is computed where it is written (an ``{eval}`` role):
whatever the data or the library decide. A number listed here is one no computation
decides: a definition the text makes (an example's inputs, a value of ε it chooses, a
figure's range), a value quoted from a cited source, or arithmetic the text does on
such numbers. An entry is by chapter and holds for every place the chapter types that
number; an entry no chapter types any more fails the test, so the list keeps to what
the text types. A chapter's entries are in its module (``PROSE_NUMBERS``, found with the
chapter); the book's and the back matter's are here.
"""

from irmeans_book import chapters

#: In every chapter.
BOOK = {
    "0": "the bottom of every measure's range: what a failed topic scores",
    "1": "the top of every measure's range; rank 1; the numerator of 1/r",
    "1.0": "the top of the range, written with its decimal",
    "10⁻⁵": "trec_eval's ε for gm_map, the floor it raises scores to (trec_eval, cited)",
    "0.01": "the ε of Ravana and Moffat's Table 1 (cited), which the book adopts and recommends",
    "4.0": "the version of the CC BY-SA licence, part of its name (the licences of the book and of the TREC data)",
}

#: By page of the back matter (a chapter lists its own, in its module's ``PROSE_NUMBERS``): (the numbers,
#: separated by spaces; where they come from).
PAGES = {
    "get-the-code": [
        ("3.11", "the Python the project requires (pyproject.toml's requires-python)"),
        ("10.0", "the version of trec_eval that irmeans eval departs from in five places (cited in chapter 2)"),
    ],
    "cli-reference": [
        ("10.0", "the version of trec_eval that irmeans eval departs from in five places (cited in chapter 2)"),
    ],
}


#: By page: the back matter's and each chapter's, from its module.
CHAPTERS = PAGES | {
    chapters.notebook_stem(module.__name__.rpartition(".")[2]): module.PROSE_NUMBERS
    for module in chapters.chapter_modules()
}
