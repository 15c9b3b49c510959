#!/usr/bin/env bash
# Installs what the service needs and is missing, then exits: Debian's Chromium (and poppler-utils
# for the tests), the npm
# packages (Node 24 comes with them, from the `node` package), the Temporal CLI (built once
# from its Go module into ~/.cache/a11y-audit). Safe to run again: it skips what is there.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

# Debian packages: Chromium renders the pages; poppler-utils (pdfinfo, pdftotext, pdftoppm) lets the
# tests read the PDF reports back.
packages=()
if [ -z "${CHROMIUM_PATH:-}" ] && [ ! -x /usr/bin/chromium ]; then packages+=(chromium fonts-liberation); fi
if ! command -v pdftotext >/dev/null || ! command -v pdfinfo >/dev/null; then packages+=(poppler-utils); fi
if [ "${#packages[@]}" -gt 0 ]; then
  say "Installing from Debian's packages: ${packages[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${packages[@]}"
fi

if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "Installing npm packages from package-lock.json"
  # Not `npm ci`: the registry our machines reach lacks other platforms' optional binaries
  # (e.g. @swc/core-darwin-*), which `npm ci` insists on finding. `npm install` installs the
  # locked versions and leaves the lock file as it is.
  npm install --no-audit --no-fund
fi

say "Checking the Temporal CLI"
npm run --silent temporal:install >/dev/null
