"""Comparing systems under several averages: which run is better, under which average, and how sure is it.

A module for each part, each importing only those above it in this list:

- :mod:`.significance`: paired tests over topics for many pairs at once (the t-test, Fisher's
  randomization test, the sign test, Holm's correction, Wilcoxon's test);
- :mod:`.robustness`: Robertson's check, the first of a stated family of increasing
  transformations of the scores that reverses the arithmetic mean's verdict, and whether it
  does so substantially;
- :mod:`.tables`: one table as text, Markdown, LaTeX (laid out to fit an A4 page) or CSV;
- :mod:`.report`: the report for people: what was compared, verdicts in words, the differences,
  the tests, then the notes (and its three tables for Markdown and LaTeX);
- :mod:`.results_table`: the table a paper prints, systems × measures × averages, marks after Holm;
- :mod:`.plot`: the per-topic differences as a Vega-Lite figure;
- :mod:`.verdicts`: the tests' numbers (:class:`~.verdicts.Tests`) read as verdicts: which system
  each average prefers, where the marking test says so;
- :mod:`.outputs`: a comparison written out: rows, CSV, JSON, the report, the results table, the plot;
- :mod:`.result`: :class:`~.result.Comparison`, what :func:`~.compare.compare` finds, with its
  verdicts and outputs;
- :mod:`.compare`: :func:`~.compare.compare` itself;
- :mod:`.by_measure`: :func:`~.by_measure.compare_measures`, several measures at once (a table of
  measures × averages, each measure its own Holm family or all together).

Import from the modules (``from irmeans.comparison.significance import holm``) or from the top
level (``irmeans.compare``, ``irmeans.holm``); the package re-exports nothing.
"""

__all__: list[str] = []
