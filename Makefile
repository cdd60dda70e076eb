# Everything a fresh machine needs: `make demo` and `make test` create the venv themselves.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEMO_DB := build/demo.sqlite3
# pytest-xdist workers for `make test`: three on the 2-core machine it must pass on, because a
# worker waits part of its time (servers, browsers, commands it starts): fresh clones took
# 0.645 s of wall time per CPU-s used with three (two runs), 0.674-0.685 with two (issue 35;
# docs/performance.md: the VM's speed drifted between the runs, so wall times alone mislead)
TEST_WORKERS ?= 3
# Python writes and reads deckcheck's own bytecode (the venv's packages have theirs from pip):
# a machine that sets PYTHONDONTWRITEBYTECODE (the 2-core VM does) compiled deckcheck's ~100
# modules again in every process, 0.08 s of each command's 0.38 s start-up, and the suite starts
# several hundred commands (issue 35). __pycache__/ is in .gitignore.
unexport PYTHONDONTWRITEBYTECODE

# The message catalogue (deckcheck/i18n.py): English source texts, Japanese translations.
PO := deckcheck/locale/ja/LC_MESSAGES/deckcheck.po
MO := $(PO:.po=.mo)
POT := build/deckcheck.pot
BABEL := $(BIN)/python -m babel.messages.frontend

# The builder page's scripts in one file (esbuild, from package-lock.json): the page loads it
# instead of its 26 modules one request each, about a quarter of a page opening's CPU in the
# browser, the network process and the server (benchmarks/page_open_bench.py, issue 35). The
# first line names the digest of the sources it was built from: the page serves the modules
# themselves when no bundle of the current sources exists (deckcheck/web/__init__.py). Not
# minified: a bundle reads like its sources. git ignores it; a wheel built after make carries it.
BUNDLE := deckcheck/web/static/bundle/builder.js

.PHONY: page demo test tests checks checks-beside test-extra-game engines typecheck-page lint bench clean messages docs

# uv (from PyPI, into the venv by its own pip) installs every extra (pyproject.toml): the same
# packages at the same versions as pip, in 8 s against pip's 58 s on a fresh clone with an empty
# cache on the 2-core VM (issue 35: downloads and unpacking in parallel, and no byte-compiling of
# every installed module up front: Python compiles what it imports, once, as make runs it).
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet uv
	$(BIN)/uv pip install --quiet --python $(BIN)/python -e '.[dev,sim,plots,service,cluster]'
	touch $(STAMP)

# Compiled at build time; deckcheck reads the .po itself (through Babel) if this has not run.
$(MO): $(PO) $(STAMP)
	$(BABEL) compile -D deckcheck -d deckcheck/locale -l ja --statistics

# Extract every marked string (babel.cfg) and merge it into the Japanese catalogue: new
# entries arrive untranslated, and tests/test_i18n.py fails until each has its Japanese.
messages: $(STAMP)
	mkdir -p build
	$(BABEL) extract -F babel.cfg -k _ -k _n:1,2 -k _p:1c,2 -k N_ --no-wrap --sort-by-file \
	  --add-comments=TRANSLATORS: --project deckcheck -o $(POT) .
	$(BABEL) update -i $(POT) -D deckcheck -d deckcheck/locale -l ja --no-wrap \
	  --ignore-obsolete --no-fuzzy-matching

# Builds the card database from card_pool/, then validates the legal and illegal example deck
# of every format. validate exits 1 because half the examples are illegal; 2 would be an error.
# Last, compiles every game's goldfish engine into numba's cache (so the first `deckcheck
# goldfish` starts at once) and prints how to run the venv's deckcheck.
demo: $(STAMP) $(MO) page
	rm -f $(DEMO_DB)
	mkdir -p build
	$(BIN)/deckcheck pool init --db $(DEMO_DB)
	$(BIN)/deckcheck pool stats --db $(DEMO_DB)
	$(BIN)/deckcheck formats
	$(BIN)/deckcheck validate examples --db $(DEMO_DB); test $$? -eq 1
	$(BIN)/python -m deckcheck.cli.warm --db $(DEMO_DB) --usage

# axe-core for the browser tests' accessibility check (issue 32), TypeScript for
# typecheck-page and esbuild for the page's bundle, from package-lock.json
node_modules/.stamp: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

# First the engines' compile (one game per process, on both cores), so no two pytest workers
# compile one engine at once; then the checks (one process at a time) beside the tests: the
# pytest workers leave part of the two cores idle while they wait on the servers, browsers and
# commands their tests start (issue 35), and the checks' 17 CPU-s (mypy's 14 without its cache)
# fill some of it. The tests' progress shows as it runs; the checks' output is printed whole
# when they end (build/checks.log). A worker that runs out of tests takes some of another's
# (--dist worksteal).
# npm's install (about 2 s) runs beside the venv's and the engines' compile.
test:
	$(MAKE) --no-print-directory -j2 engines node_modules/.stamp
	$(MAKE) --no-print-directory -j2 checks-beside tests

# OpenBLAS with one thread, as deckcheck's own processes run it (deckcheck/__init__.py): pytest's
# plugins load NumPy in the workers before deckcheck could say so. Its idle threads spinning
# took about 1 % of a suite run's CPU (perf, 2026-12-03). A value already set wins.
tests: $(STAMP) $(MO) node_modules/.stamp $(BUNDLE)
	OPENBLAS_NUM_THREADS=$${OPENBLAS_NUM_THREADS:-1} $(BIN)/pytest -n $(TEST_WORKERS) --dist worksteal

# Beside the tests, the checks no test runs: the suite runs lint-imports on the tree
# (tests/test_layers.py) and builds the site strictly (tests/test_docs.py) itself, so `make
# test` no longer does either twice (issue 35: the docs' second build, about 3 CPU-s).
checks-beside: $(STAMP) node_modules/.stamp
	@mkdir -p build
	@$(MAKE) --no-print-directory lint > build/checks.log 2>&1; status=$$?; \
	  cat build/checks.log; exit $$status

# Every check at once, without the tests: lint, the import contracts and the docs.
checks: lint
	$(BIN)/lint-imports
	$(MAKE) --no-print-directory docs

lint: $(STAMP) node_modules/.stamp
	$(BIN)/ruff check deckcheck tests benchmarks mkdocs_hooks.py
	$(BIN)/mypy
	$(MAKE) --no-print-directory typecheck-page

# The suite with a sixth game installed (issue 33: the core's tests hold for any set of installed
# games): the test plugin that is a whole game package (the one under tests/plugins/ with tests
# of its own; EXTRA_GAME_PACKAGE names another) copied into build/extra-game beside a hand-written
# dist-info with its entry point (tests/extra_game.py) and put on PYTHONPATH, so deckcheck finds
# it as an installed game while the venv stays as it is. Not part of `make test` (it runs the
# whole suite again); TESTS narrows it: make test-extra-game TESTS=tests/test_registry.py
EXTRA_GAME := build/extra-game
EXTRA_GAME_PACKAGE ?= $(patsubst %/tests/,%,$(firstword $(wildcard tests/plugins/*/tests/)))
TESTS ?=
test-extra-game: $(STAMP) $(MO) node_modules/.stamp
	rm -rf $(EXTRA_GAME)
	$(BIN)/python -m tests.extra_game $(EXTRA_GAME_PACKAGE) $(EXTRA_GAME)
	PYTHONPATH=$(CURDIR)/$(EXTRA_GAME):$(CURDIR) $(BIN)/pytest -n $(TEST_WORKERS) $(TESTS)

# The page's scripts (deckcheck/web/static/*.js, ES modules) checked against their JSDoc types
# by TypeScript (tsc --checkJs, strict: tsconfig.json; issue 33). Nothing is emitted: the
# browser runs them as they are, or their bundle (below).
typecheck-page: node_modules/.stamp
	node_modules/.bin/tsc -p tsconfig.json

# make test needs npm anyway (axe-core, TypeScript); make demo and make bench build the bundle
# only where npm is installed, and the page loads its modules one by one where it is not
page:
	@if command -v npm >/dev/null 2>&1; then $(MAKE) --no-print-directory $(BUNDLE); \
	else echo "npm is not installed: the builder page will load its scripts one by one"; fi

$(BUNDLE): $(wildcard deckcheck/web/static/*.js) node_modules/.stamp $(STAMP)
	node_modules/.bin/esbuild deckcheck/web/static/builder.js --bundle --format=esm \
	  --charset=utf8 --log-level=warning --outfile=$@ \
	  --banner:js="$$($(BIN)/python -c 'from deckcheck.web import banner; print(banner())')"

# Every game's goldfish engine compiled into numba's cache once, one game per process on both
# cores, before the suite: in a fresh clone the tests compiled them themselves, the same engine
# in both pytest workers at once, and a first compile inside a service request could reach its
# deadline (DECKCHECK_SYNC_SECONDS) on a loaded machine (issue 38). Loaded from the cache when
# nothing changed.
engines: $(STAMP) $(MO)
	mkdir -p build
	$(BIN)/python -m deckcheck.cli.warm --db build/engines.sqlite3 --processes $(TEST_WORKERS)

# Each benchmark prints its figures and keeps them in build/bench.json; the last step prints
# them as one table (figure, plain-Python reference, ratio, goal, met).
bench: $(STAMP) $(MO) page
	rm -f build/bench.json
	$(BIN)/python -m benchmarks.validate_bench
	$(BIN)/python -m benchmarks.odds_bench
	$(BIN)/python -m benchmarks.goldfish_bench
	$(BIN)/python -m benchmarks.first_goldfish_bench
	$(BIN)/python -m benchmarks.vision_bench
	$(BIN)/python -m benchmarks.sweep_bench
	$(BIN)/python -m benchmarks.tune_search_bench
	$(BIN)/python -m benchmarks.worst_case_bench
	$(BIN)/python -m benchmarks.web_bench
	$(BIN)/python -m benchmarks.i18n_bench
	$(BIN)/python benchmarks/load.py --seconds 5 --wrk
	$(BIN)/python -m benchmarks.table

# The documentation site (docs/, mkdocs.yml), English and Japanese page for page, into
# build/site. --strict: any warning (a broken link or anchor, a page in one language only) fails.
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

clean:
	rm -rf $(VENV) build .pytest_cache .mypy_cache .ruff_cache .hypothesis
