#!/usr/bin/env bash
# Install the built wheel into a fresh virtualenv where no C compiler works (CC and CXX point at
# /bin/false) and Cython is absent, then run tools/distcheck.py from outside the source tree, so
# that only the installed package can be imported (with the web extra: the installed server must
# serve its page and the front end's bundle the wheel carries).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
wheel="$(ls "$root"/dist/boardplay-*-manylinux*.whl | head -n 1)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 -m venv "$work/venv"
export CC=/bin/false CXX=/bin/false
"$work/venv/bin/pip" install -q --upgrade pip
"$work/venv/bin/pip" install -q --only-binary=:all: "$wheel[rl,web]"
cp "$root/tools/distcheck.py" "$work/"
cd "$work"
"$work/venv/bin/boardplay" --help >/dev/null
"$work/venv/bin/boardplay" sim potlatch --games 3 >/dev/null
"$work/venv/bin/python" distcheck.py
