#!/usr/bin/env bash
# The full test suite, from a fresh machine: installs what the tests need, then runs
# ruff, mypy --strict on the whole package, the page's JavaScript checks (eslint, tsc, node's
# test runner: docs/page.md), and pytest (engine, CLI, web API, browser, TUI, odds, and the
# static site, which it builds from the registries: docs/site.md).
set -euo pipefail
cd "$(dirname "$0")/.."

PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
. .venv/bin/activate

# Browser tests drive Debian's Chromium headless shell (test tools cannot download
# browsers here; tests/web/browser.py says why the shell, not the desktop chromium).
if ! command -v chromium-headless-shell >/dev/null 2>&1 && [ -z "${FIRSTLAST_SKIP_APT:-}" ]; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium-headless-shell tmux >/dev/null
  fi
fi
if ! command -v tmux >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && [ -z "${FIRSTLAST_SKIP_APT:-}" ]; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tmux >/dev/null
fi
# The native fast forced line is built with the system's C compiler (docs/odds.md).
if ! command -v cc >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && [ -z "${FIRSTLAST_SKIP_APT:-}" ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc libc6-dev >/dev/null
fi
# The page's checks run on node; Debian's nodejs and npm are enough (tools/js pins the rest).
if { ! command -v node || ! command -v npm; } >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && [ -z "${FIRSTLAST_SKIP_APT:-}" ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null
fi

# The page's checks' node packages install while pip runs (both mostly wait on the
# network): npm ci only when the lock changed since the last install (a copy is kept beside it).
JS=tools/js
npm_log=$(mktemp)
mypy_log=$(mktemp)
trap 'rm -f "$npm_log" "$mypy_log"' EXIT   # the two logs are shown where a step fails, then go
if ! cmp -s "$JS/package-lock.json" "$JS/node_modules/.installed-lock.json"; then
  ( npm ci --prefix "$JS" --no-audit --no-fund --loglevel=error >"$npm_log" 2>&1 &&
    cp "$JS/package-lock.json" "$JS/node_modules/.installed-lock.json" ) &
  npm_job=$!
fi
# The venv's own pip is enough (Python 3.11's installs editable pyproject packages); an
# upgrade first was one more round trip to the index on every run (issue 25.7).
# --no-compile: pip byte-compiled every module of every dependency (numpy, matplotlib,
# dask…), half its CPU time; Python compiles the few the tests import when they load.
python -m pip install -q --no-compile -e ".[dev]"
# ... and keeps them (__pycache__, which git ignores): the suite starts hundreds of Python
# processes (servers, the CLI, the terminal, Dask workers), and where PYTHONDONTWRITEBYTECODE
# is set each one compiled every module it imported from source again, dependencies
# included: about 1 s of CPU a process (tests/cli with three server and terminal modules:
# 57 CPU-s, 24 once kept).
unset PYTHONDONTWRITEBYTECODE
if [ -n "${npm_job:-}" ] && ! wait "$npm_job"; then cat "$npm_log"; exit 1; fi

echo "== ruff"
ruff check src tests bench scripts
# mypy runs on one core: the page's checks run on the other meanwhile.
echo "== mypy --strict (the whole package), beside the page's JavaScript: eslint, tsc --checkJs, node --test"
mypy >"$mypy_log" 2>&1 &
mypy_job=$!
"$JS/node_modules/.bin/eslint" -c "$JS/eslint.config.js" src/firstlast/web/static/js src/firstlast/site/static "$JS"
"$JS/node_modules/.bin/tsc" -p "$JS"
"$JS/node_modules/.bin/tsc" -p "$JS/tsconfig.workers.json"   # the static site's workers (docs/site.md)
if ! out=$(node --test "$JS"/test/*.test.js 2>&1); then echo "$out"; exit 1; fi
mypy_status=0
wait "$mypy_job" || mypy_status=$?
cat "$mypy_log"
[ "$mypy_status" = 0 ]
echo "== pytest"
# Browser and terminal tests must run here: a missing Chromium or tmux fails them.
export FIRSTLAST_NO_SKIP=1
# Test modules run side by side, one process per core (pytest-xdist; a module's tests stay
# together, so its browser and server start once): most of the suite waits on Chromium,
# a terminal or a server, so one process left the cores idle for half the run.
python -m pytest -n "${FIRSTLAST_TEST_PROCESSES:-auto}" --dist loadfile "$@"
