"""The book's slow tests, marked ``slow`` in one place: ``make test`` runs them, ``make check`` leaves them out.

A test is slow here if it builds a site, a PDF, release files or Sphinx pages, executes a chapter or a
command line in a fresh Python, or renders figures with vl-convert: together about three quarters of the
book's tests' time. What is left checks the chapters' modules, text and notebooks as files, in seconds.
"""

from __future__ import annotations

import pytest

#: Modules whose every test is slow, and why.
SLOW_MODULES = {
    "test_api_reference.py": "builds the reference pages with Sphinx",
    "test_book_docstrings.py": "runs every example of the book's docstrings, the chapters' figures among them",
    "test_chapter_commands.py": "runs each command line the chapters show",
    "test_course.py": "builds a course's site",
    "test_eval_extension.py": "builds pages with myst-nb and executes notebooks",
    "test_kernel.py": "starts kernels",
    "test_lecturer.py": "executes a lecturer's copy of a chapter",
    "test_make_figures.py": "renders the figures for slides",
    "test_make_test.py": "runs make test's runner on parts of its own",
    "test_new_chapter.py": "builds a book with an eleventh chapter, its site and PDFs",
    "test_notebook_check.py": "runs nbval on notebooks",
    "test_private_files.py": "builds a course's site, its PDF and release files",
    "test_provenance.py": "reruns the commands that wrote the stored data",
    "test_readme_commands.py": "runs the README's command lines",
    "test_release.py": "builds the release files",
    "test_slowest.py": "runs pytest on a suite of its own",
}
#: Single tests that are slow, in modules otherwise quick.
SLOW_TESTS = {
    "test_own_data.py::test_a_chapter_runs_on_a_readers_data_and_names_what_no_longer_holds": "runs each chapter",
    "test_book_site.py::test_the_site_cites_with_the_year_of_the_bibliography_label": "builds pages with Sphinx",
    "test_book_site.py::test_the_bibliography_is_labelled_author_year_as_the_text_cites": "builds pages with Sphinx",
}


def pytest_collection_modifyitems(items):
    for item in items:
        name = item.path.name
        test = f"{name}::{getattr(item, 'originalname', item.name)}"
        if name in SLOW_MODULES or test in SLOW_TESTS:
            item.add_marker(pytest.mark.slow)
