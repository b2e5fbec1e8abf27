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

# Reinstall whenever the requirements or the package metadata change.
$(STAMP): requirements.txt constraints.txt pyproject.toml book/pyproject.toml book/lab/pyproject.toml $(wildcard book/lab/*/*.json)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt
	touch $(STAMP)

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
	# Always from scratch: every notebook is re-executed anyway, and an incremental
	# build can keep stale copies of the vendored JavaScript.
	rm -rf _build
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
# (book/scripts/lab.py). The server listens on 127.0.0.1 only and asks nothing of the internet (no news
# and no pop-up asking for it, no update check; book/lab/ holds its settings). Extra options:
# make lab LAB_ARGS="--no-browser --port 8890". Run as root, it adds --allow-root.
LAB_ARGS ?=
.PHONY: lab
lab: venv
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

# Lint, the standalone library check, every test, then the quick benchmarks. The site is
# built first; then the tests in the browser and in JupyterLab (Debian's chromium) run beside
# the others, in a second pytest, their report printed after the first's (two cores, about
# half the time). Either failing fails the target.
BROWSER_LOG := _build/test-browser-and-lab.log
test: venv system lint standalone $(ASSETS)
	$(MAKE) --no-print-directory site
	$(BIN)/python -m pytest tests/browser tests/lab > $(BROWSER_LOG) 2>&1 & browser=$$!; \
	$(BIN)/python -m pytest tests --ignore=tests/browser --ignore=tests/lab chapters \
		--nbval --nbval-sanitize-with tests/nbval_sanitize.cfg; others=$$?; \
	wait $$browser; inbrowser=$$?; \
	echo "== the tests in the browser and in JupyterLab ($(BROWSER_LOG))"; cat $(BROWSER_LOG); \
	test $$others -eq 0 && test $$inbrowser -eq 0
	$(MAKE) --no-print-directory bench QUICK=1

.PHONY: lint standalone
# ruff on everything, then mypy, strict, on the library (its settings: [tool.mypy] in pyproject.toml).
lint: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# The library stands alone: a fresh virtual environment with just `pip install .`
# (and the test tools), which imports irmeans, runs the library and evaluator
# tests against the installed package, and runs `irmeans eval` on a small pair.
STANDALONE := _build/standalone
standalone:
	rm -rf $(STANDALONE) build
	$(PYTHON) -m venv $(STANDALONE)/venv
	$(STANDALONE)/venv/bin/python -m pip install --quiet --upgrade pip
	$(STANDALONE)/venv/bin/python -m pip install --quiet -c constraints.txt . pytest hypothesis pytrec-eval-terrier pandas
	rm -rf build
	cd $(STANDALONE) && venv/bin/python -c "import irmeans, sys; assert 'site-packages' in irmeans.__file__, irmeans.__file__; \
		assert not {'pandas', 'altair', 'irmeans_book'} & set(sys.modules), 'irmeans imported a non-dependency'"
	$(STANDALONE)/venv/bin/python -m pytest tests/lib tests/trec -q -p no:cacheprovider
	printf '1 0 a 1\n1 0 b 0\n2 0 c 1\n' > $(STANDALONE)/qrels.txt
	printf '1 Q0 a 1 2.0 r\n1 Q0 b 2 1.0 r\n2 Q0 d 1 1.0 r\n2 Q0 c 2 0.5 r\n' > $(STANDALONE)/run.txt
	$(STANDALONE)/venv/bin/irmeans eval -m map -m P.1 $(STANDALONE)/qrels.txt $(STANDALONE)/run.txt \
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

serve:
	$(BIN)/python -m http.server --bind 127.0.0.1 --directory _build/html 8000

clean:
	rm -rf _build .pytest_cache .mypy_cache
