"""The numbers the book's prose may type, each with where it comes from (tests/book/test_prose_numbers.py).

Every other number of the prose is computed where it is written (an ``{eval}`` role):
whatever the data or the library decide. A number listed here is one no computation
decides: a definition the text makes (an example's inputs, a value of ε it chooses, a
figure's range), a value quoted from a cited source, or arithmetic the text does on
such numbers. An entry is by chapter and holds for every place the chapter types that
number; an entry no chapter types any more fails the test, so the list keeps to what
the text types.
"""

#: In every chapter.
BOOK = {
    "0": "the bottom of every measure's range: what a failed topic scores",
    "1": "the top of every measure's range; rank 1; the numerator of 1/r",
    "1.0": "the top of the range, written with its decimal",
    "10⁻⁵": "trec_eval's ε for gm_map, the floor it raises scores to (trec_eval, cited)",
    "0.01": "the ε of Ravana and Moffat's Table 1 (cited), which the book adopts and recommends",
    "4.0": "the version of the CC BY-SA licence, part of its name (the licences of the book and of the TREC data)",
}

#: By chapter: (the numbers, separated by spaces; where they come from).
CHAPTERS = {
    "01-introduction": [
        ("95", "the level of chapter 9's intervals over topics, the 95 % of irmeans.tau_intervals"),
        ("0.02 0.60 0.61", "the illustration of ratios: 0.01 → 0.02 doubles a factor, 0.60 → 0.61 barely moves one"),
        ("0.20 0.25 0.30 0.35 0.45", "the example's scores of A and B and the slider's top, set in the chapter's code"),
        ("5 100", "the self-check's hint, arithmetic on those scores: 1/0.01 = 100, and B's 1/0.20 = 5"),
        (
            "0.05 0.1 0.3 0.5",
            "Robertson's illustration of GMAP's and MAP's scales (§4, cited): 0.05 → 0.1, 0.25 → 0.5, 0.25 → 0.3",
        ),
    ],
    "02-ranked-lists": [
        ("0.9", "rbp's persistence when rbp.p= names none (trec_eval's m_rbp.c, cited)"),
        ("3 5 6 10", "the example: ten documents, relevant at ranks 1, 3 and 6, R = 5; P@5 and P@10"),
        ("2 8 9 11 12 999", "the exercises' rankings: relevant at ranks 11 and 12, 999 and 1000, 8 to 10; rank 2"),
        ("40 41", "the mean-rank example: X's answer at rank 40; the step from 40 to 41"),
        ("1000", "TREC's cutoff of 1000 documents per topic (trec_eval, cited)"),
        ("0.5", "the self-check's recall level"),
        (
            "10.0 4",
            "trec_eval's version, 10.0 (cited), and the exit status its source (trec_eval.c) gives a topic without "
            "results; gdeval.pl's top grade, 4 (cited)",
        ),
        ("7 20", "gdeval.pl (cited): its depth of 20, and the gain 2^3 - 1 = 7 it gives grade 3"),
    ],
    "03-scales": [
        ("10 20 30", "the example's temperatures in °C, set in the chapter's code"),
        ("301 302", "TREC topic numbers as labels, an illustration"),
        ("0.05 0.1 0.25 0.5 0.80", "the illustration of scales: gains of 0.05; the doublings the figure draws"),
        (
            "0.30 1.80",
            "0.05 is as far below 0.30 as 1.80 above it on the log scale (a factor of 6; the code checks it)",
        ),
        ("0.10 0.18 0.90 0.95", "the example's scores of A and B, set in the chapter's code"),
    ],
    "04-averaging": [
        ("0.1 0.3 0.8", "S1's scores in Ravana and Moffat's Table 1 (cited)"),
        ("-2 10 100", "the values of ε the text looks at (1, 100) and the slider's, ε = 10 raised to its value"),
        ("0.05", "the exercise's nudge of topic 1"),
    ],
    "05-boost": [
        ("90", "the share of the runs the text's range covers, from the 5th to the 95th percentile (book code)"),
        (
            "0.05 25 50 0.025",
            "Robertson's thought experiment (§3, cited): 0.05 more on 25 of 50 topics, 25 × 0.05 / 50",
        ),
        ("0.2", "Robertson's description of his values (§3, cited): half of them below 0.2"),
        ("2 3", "the improvements numbered in the list"),
        ("0.00 0.70 0.75", "the illustration: a topic lifted from 0.00 to 0.05 against one from 0.70 to 0.75"),
        ("0.005 500", "the figure's smallest boost, 0.005 (book code), which is 500 times ε"),
        ("10 0.3", "the self-checks' settings: the 10 hardest topics; values around 0.3"),
        ("0.1", "the book's line for a low score, Ravana and Moffat's (≤ 0.1, as chapter 9 counts them)"),
    ],
    "06-zeros-and-epsilon": [
        ("0.2 0.3 0.4", "S2's scores in Ravana and Moffat's Table 1 (cited)"),
        ("5 200 900 1000", "the examples' ranks, 5 and 200 in a top 1000 (TREC's cutoff), and 900"),
        ("10⁻⁶ 10⁻⁴ 10 50", "Robertson's three ε for his 50 values (§4.1, cited), a factor of 10 apart"),
        ("0.00001", "the value the Robust track set a zero AP to at TREC 2005 (Robertson §4.1, cited)"),
        ("10⁻⁸ 10⁶ 0.1", "the figure's range of ε from 10⁻⁸ (book code), the text's large ε, the self-check's ε"),
    ],
    "07-map-gmap-mrr": [
        ("2 20 30", "the feedback example, set in the chapter's code: +20 %, −30 %, shares between 0 and 2"),
        ("50", "Robertson's example's 50 topics (chapter 5; §3, cited)"),
        ("0.05 0.1 0.25 0.5", "the illustration of ratios: 0.05 → 0.1 and 0.25 → 0.5; the 0.05 level of a test"),
        ("0.10 0.20 0.40 0.60 0.75", "the self-check's scores and changes"),
        (
            "3 4 10 100 500",
            "the known-item examples' ranks (500, 10, W's 3) and illustrations (rank 4, rank 100)",
        ),
        ("1000", "Zhai and Massung's comparison (ch. 9, cited): the step from rank 100 to 1000"),
        ("-1", "the range of Kendall's τ in its definition: −1 for one order the other reversed"),
    ],
    "08-logit": [
        (
            "10 2.30 99.9 99.99 10⁻³ 10⁻⁴ 0.001 0.0001 0.0009",
            "the spam-filter example's accuracies, 99.9 % and 99.99 % (the chapter's definition), their failure "
            "rates and difference, and the tenfold difference of errors, log 10 ≈ 2.30",
        ),
        ("0.011 0.0101", "the exercise's arithmetic: those failure rates plus ε = 0.01"),
        (
            "0.25 -0.15 0.05",
            "Robertson's reversed example (§4, cited): 0.5 → 0.25 against 0.1 → −0.15; on the log scale, 0.05",
        ),
        ("99 10,000", "the exercise's filters: 99 % on one day, 10,000 messages a day"),
        ("0.1 0.99 0.999", "points of the scale the figure marks (book code): 0.001, 0.01, 0.1, 0.99, 0.999"),
        ("0.5 0.9 3 9", "the self-checks' scores, 0.5, 0.9 and 0.99, and their hints' odds, 9, 99 and 3"),
        ("2", "the nDCG example's grades: gain 2 and gain 1"),
        ("50", "odds from 50 %, the logit's centre, an illustration"),
        ("10⁻⁶ 0.3", "the range of ε of the Jupyter controls (book code)"),
    ],
    "09-consistency": [
        ("0.95", "the persistence of Ravana and Moffat's RBP0.95 (cited), its name"),
        ("0.001", "one unit in the third decimal, the precision the paper prints its τ values to"),
        ("10,000", "Ravana and Moffat's 10,000 random splits (cited), which the book runs too"),
        ("0.1", "the paper's threshold of a low score, at most 0.1 (cited)"),
        ("0.739", "a value the paper prints, Table 3(c) (cited)"),
        (
            "4 10 17 23 37 52 56",
            "Ravana and Moffat's Table 2 (cited): the shares (%) of TREC9's scores at 0 and at most 0.1, by measure",
        ),
        ("4.0", "the license's name, CC BY-SA 4.0"),
        ("95", "the level of every interval the text gives (irmeans.tau_intervals' and the command's, 95 %)"),
        ("0.02 0.2 0.5 0.6", "the illustration of standardized scores; the standard normal's centre, 0.5"),
        ("6 24 25 0.20 0.21 0.25 0.3 0.30 0.33 0.35 0.38 0.40", "the self-checks' scores and counts"),
    ],
    "10-which-average": [
        ("95", "the level of irmeans.compare's bootstrap intervals, its default"),
        ("0.05 0.02 0.04 0.4 0.8", "the table's illustrations: a gain of 0.05; 0.02 → 0.04 counts as 0.4 → 0.8"),
        ("0.25 0.3", "Robertson's illustration (§4, cited): GMAP counts 0.05 → 0.1 as 0.25 → 0.5, MAP as 0.25 → 0.3"),
        ("50", "an example of what to write, 'over 50 topics'"),
        ("0.9 0.7 0.0 0.6 -4.6 -11.5", "the exercise's scores and the logs of its two ε: log 0.01, log 10⁻⁵"),
        ("200 0.5 0.1", "the exercises' settings: 200 logged queries; mean AP around 0.5 and 0.1"),
    ],
    "get-the-code": [
        ("3.11", "the Python the project requires (pyproject.toml's requires-python)"),
        ("10.0", "the version of trec_eval that irmeans eval departs from in five places (cited in chapter 2)"),
    ],
    "cli-reference": [
        ("10.0", "the version of trec_eval that irmeans eval departs from in five places (cited in chapter 2)"),
    ],
}
