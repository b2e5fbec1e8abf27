# The project's commands. `make book` and `make test` each set up .venv/ first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: venv book site test serve clean

venv: $(STAMP)

# What the site and its tests need from the system: Node.js with npm (the site's
# JavaScript comes from npm), Debian's chromium (the book's PDF and the browser
# tests) and poppler-utils (the tests read the PDF with pdftotext, pdftohtml and
# pdftoppm). Installed with apt-get when missing (as root, on Debian).
.PHONY: system
system:
	@missing=""; command -v npm >/dev/null || missing="nodejs npm"; \
	[ -x /usr/bin/chromium ] || missing="$$missing chromium"; \
	command -v pdftoppm >/dev/null || missing="$$missing poppler-utils"; \
	if [ -n "$$missing" ]; then \
		echo "installing$$missing with apt-get"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	fi

# Reinstall whenever the requirements or the package metadata change. The developer's set (requirements.txt)
# holds the reader's (requirements-book.txt, below), which it marks installed too.
$(STAMP): requirements.txt requirements-book.txt constraints.txt pyproject.toml book/pyproject.toml book/lab/pyproject.toml $(wildcard book/lab/*/*.json)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt
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

site: venv system $(SITE)

book: venv system $(ASSETS)
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

# Every check, each piece of work done once, the two cores kept busy:
# 1. lint;
# 2. the site (its build and its PDFs) and, beside it, the library's standalone check (the library and
#    evaluator tests, in an environment with just the package installed);
# 3. the tests in the browser and in JupyterLab (on the built site) and, beside them, the book's tests with
#    the chapters' one nbval run, numpy held to its baseline (tests/numpy_baseline.py) so that the stored
#    outputs, written with every target this CPU has, meet what another CPU computes;
# 4. the quick benchmarks; then the 15 slowest tests of all the runs.
# Each run's report goes to _build/test-reports/ and its output is printed when it ends; any failure
# fails the target.
REPORTS := _build/test-reports
PYTEST := $(BIN)/python -m pytest -p no:cacheprovider
test: venv system lint $(ASSETS)
	rm -rf $(REPORTS) && mkdir -p $(REPORTS)
	$(MAKE) --no-print-directory standalone > $(REPORTS)/standalone.log 2>&1 & standalone=$$!; \
	$(MAKE) --no-print-directory site; site=$$?; \
	wait $$standalone; alone=$$?; \
	echo "== the library's standalone check ($(REPORTS)/standalone.log)"; cat $(REPORTS)/standalone.log; \
	test $$site -eq 0 && test $$alone -eq 0
	$(PYTEST) tests/browser tests/lab --junitxml=$(REPORTS)/browser-and-lab.xml > $(REPORTS)/browser-and-lab.log 2>&1 & \
	browser=$$!; \
	features="$$($(BIN)/python tests/numpy_baseline.py)"; \
	echo "== the book's tests and the chapters' stored outputs, numpy held to its baseline (NPY_DISABLE_CPU_FEATURES=\"$$features\")"; \
	NPY_DISABLE_CPU_FEATURES="$$features" $(PYTEST) tests/book chapters --nbval \
		--nbval-sanitize-with tests/nbval_sanitize.cfg --junitxml=$(REPORTS)/book.xml; book=$$?; \
	wait $$browser; inbrowser=$$?; \
	echo "== the tests in the browser and in JupyterLab ($(REPORTS)/browser-and-lab.log)"; \
	cat $(REPORTS)/browser-and-lab.log; \
	test $$book -eq 0 && test $$inbrowser -eq 0
	$(MAKE) --no-print-directory bench QUICK=1
	$(BIN)/python tests/slowest.py -n 15 $(REPORTS)/*.xml

.PHONY: lint standalone
# ruff on everything, then mypy, strict, on the library (its settings: [tool.mypy] in pyproject.toml).
lint: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# The library stands alone: a virtual environment of its own with just the package and its extras
# (`pip install ".[plot,pandas]"`) and the test tools, made once and kept. On every run the release files
# are built from this tree and checked as PyPI checks them (make dist), and the wheel is installed there:
# it imports irmeans from there, runs the library and evaluator tests against it (their only run in
# `make test`), and `irmeans eval` on a small pair.
STANDALONE := _build/standalone
STANDALONE_VENV := $(STANDALONE)/venv
STANDALONE_STAMP := $(STANDALONE_VENV)/.installed

$(STANDALONE_STAMP): constraints.txt pyproject.toml
	rm -rf $(STANDALONE_VENV)
	$(PYTHON) -m venv $(STANDALONE_VENV)
	$(STANDALONE_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(STANDALONE_VENV)/bin/python -m pip install --quiet -c constraints.txt ".[plot,pandas]" pytest hypothesis pytrec-eval-terrier
	rm -rf build
	touch $@

standalone: $(STANDALONE_STAMP) dist
	$(STANDALONE_VENV)/bin/python -m pip install --quiet --no-deps --force-reinstall $(DIST)/irmeans-*.whl
	cd $(STANDALONE) && venv/bin/python -c "import irmeans, sys; assert 'site-packages' in irmeans.__file__, irmeans.__file__; \
		assert not {'pandas', 'altair', 'irmeans_book'} & set(sys.modules), 'irmeans imported a non-dependency'"
	$(STANDALONE_VENV)/bin/python -m pytest tests/lib tests/trec -q -p no:cacheprovider --junitxml=$(REPORTS)/library.xml
	printf '1 0 a 1\n1 0 b 0\n2 0 c 1\n' > $(STANDALONE)/qrels.txt
	printf '1 Q0 a 1 2.0 r\n1 Q0 b 2 1.0 r\n2 Q0 d 1 1.0 r\n2 Q0 c 2 0.5 r\n' > $(STANDALONE)/run.txt
	$(STANDALONE_VENV)/bin/irmeans eval -m map -m P.1 $(STANDALONE)/qrels.txt $(STANDALONE)/run.txt \
		| tee $(STANDALONE)/eval.txt
	grep -qP '^map\s+all\s+0.7500$$' $(STANDALONE)/eval.txt

# Benchmarks against trec_eval 10 (TREC_EVAL=path/to/trec_eval, or trec_eval on PATH), pytrec_eval,
# ir_measures and ranx (see benchmarks/README.md); their extra dependencies go into the same .venv,
# not into requirements.txt. QUICK=1: the researchers' part alone and split_half on TREC-8, in
# under two minutes and without the extra dependencies (make test runs it).
BENCH_STAMP := $(VENV)/.bench-installed

$(BENCH_STAMP): benchmarks/requirements.txt $(STAMP)
	$(BIN)/python -m pip install --quiet -r benchmarks/requirements.txt
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

$(READER_STAMP): requirements-book.txt constraints.txt pyproject.toml book/pyproject.toml book/lab/pyproject.toml $(wildcard book/lab/*/*.json)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements-book.txt
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
course: venv system $(ASSETS)
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
