#!/usr/bin/env bash
# Set up a fresh machine for METEOR Lens: a virtualenv in .venv with requirements.txt, and
# WordNet 3.0 for the synonym stage, and the Portuguese and French thesauri. With --test, also Debian's chromium for the browser test.
# Offline machines: WordNet comes from Debian's wordnet-base + wordnet-sense-index (needs root
# and apt-get); online machines without root can use nltk.download (tried automatically).
set -euo pipefail
cd "$(dirname "$0")/.."

with_browser=0
[ "${1:-}" = "--test" ] && with_browser=1

packages=(wordnet-base wordnet-sense-index mythes-pt-br mythes-pt-pt mythes-fr)
[ "$with_browser" = 1 ] && packages+=(chromium)
if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  missing=()
  for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: apt-get install ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
else
  echo "setup: not root with apt-get; skipping Debian packages (${packages[*]})"
fi

PYTHON=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -r requirements.txt
.venv/bin/python -m meteor_core setup-wordnet
