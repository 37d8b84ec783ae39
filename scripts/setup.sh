#!/usr/bin/env bash
# Set up a fresh machine for METEOR Lens: a virtualenv in .venv with requirements.txt, WordNet
# 3.0 for the synonym stage, the Portuguese and French thesauri, and METEOR 1.5's data for
# meteor15 mode (the pycocoevalcap 1.2 wheel from PyPI, converted once into
# ~/.local/share/meteor-lens/meteor15; $METEOR15_DATA overrides). With --test, also Debian's
# chromium for the browser tests and a Java runtime plus the original METEOR 1.5 jar, which the
# meteor15 parity tests run as their oracle.
# Offline machines: WordNet comes from Debian's wordnet-base + wordnet-sense-index (needs root
# and apt-get); online machines without root can use nltk.download (tried automatically).
set -euo pipefail
cd "$(dirname "$0")/.."

with_tests=0
[ "${1:-}" = "--test" ] && with_tests=1

# Another apt-get or dpkg (unattended upgrades on a fresh machine) may hold the package
# manager's locks: wait for it, saying who holds it, for up to APT_LOCK_WAIT seconds.
APT_LOCK_WAIT=${APT_LOCK_WAIT:-600}
APT_LOCKS=(/var/lib/dpkg/lock-frontend /var/lib/dpkg/lock /var/lib/apt/lists/lock /var/cache/apt/archives/lock)

lock_holder() {
  # The process holding one of the locks, from /proc/locks (no fuser or lsof needed).
  local lock inode pid
  for lock in "${APT_LOCKS[@]}"; do
    [ -e "$lock" ] || continue
    inode=$(stat -c %i "$lock")
    pid=$(awk -v inode="$inode" '$2 != "->" { split($6, id, ":"); if (id[3] == inode) { print $5; exit } }' /proc/locks 2>/dev/null)
    if [ -n "$pid" ] && [ -d "/proc/$pid" ]; then
      echo "process $pid ($(tr '\0\n' '  ' < "/proc/$pid/cmdline" | cut -c1-100)) holds $lock"
      return
    fi
  done
}

wait_for_package_manager() {
  local waited=0 holder
  while holder=$(lock_holder) && [ -n "$holder" ]; do
    if [ "$waited" -ge "$APT_LOCK_WAIT" ]; then
      echo "setup: gave up after ${APT_LOCK_WAIT}s waiting for the package manager: $holder" >&2
      return 1
    fi
    if [ $((waited % 30)) -eq 0 ]; then
      echo "setup: waiting for the package manager (${waited}s of ${APT_LOCK_WAIT}s): $holder"
    fi
    sleep 5
    waited=$((waited + 5))
  done
}

apt() {
  wait_for_package_manager
  # apt itself also waits (and says so) if another process takes the lock in between
  apt-get -o DPkg::Lock::Timeout="$APT_LOCK_WAIT" "$@"
}

packages=(wordnet-base wordnet-sense-index mythes-pt-br mythes-pt-pt mythes-fr)
if [ "$with_tests" = 1 ]; then
  packages+=(chromium)
  command -v java >/dev/null 2>&1 || packages+=(default-jre-headless)
fi
if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  missing=()
  for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: apt-get install ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt update -qq
    apt install -y -qq "${missing[@]}" >/dev/null
  fi
else
  echo "setup: not root with apt-get; skipping Debian packages (${packages[*]})"
fi

PYTHON=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -r requirements.txt
# Byte-compiled once here: where PYTHONDONTWRITEBYTECODE is set (Docker images often set it, and
# so does the build machine), Python never writes .pyc files, so every CLI run, batch worker pool
# and app start compiled the project's modules from source again (0.1 s of a 0.55 s batch start).
.venv/bin/python -m compileall -q meteor_core lens app_pages app.py >/dev/null
.venv/bin/python -m meteor_core setup-wordnet

# METEOR 1.5 data (about 230 MB once converted; a few minutes the first time, then a no-op).
# The tests need it and the jar; the app only reports meteor15 mode's modules as unavailable.
if [ "$with_tests" = 1 ]; then
  .venv/bin/python -m meteor_core setup-meteor15 --with-jar
elif ! .venv/bin/python -m meteor_core setup-meteor15; then
  echo "setup: METEOR 1.5 data not installed; meteor15 mode will say so in every result" >&2
fi
