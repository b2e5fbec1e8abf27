# The project's commands. `make book` and `make test` each set up .venv/ first.
# The Python that makes .venv/ (3.11 or later: Debian 12's python3, 3.11.2, will do).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# The environments are installed by uv (the pinned set from its cache: seconds, where pip takes a minute or two);
# uv is installed into .venv/ first, by pip, at the version constraints.txt pins.
UV := $(BIN)/uv
UV_INSTALL := $(UV) pip install --quiet --python $(BIN)/python
# uv trusts the system's certificates, as pip does (a proxy's own authority among them), and never downloads a
# Python: each environment is made with a Python of this machine.
export UV_SYSTEM_CERTS := true
export UV_PYTHON_DOWNLOADS := never

.PHONY: venv book site test serve clean

venv: $(STAMP)

# A virtual environment whose python cannot run (a clone copied from another user, its Python removed or
# upgraded) is made again, whatever its stamps say: $(call broken,FOLDER) is "broken" for such a one.
broken = $(if $(wildcard $(1)),$(if $(filter ok,$(shell $(1)/bin/python -c "print('ok')" 2>/dev/null)),,broken))
VENV_BROKEN := $(call broken,$(VENV))
.PHONY: FORCE
FORCE:

# A .venv/ made afresh: the Python refused in one line if it is older than the project's floor (3.11), then uv.
define new_venv
	@$(PYTHON) book/scripts/system_packages.py --python-only
	$(if $(VENV_BROKEN),@echo "$(BIN)/python cannot run: making $(VENV)/ again"; rm -rf $(VENV))
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	test -x $(UV) || $(BIN)/python -m pip install --quiet $$(grep '^uv==' constraints.txt)
endef

# What the site and its tests need from the system (book/scripts/system_packages.py): Node.js with npm,
# Chromium or Chrome (found by name; it says which), poppler-utils, Python's venv, and for the tests pdflatex
# (texlive-latex-recommended). As root with apt-get, what is missing is installed; otherwise it is named, with
# the one apt-get line to run as root, and make stops (pdflatex: a warning, unless CI is set).
.PHONY: system system-for-tests
system:
	@$(PYTHON) book/scripts/system_packages.py --for book
system-for-tests:
	@$(PYTHON) book/scripts/system_packages.py --for test

# Reinstall whenever the requirements or the package metadata change. The developer's set (requirements.txt)
# holds the reader's (requirements-book.txt, below), which it marks installed too.
$(STAMP): requirements.txt requirements-book.txt constraints.txt pyproject.toml book/pyproject.toml book/lab/pyproject.toml $(wildcard book/lab/*/*.json) $(if $(VENV_BROKEN),FORCE)
	$(new_venv)
	$(UV_INSTALL) -r requirements.txt
	touch $(STAMP) $(READER_STAMP)

# The site serves its own JavaScript: MathJax, Vega, Vega-Lite and vega-embed from
# npm (package-lock.json), put in book/assets/ at build time.
ASSETS := book/assets/.stamp

node_modules/.package-lock.json: package.json package-lock.json | system
	npm ci --no-audit --no-fund --loglevel=error

$(ASSETS): node_modules/.package-lock.json book/scripts/vendor_assets.py $(STAMP)
	$(BIN)/python book/scripts/vendor_assets.py
	touch $@

# Everything the site is made from; `make site` rebuilds only if one is newer than the last good build.
BOOK_SOURCES := _config.yml _toc.yml references.bib $(wildcard chapters/* book/scripts/*.py book/extensions/*.py book/static/* \
	lib/irmeans/*.py lib/irmeans/*/*.py book/irmeans_book/*.py book/irmeans_book/*/*.py)
SITE := _build/site.stamp

$(SITE): $(STAMP) $(ASSETS) $(BOOK_SOURCES)
	# Always from scratch: an incremental build can keep stale copies of the vendored JavaScript.
	# The chapters are not executed: the site shows their stored outputs, which `make test` checks.
	rm -rf _build/html _build/jupyter_execute _build/.doctrees _build/pdf
	$(BIN)/jupyter-book build -W -n --keep-going .
	$(BIN)/python book/scripts/check_site.py _build/html
	# The whole book as two PDFs, the student's and the instructor's, linked from the site (book/scripts/make_pdf.py; needs chromium).
	$(BIN)/python book/scripts/make_pdf.py
	touch $@

site: system venv $(SITE)

book: system venv $(ASSETS)
	rm -f $(SITE)
	$(MAKE) --no-print-directory site

# Read the chapters live: JupyterLab on chapters/, with jupyterlab-myst for their MyST markup
# (book/scripts/lab.py), in the reader's environment (make reader, below: not the developer's tools).
# The server listens on 127.0.0.1 only and asks nothing of the internet (no news and no pop-up asking
# for it, no update check; book/lab/ holds its settings). Extra options:
# make lab LAB_ARGS="--no-browser --port 8890". Run as root, it adds --allow-root.
LAB_ARGS ?=
.PHONY: lab
lab: reader
	$(BIN)/python book/scripts/lab.py $(LAB_ARGS)

# For lecturers: every numbered figure as SVG, slide-sized PNG and PDF in _build/figures/,
# made by the functions the chapters call (book/scripts/make_figures.py).
.PHONY: figures
figures: venv
	$(BIN)/python book/scripts/make_figures.py --out _build/figures

# The whole book as two PDFs in _build/pdf/: the student's edition, irmeans-book.pdf (no solutions),
# and the instructor's, irmeans-book-instructor.pdf (every solution and self-check answer in an
# appendix). Chromium prints a single-page build (from the chapters' stored outputs), with controls
# hidden, bookmarks, a contents page and a new page for each chapter; the PDFs are copied into
# _build/html if the site is there. `make site` runs it too.
.PHONY: pdf
pdf: venv $(ASSETS)
	$(BIN)/python book/scripts/make_pdf.py

# Re-execute the chapters in place: refreshes the outputs nbval compares against.
.PHONY: notebooks
notebooks: venv
	$(BIN)/python book/scripts/execute_notebooks.py

# Every check, each piece of work done once, the two cores kept busy (tests/make_test.py): the site (its build
# and its PDFs); the book's tests with the chapters' one nbval run, numpy held to its baseline
# (tests/numpy_baseline.py) so that the stored outputs, written with every target this CPU has, meet what another
# CPU computes; the library's standalone check (below); lint; the tests in the browser and in JupyterLab (on the
# built site); the library's tests in three more environments (below); last, alone, the quick benchmarks. Each
# part runs to its end whatever the others do; each one's output goes to _build/test-reports/ and is printed when
# it ends; then one summary: each part's result and time, the failing tests by name, the 15 slowest tests. Any
# failure fails the target.
REPORTS := _build/test-reports
test: system-for-tests venv $(ASSETS)
	$(BIN)/python tests/make_test.py

# The two-minute check, for every commit (CONTRIBUTING.md): lint (make lint), the library's tests without the
# property and combination tests (make standalone runs those), and the book's tests without those marked slow
# (tests/book/conftest.py: they build a site, a PDF or release files, or execute chapters; make test runs them).
# The four parts (lint, tests/lib, tests/trec, tests/book) run at once, each to its end, their output printed in
# turn; any failure fails the target. make test stays the whole proof.
CHECK_LOG := _build/check
# pytest with Ctrl-C as Python has it: a shell starts a background job with Ctrl-C ignored, and the library's tests
# send it (a reader's Ctrl-C still stops every part).
CHECK_PYTEST := $(BIN)/python -c "import signal, sys, pytest; signal.signal(signal.SIGINT, signal.default_int_handler); \
	sys.exit(pytest.main(sys.argv[1:]))" -q -p no:cacheprovider
.PHONY: check
check: venv
	@mkdir -p $(CHECK_LOG); \
	$(MAKE) --no-print-directory lint > $(CHECK_LOG)/lint.log 2>&1 & lint=$$!; \
	$(CHECK_PYTEST) tests/lib -m "not property and not combinations" > $(CHECK_LOG)/lib.log 2>&1 & lib=$$!; \
	$(CHECK_PYTEST) tests/trec -m "not property and not combinations" > $(CHECK_LOG)/trec.log 2>&1 & trec=$$!; \
	$(CHECK_PYTEST) tests/book -m "not slow" > $(CHECK_LOG)/book.log 2>&1 & book=$$!; \
	wait $$lint; lint=$$?; wait $$lib; lib=$$?; wait $$trec; trec=$$?; wait $$book; book=$$?; \
	for part in lint lib trec book; do echo "== $$part"; tail -n 40 $(CHECK_LOG)/$$part.log; done; \
	echo "== check: lint $$lint, tests/lib $$lib, tests/trec $$trec, tests/book $$book (0: passed)"; \
	test $$lint -eq 0 -a $$lib -eq 0 -a $$trec -eq 0 -a $$book -eq 0

.PHONY: lint standalone environments
# ruff on everything, then mypy, strict, on the library and the book's code (its settings: [tool.mypy] in
# pyproject.toml); all three run, and any failure fails the target.
lint: venv
	@status=0; \
	$(BIN)/ruff check . || status=1; \
	$(BIN)/ruff format --check . || status=1; \
	$(BIN)/mypy || status=1; \
	exit $$status

# The library stands alone: a virtual environment of its own with just the package and its extras
# (`pip install ".[plot,pandas]"`, with the pinned set) and the test tools, made once and kept. On every run the
# release files are built from this tree and checked as PyPI checks them (make dist), and the wheel is installed
# there: it imports irmeans from there, runs the library and evaluator tests against it (every one of them,
# property and combination tests too: their one run in `make test`), and `irmeans eval` on a small pair.
STANDALONE := _build/standalone
STANDALONE_VENV := $(STANDALONE)/venv
STANDALONE_STAMP := $(STANDALONE_VENV)/.installed

$(STANDALONE_STAMP): constraints.txt pyproject.toml $(STAMP) $(if $(call broken,$(STANDALONE_VENV)),FORCE)
	rm -rf $(STANDALONE_VENV)
	$(UV) venv --quiet --python $(PYTHON) $(STANDALONE_VENV)
	$(UV) pip install --quiet --python $(STANDALONE_VENV)/bin/python -c constraints.txt ".[plot,pandas]" \
		pytest hypothesis pytrec-eval-terrier
	rm -rf build
	touch $@

standalone: $(STANDALONE_STAMP) dist
	$(UV) pip install --quiet --python $(STANDALONE_VENV)/bin/python --no-deps --reinstall $(DIST)/irmeans-*.whl
	cd $(STANDALONE) && venv/bin/python -c "import irmeans, sys; assert 'site-packages' in irmeans.__file__, irmeans.__file__; \
		assert not {'pandas', 'altair', 'irmeans_book'} & set(sys.modules), 'irmeans imported a non-dependency'"
	$(STANDALONE_VENV)/bin/python -m pytest tests/lib tests/trec -q -p no:cacheprovider --junitxml=$(REPORTS)/library.xml
	printf '1 0 a 1\n1 0 b 0\n2 0 c 1\n' > $(STANDALONE)/qrels.txt
	printf '1 Q0 a 1 2.0 r\n1 Q0 b 2 1.0 r\n2 Q0 d 1 1.0 r\n2 Q0 c 2 0.5 r\n' > $(STANDALONE)/run.txt
	$(STANDALONE_VENV)/bin/irmeans eval -m map -m P.1 $(STANDALONE)/qrels.txt $(STANDALONE)/run.txt \
		| tee $(STANDALONE)/eval.txt
	grep -qP '^map\s+all\s+0.7500$$' $(STANDALONE)/eval.txt

# The library's tests in three more environments, each made afresh by uv with the wheel of make dist
# (tests/environments.py): the floor (the lowest Python 3.11 here, every dependency at its lowest installable
# version), Python 3.12 with the pinned set, and Python 3.13 with the newest releases; without the property and
# combination tests, which make standalone runs. A Python this machine lacks is "not run" (a failure with CI set).
environments: venv dist
	@status=0; for name in floor python3.12 newest; do \
		$(BIN)/python tests/environments.py $$name; code=$$?; \
		test $$code -eq 0 -o $$code -eq 3 || status=1; \
	done; exit $$status

# Benchmarks against trec_eval 10 (TREC_EVAL=path/to/trec_eval, or trec_eval on PATH), pytrec_eval,
# ir_measures and ranx (see benchmarks/README.md); their extra dependencies go into the same .venv,
# not into requirements.txt. QUICK=1: the researchers' part alone and split_half on TREC-8, in
# under two minutes and without the extra dependencies (make test runs it).
BENCH_STAMP := $(VENV)/.bench-installed

$(BENCH_STAMP): benchmarks/requirements.txt $(STAMP)
	$(UV_INSTALL) -r benchmarks/requirements.txt
	touch $@

# trec_eval 10's source, built with its own Makefile when no TREC_EVAL and no trec_eval on PATH
# (benchmarks/trec_eval_binary.py); without one the benchmark says which comparisons it leaves out.
TREC_EVAL_SRC ?= ../shared/bench/trec_eval-10.0-src.tar.gz

.PHONY: bench
bench: venv $(if $(QUICK),,$(BENCH_STAMP))
	TREC_EVAL_SRC=$(TREC_EVAL_SRC) $(BIN)/python benchmarks/bench.py $(if $(QUICK),--quick)
	$(BIN)/python benchmarks/bench_split_half.py $(if $(QUICK),--only trec8 --rounds 1 --splits 2000)
	$(BIN)/python benchmarks/bench_compare.py $(if $(QUICK),--quick)
	$(BIN)/python benchmarks/bench_plot.py $(if $(QUICK),--quick,--vl-convert)

serve:
	$(BIN)/python -m http.server --bind 127.0.0.1 --directory _build/html 8000

clean:
	rm -rf _build .pytest_cache .mypy_cache

# ---------------------------------------------------------------------------
# For readers and lecturers
# ---------------------------------------------------------------------------

# The reader's environment, in .venv/: what reading the chapters live needs (requirements-book.txt: the
# library, the book's package, Altair, ipywidgets, JupyterLab and jupyterlab-myst, vl-convert for slides), not
# the developer's tools (jupyter-book, playwright, mypy, ruff, pytest, hypothesis). make lab and
# make chapter need no more; make venv installs the developer's set on top of it.
READER_STAMP := $(VENV)/.installed-book
.PHONY: reader
reader: $(READER_STAMP)

$(READER_STAMP): requirements-book.txt constraints.txt pyproject.toml book/pyproject.toml book/lab/pyproject.toml $(wildcard book/lab/*/*.json) $(if $(VENV_BROKEN),FORCE)
	$(new_venv)
	$(UV_INSTALL) -r requirements-book.txt
	touch $(READER_STAMP)

# A chapter of one's own: run a copy of a chapter, anywhere (make chapter NOTEBOOK=course/lecture-3.ipynb),
# in place, as make notebooks runs the book's: its printed values, figures and live controls follow its data,
# its prose's numbers are stored as JupyterLab shows them, and the sentences its data no longer bear out are
# listed (book/scripts/execute_notebooks.py).
NOTEBOOK ?=
.PHONY: chapter
chapter: reader
	@test -n "$(NOTEBOOK)" || { echo 'make chapter NOTEBOOK=path/to/your-copy.ipynb'; exit 2; }
	$(BIN)/python book/scripts/execute_notebooks.py $(NOTEBOOK)

# The site for a course that grades its exercises, in _build/course/html: no solutions, no self-check answers,
# no link to the instructor's edition, the chapters it serves without their solutions, and the student's PDF
# alone (book/scripts/course_site.py: the site's build with irmeans_course set, _config.yml left as it is;
# about as long as make site and make pdf). COURSE_ARGS=--no-pdf leaves the PDF out.
COURSE_ARGS ?=
.PHONY: course
course: system venv $(ASSETS)
	$(BIN)/python book/scripts/course_site.py --out _build/course $(COURSE_ARGS)

# ---------------------------------------------------------------------------
# Releasing (README.md, "Releasing")
# ---------------------------------------------------------------------------

# The library's release files in _build/dist/: the source archive (sdist) and the wheel, built by
# python -m build from a copy of the source tree (nothing is written into it) and checked with
# twine check --strict, as PyPI checks them (book/scripts/release.py). About 5 seconds. make standalone
# installs this wheel and runs the library's tests on it; tests/book/test_release.py checks the files.
DIST := _build/dist
.PHONY: dist
dist: venv
	$(BIN)/python book/scripts/release.py --out $(DIST)
