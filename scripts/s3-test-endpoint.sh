#!/usr/bin/env bash
# An S3-compatible endpoint on loopback for the export/import tests (tests/api/test_export_s3.py):
# a Ceph cluster from scripts/ceph/start-ceph.sh (memstore) and radosgw in front of it.
#   scripts/s3-test-endpoint.sh start   start it, create the rgw user, wait until S3 answers, then
#                                       print the environment the tests read (eval-able lines):
#                                       MONOTABLE_S3_ENDPOINT, MONOTABLE_S3_ACCESS_KEY, MONOTABLE_S3_SECRET_KEY
#   scripts/s3-test-endpoint.sh stop    stop radosgw and the cluster (by their pid files only)
#   scripts/s3-test-endpoint.sh env     print the environment lines again
# BASE (default /tmp/mt-ceph-s3), MONPORT0 (default 47789) and RGW_PORT (default 7480) override.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
export BASE=${BASE:-/tmp/mt-ceph-s3}
export MONPORT0=${MONPORT0:-47789}
RGW_PORT=${RGW_PORT:-7480}
ACCESS_KEY=${MONOTABLE_S3_ACCESS_KEY:-MONOTABLETESTKEY0001}
SECRET_KEY=${MONOTABLE_S3_SECRET_KEY:-monotableTestSecret0000000000000000000001}

print_env() {
  echo "export MONOTABLE_S3_ENDPOINT=http://127.0.0.1:$RGW_PORT"
  echo "export MONOTABLE_S3_ACCESS_KEY=$ACCESS_KEY"
  echo "export MONOTABLE_S3_SECRET_KEY=$SECRET_KEY"
}

start() {
  # radosgw makes about eight pools of its own: small ones, so that three OSDs carry them all.
  EXTRA_CONF="osd pool default pg num = 8
osd pool default pgp num = 8
mon max pg per osd = 1000
rgw frontends = beast endpoint=127.0.0.1:$RGW_PORT
rgw enable usage log = false
rgw dns name = 127.0.0.1" \
    MONS=1 OSDS=3 PGS=8 POOL=mt-s3 "$HERE/ceph/start-ceph.sh" >&2
  export CEPH_CONF="$BASE/ceph.conf"
  # The monitors speak msgr2 only; radosgw's client must accept crc mode there (no cephx).
  radosgw -n client.rgw.mt --ms-mon-client-mode=crc --rgw-frontends "beast endpoint=127.0.0.1:$RGW_PORT" \
    --pid-file "$BASE/run/client.rgw.mt.pid" --log-file "$BASE/log/rgw.log" 2>>"$BASE/log/stderr.log"
  local up=0
  for _ in $(seq 1 600); do
    if curl -s -o /dev/null "http://127.0.0.1:$RGW_PORT/"; then up=1; break; fi
    sleep 0.2
  done
  [ $up = 1 ] || { echo "radosgw did not answer on port $RGW_PORT (see $BASE/log/rgw.log)" >&2; return 1; }
  radosgw-admin --ms-mon-client-mode=crc user create --uid=monotable --display-name=monotable \
    --access-key="$ACCESS_KEY" --secret-key="$SECRET_KEY" >/dev/null 2>>"$BASE/log/stderr.log"
  echo "radosgw ready on http://127.0.0.1:$RGW_PORT (user monotable)" >&2
  print_env
}

case "${1:-}" in
  start) start ;;
  stop) "$HERE/ceph/stop-ceph.sh" ;;
  env) print_env ;;
  *) echo "usage: scripts/s3-test-endpoint.sh start|stop|env" >&2; exit 2 ;;
esac
