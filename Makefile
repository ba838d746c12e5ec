# The commands the README names. Each installs what it needs into .venv first.
VENV    := .venv
PY      := $(VENV)/bin/python
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed
PYTEST_WORKERS ?= 2

.PHONY: play test soak bench lint format chromium clean

$(STAMP): pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[ai,web,rl,postgres,dev]'
	touch $(STAMP)

# Debian's Chromium for the browser tests (Playwright's own download cannot work here).
chromium:
	@test -x /usr/bin/chromium || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -q && $$SUDO apt-get install -y -q chromium; }

play: $(STAMP)
	$(BIN)/boardplay serve

test: $(STAMP) chromium lint
	$(BIN)/pytest -n $(PYTEST_WORKERS) -q

# Same tests, full game counts (thousands of random games per option set).
soak: $(STAMP)
	BOARDPLAY_SOAK=1 $(BIN)/pytest -n $(PYTEST_WORKERS) -q -m "slow or not slow" tests

bench: $(STAMP)
	$(BIN)/boardplay bench --mcts --adapters --seconds 2

lint: $(STAMP)
	$(BIN)/ruff check src tests
	$(BIN)/ruff format --check src tests
	$(BIN)/mypy

format: $(STAMP)
	$(BIN)/ruff format src tests
	$(BIN)/ruff check --fix src tests

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
