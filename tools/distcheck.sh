#!/usr/bin/env bash
# Install the built wheel into a fresh virtualenv where no C compiler works (CC and CXX point at
# /bin/false) and Cython is absent, then run tools/distcheck.py from outside the source tree, so
# that only the installed package can be imported (with the web extra: the installed server must
# serve its page and the front end's bundle the wheel carries).
set -euo pipefail
# The wheels' folder is the first argument (default dist); the one for python3's version is used.
root="$(cd "$(dirname "$0")/.." && pwd)"
tag="$(python3 -c 'import sys; print("cp%d%d" % sys.version_info[:2])')"
wheel="$(ls "${1:-$root/dist}"/boardplay-*-"$tag"-*manylinux*.whl | head -n 1)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 -m venv "$work/venv"
export CC=/bin/false CXX=/bin/false
"$work/venv/bin/pip" install -q --upgrade pip
# Every dependency as a wheel, but http-ece (pywebpush's, published as source only): it is pure
# Python, so its build needs no compiler either.
"$work/venv/bin/pip" install -q --only-binary=:all: --no-binary=http-ece "$wheel[rl,web]"
cp "$root/tools/distcheck.py" "$work/"
cd "$work"
"$work/venv/bin/boardplay" --help >/dev/null
"$work/venv/bin/boardplay" sim potlatch --games 3 >/dev/null
"$work/venv/bin/python" distcheck.py
