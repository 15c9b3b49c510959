#!/bin/sh
# Starts Chromium as the unprivileged user `nobody` (uid 65534) so that it keeps its sandbox when
# the worker runs as root (Chromium refuses to sandbox itself as root). Playwright calls this as
# its "executable" with Chromium's arguments; A11Y_CHROMIUM names the real binary. The profile
# folder Playwright made (as root) is handed to nobody first. File descriptors (Playwright's
# --remote-debugging-pipe) pass through setpriv unchanged.
set -eu
real="${A11Y_CHROMIUM:?A11Y_CHROMIUM must name the Chromium binary}"
for arg in "$@"; do
  case "$arg" in
    --user-data-dir=*) chown -R 65534:65534 "${arg#--user-data-dir=}" ;;
  esac
done
exec setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/tmp "$real" "$@"
