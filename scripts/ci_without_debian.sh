#!/usr/bin/env bash
# Run a command (default: .ci/run) as on a machine where set-up could not install the Debian
# packages: in a private mount namespace /usr/share/wordnet and /usr/share/mythes are empty and
# /usr/bin/chromium does not exist; NLTK_DATA and HOME point to empty temporary directories (no
# ~/nltk_data). Nothing changes outside the namespace. Needs root and unshare(1).
#   bash scripts/ci_without_debian.sh                 # the whole CI run
#   bash scripts/ci_without_debian.sh .venv/bin/python -m pytest -x tests/test_languages.py
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(id -u)" = 0 ] || { echo "needs root (mount namespace)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp"/{empty,upper,work,home,nltk_data}
mknod "$tmp/upper/chromium" c 0 0  # an overlay whiteout: hides /usr/bin/chromium
[ $# -gt 0 ] || set -- bash .ci/run
export CI="${CI-true}" NLTK_DATA="$tmp/nltk_data" HOME="$tmp/home"  # CI= (empty) to see the local behaviour
unshare --mount --propagation private -- bash -c '
  set -e
  tmp=$1; shift
  mount -t overlay overlay -o "lowerdir=/usr/bin,upperdir=$tmp/upper,workdir=$tmp/work" /usr/bin
  mount --bind "$tmp/empty" /usr/share/wordnet
  mount --bind "$tmp/empty" /usr/share/mythes
  echo "simulated: no WordNet, no thesauri, no chromium; CI=$CI NLTK_DATA=$NLTK_DATA HOME=$HOME" >&2
  exec "$@"' bash "$tmp" "$@"
