# Everything a fresh machine needs: `make demo` and `make test` create the venv themselves.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEMO_DB := build/demo.sqlite3
# pytest-xdist workers for `make test`: both cores of the 2-core machine it must pass on
TEST_WORKERS ?= 2

.PHONY: demo test lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev,cluster]'
	touch $(STAMP)

# Builds the card database from card_pool/, then validates the legal and illegal example deck
# of every format. validate exits 1 because half the examples are illegal; 2 would be an error.
demo: $(STAMP)
	rm -f $(DEMO_DB)
	mkdir -p build
	$(BIN)/deckcheck pool init --db $(DEMO_DB)
	$(BIN)/deckcheck pool stats --db $(DEMO_DB)
	$(BIN)/deckcheck formats
	$(BIN)/deckcheck validate examples --db $(DEMO_DB); test $$? -eq 1

test: $(STAMP)
	$(BIN)/ruff check deckcheck tests benchmarks
	$(BIN)/mypy
	$(BIN)/pytest -n $(TEST_WORKERS)

# Each benchmark prints its figures and keeps them in build/bench.json; the last step prints
# them as one table (figure, plain-Python reference, ratio, goal, met).
bench: $(STAMP)
	rm -f build/bench.json
	$(BIN)/python -m benchmarks.validate_bench
	$(BIN)/python -m benchmarks.odds_bench
	$(BIN)/python -m benchmarks.goldfish_bench
	$(BIN)/python -m benchmarks.vision_bench
	$(BIN)/python -m benchmarks.sweep_bench
	$(BIN)/python -m benchmarks.worst_case_bench
	$(BIN)/python -m benchmarks.web_bench
	$(BIN)/python benchmarks/load.py --seconds 5 --wrk
	$(BIN)/python -m benchmarks.table

clean:
	rm -rf $(VENV) build .pytest_cache .mypy_cache .ruff_cache .hypothesis
