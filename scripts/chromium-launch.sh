#!/bin/sh
# Starts Chromium for the worker. Playwright calls this as its "executable" with Chromium's
# arguments; A11Y_CHROMIUM names the real binary.
#
# 1. Profile preferences, written into the profile folder Playwright made before Chromium reads it
#    (the browser contexts of the scan slots inherit them): WebRTC may send UDP only through a
#    proxy, and the scan slots' proxy carries none, so a page cannot reach an address around the
#    egress proxy with STUN or TURN. Chromium honours this only as a preference (or an enterprise
#    policy); its --force-webrtc-ip-handling-policy switch is read by content_shell alone.
# 2. With A11Y_CHROMIUM_AS_NOBODY=1 (the worker runs as root), Chromium runs as the unprivileged
#    user `nobody` (uid 65534) so that it keeps its sandbox (Chromium refuses to sandbox itself as
#    root); the profile folder is handed to nobody first. File descriptors (Playwright's
#    --remote-debugging-pipe) pass through setpriv unchanged.
set -eu
real="${A11Y_CHROMIUM:?A11Y_CHROMIUM must name the Chromium binary}"
profile=""
for arg in "$@"; do
  case "$arg" in
    --user-data-dir=*) profile="${arg#--user-data-dir=}" ;;
  esac
done
if [ -n "$profile" ]; then
  mkdir -p "$profile/Default"
  printf '%s\n' '{"webrtc":{"ip_handling_policy":"disable_non_proxied_udp","multiple_routes_enabled":false,"nonproxied_udp_enabled":false}}' >"$profile/Default/Preferences"
fi
if [ "${A11Y_CHROMIUM_AS_NOBODY:-}" = 1 ]; then
  [ -n "$profile" ] && chown -R 65534:65534 "$profile"
  exec setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/tmp "$real" "$@"
fi
exec "$real" "$@"
