# Minerace: `make run` serves the game, `make test` runs the whole suite.
# Both create .venv and install the pinned requirements on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
# `make test` runs the suite on two pytest-xdist workers, one per core of the machines it runs
# on: most of the suite's time is spent waiting (on Daphne, PostgreSQL, Redis, Chromium and the
# clocks of leases), which the other worker fills. A module stays on one worker (loadscope), so
# its servers start once. `make test PYTEST_WORKERS=` runs it in one process.
PYTEST_WORKERS ?= -n 2 --dist loadscope

.PHONY: run test lint format check clean

# The JavaScript tools (ESLint, TypeScript's checker), pinned in package-lock.json; tools only:
# the pages are served as written, with no build step.
NODE_TOOLS := node_modules/.installed

$(BIN)/.installed: requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --disable-pip-version-check -q -r requirements.txt
	touch $@

$(BIN)/.installed-dev: requirements.txt requirements-dev.txt $(BIN)/.installed
	$(BIN)/pip install --disable-pip-version-check -q -r requirements-dev.txt
	touch $@

$(NODE_TOOLS): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

run: $(BIN)/.installed
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

test: $(BIN)/.installed-dev
	$(BIN)/python -m pytest $(PYTEST_WORKERS) $(PYTEST_ARGS)

lint: $(BIN)/.installed-dev $(NODE_TOOLS)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	node_modules/.bin/eslint frontend
	node_modules/.bin/tsc -p jsconfig.json

format: $(BIN)/.installed-dev
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

clean:
	rm -rf $(VENV) node_modules .pytest_cache .hypothesis
