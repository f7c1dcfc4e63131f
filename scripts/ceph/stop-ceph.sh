#!/usr/bin/env bash
# Copied from shared/tools/ceph so that CI and developers have it in the checkout.
# Stop the daemons started by start-ceph.sh, by their pid files only (SIGTERM, then SIGKILL after 10 s).
BASE=${BASE:-${TMPDIR:-/tmp}/monotable-ceph}
PIDS=(); for f in "$BASE"/run/*.pid; do [ -f "$f" ] && PIDS+=("$(cat "$f")"); done
[ ${#PIDS[@]} -gt 0 ] && kill "${PIDS[@]}" 2>/dev/null
for p in "${PIDS[@]}"; do
  for i in $(seq 100); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
  kill -0 "$p" 2>/dev/null && kill -9 "$p" 2>/dev/null
done
rm -f "$BASE"/run/*.pid; echo stopped
