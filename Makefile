# Minerace: `make run` serves the game, `make test` runs the whole suite.
# Both create .venv and install the pinned requirements on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint format check clean

$(BIN)/.installed: requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --disable-pip-version-check -q -r requirements.txt
	touch $@

$(BIN)/.installed-dev: requirements.txt requirements-dev.txt $(BIN)/.installed
	$(BIN)/pip install --disable-pip-version-check -q -r requirements-dev.txt
	touch $@

run: $(BIN)/.installed
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

test: $(BIN)/.installed-dev
	$(BIN)/python -m pytest $(PYTEST_ARGS)

lint: $(BIN)/.installed-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

format: $(BIN)/.installed-dev
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
