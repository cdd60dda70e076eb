# Everything a fresh machine needs: `make demo` and `make test` create the venv themselves.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEMO_DB := build/demo.sqlite3

.PHONY: demo test lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
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
	$(BIN)/pytest

bench: $(STAMP)
	$(BIN)/python benchmarks/validate_bench.py
	$(BIN)/python benchmarks/odds_bench.py
	$(BIN)/python benchmarks/goldfish_bench.py
	$(BIN)/python benchmarks/vision_bench.py
	$(BIN)/python benchmarks/load.py --seconds 5 --wrk

clean:
	rm -rf $(VENV) build .pytest_cache .mypy_cache .ruff_cache .hypothesis
