#!/usr/bin/env bash
# Makes sure this machine has what the build needs, before npm start / npm test do anything:
# Debian packages (installed when run as root, otherwise the one apt-get line is printed)
# and the npm packages of package-lock.json. `setup.sh test` adds what the tests need.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(cmake g++ make libeigen3-dev nlohmann-json3-dev emscripten)
if [ "${1:-}" = "test" ]; then packages+=(catch2 python3-numpy chromium fortunes); fi
if [ "${1:-}" = "fuzz" ]; then packages+=(clang-14 libfuzzer-14-dev libclang-rt-14-dev); fi
if [ "${1:-}" = "model" ]; then packages+=(fortunes python3-torch); fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ]; then
    echo "setup: installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "setup: missing Debian packages; run:" >&2
    echo "  sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
fi

# npm packages: installed from the lock file when absent or older than it.
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
