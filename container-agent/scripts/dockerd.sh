#!/usr/bin/env bash
# Starts the private Docker engine the agent tests use, unless it already answers:
#   socket unix:///tmp/flagstaff-docker.sock, storage driver vfs, state under /tmp/flagstaff-docker*.
# It keeps running after the tests (the next run reuses it). Stop it with: kill "$(cat /tmp/flagstaff-docker.pid)"
set -euo pipefail
SOCK=${FLAGSTAFF_TEST_DOCKER_SOCK:-/tmp/flagstaff-docker.sock}
PIDFILE=/tmp/flagstaff-docker.pid
LOG=/tmp/flagstaff-docker.log

ping() { timeout 5 docker -H "unix://$SOCK" version --format "{{.Server.Version}}" >/dev/null 2>&1; }

# A container's start and end add and remove an IPv6 link-local address on the host end of its veth pair.
# Chromium takes every address change for a network change and fails the requests it has in flight with
# ERR_NETWORK_CHANGED, so a browser test running beside a container test lost its page's scripts
# (DECISIONS.md, 2026-11-27). New interfaces get no generated IPv6 address; IPv6 stays on, and interfaces
# that exist keep their addresses.
if [ "$(sysctl -n net.ipv6.conf.default.addr_gen_mode 2>/dev/null || echo 1)" != 1 ]; then
  if [ "$(id -u)" = 0 ]; then
    sysctl -qw net.ipv6.conf.default.addr_gen_mode=1 ||
      echo "warning: could not set net.ipv6.conf.default.addr_gen_mode=1; browser tests beside container tests may fail with ERR_NETWORK_CHANGED" >&2
  else
    echo "warning: browser tests beside container tests may fail with ERR_NETWORK_CHANGED; run once:" >&2
    echo "  sudo sysctl -w net.ipv6.conf.default.addr_gen_mode=1" >&2
  fi
fi

if ping; then exit 0; fi
if ! command -v dockerd >/dev/null; then
  echo "dockerd is missing: apt-get install -y docker.io" >&2
  exit 1
fi
if [ "$(id -u)" != 0 ]; then
  echo "dockerd must be started as root:" >&2
  echo "  sudo $0" >&2
  exit 1
fi
# A daemon that is still starting or stopping: wait for it to answer or to end.
for _ in $(seq 1 60); do
  if ! { [ -f "$PIDFILE" ] && kill -0 "$(cat "$PIDFILE")" 2>/dev/null; }; then break; fi
  if ping; then exit 0; fi
  sleep 0.5
done
if [ -f "$PIDFILE" ] && kill -0 "$(cat "$PIDFILE")" 2>/dev/null; then
  echo "dockerd (pid $(cat "$PIDFILE")) runs but does not answer on $SOCK; see $LOG" >&2
  exit 1
fi
# A daemon that died leaves its pid file and socket behind.
rm -f "$PIDFILE" "$SOCK"
mkdir -p /tmp/flagstaff-docker /tmp/flagstaff-docker-exec
setsid dockerd \
  --storage-driver vfs \
  -H "unix://$SOCK" \
  --data-root /tmp/flagstaff-docker \
  --exec-root /tmp/flagstaff-docker-exec \
  --pidfile "$PIDFILE" \
  >>"$LOG" 2>&1 </dev/null &
for _ in $(seq 1 60); do
  if ping; then
    echo "dockerd started (unix://$SOCK, log $LOG)"
    exit 0
  fi
  sleep 0.5
done
echo "dockerd did not come up; see $LOG" >&2
tail -20 "$LOG" >&2
exit 1
