# `make run` and `make test` each do their own set-up on a fresh machine (a venv in .venv).
PYTHON ?= python3
VENV ?= .venv
PORT ?= 8501
# Only this machine by default; `make run ADDRESS=0.0.0.0` serves others (README: Serving others).
ADDRESS ?= 127.0.0.1
CHROMIUM ?= /usr/bin/chromium
BIN := $(VENV)/bin
# Stamps: reinstall only when a requirements file or pyproject.toml changed since the last install. Both
# install the checkout itself, editable, so `compaction` and `compaction-lab` are on the venv's PATH.
RUN_STAMP := $(VENV)/.installed-runtime
DEV_STAMP := $(VENV)/.installed-dev
PYTEST := $(BIN)/pytest --timeout 300

.PHONY: run test lint bench chromium

# A bare Debian has no python3 or no ensurepip (python3-venv): install them as root, else say so.
$(BIN)/python:
	@if ! $(PYTHON) -c 'import ensurepip' >/dev/null 2>&1; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y python3 python3-venv; \
		else \
			echo "$(PYTHON) with venv support is needed: install python3 and python3-venv." >&2; exit 1; \
		fi; \
	fi
	$(PYTHON) -m venv $(VENV)

$(RUN_STAMP): requirements.txt pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -r requirements.txt
	touch $@

$(DEV_STAMP): requirements.txt requirements-dev.txt pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt
	touch $@ $(RUN_STAMP)

# The app loads a bundled sample at start; no API key is needed (Claude is optional).
run: $(RUN_STAMP)
	$(BIN)/compaction-lab --server.headless true --server.port $(PORT) --server.address $(ADDRESS)

# Browser tests run apart and serially: each pytest-xdist worker would start its own server and browser.
test: $(DEV_STAMP) chromium
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(PYTEST) -n 2 -m "not browser" --durations=10
	$(PYTEST) -m browser -p no:xdist --durations=10

lint: $(DEV_STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

bench: $(DEV_STAMP)
	@set -e; for script in benchmarks/bench_*.py; do echo "== $$script"; $(BIN)/python $$script; done

# Debian's chromium for Playwright (Playwright's own browser download is not possible here).
chromium:
	@if [ -x "$(CHROMIUM)" ]; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ]; then \
		apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; \
	else \
		echo "chromium is missing at $(CHROMIUM): install it with 'sudo apt-get install -y chromium'." >&2; \
		echo "Browser tests will be skipped locally (and fail under CI=true)." >&2; \
		if [ "$$CI" = true ]; then exit 1; fi; \
	fi
