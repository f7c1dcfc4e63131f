#!/usr/bin/env bash
# monotable developer entry point (Debian 12).
#   scripts/dev.sh serve   install dependencies, build, start the server on its embedded default
#                          (RocksDB in ./monotable-data, 127.0.0.1:8000; HOST/PORT/DATA override)
#   scripts/dev.sh test    install dependencies, build, run every test (ctest + pytest)
#   scripts/dev.sh build   install dependencies and build only
set -euo pipefail
cd "$(dirname "$0")/.."

DEBIAN_PACKAGES=(
  build-essential cmake ninja-build ccache pkg-config
  librocksdb-dev libboost-dev libboost-system-dev rapidjson-dev zlib1g-dev libdeflate-dev libssl-dev libmimalloc-dev
  libyaml-cpp-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  python3 python3-boto3 python3-pytest awscli curl
  clang-14 libclang-rt-14-dev
)

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
}

build() {
  local type="${BUILD_TYPE:-RelWithDebInfo}"
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE="$type" >/dev/null
  ninja -C build
}

run_tests() {
  local failed=0
  echo "== unit tests (ctest)"
  (cd build && ctest --output-on-failure -j "$(nproc)" --timeout 300) || failed=1
  echo "== API tests (pytest: boto3 and the AWS CLI against a started server)"
  /usr/bin/python3 -m pytest -p no:cacheprovider -q tests/api --monotable-binary build/monotable || failed=1
  echo "== API tests again, the shared server on RocksDB (the default engine)"
  /usr/bin/python3 -m pytest -p no:cacheprovider -q tests/api --monotable-binary build/monotable \
    --monotable-engine rocksdb || failed=1
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
  build)
    install_deps
    build
    ;;
  *)
    echo "usage: scripts/dev.sh serve|test|build" >&2
    exit 2
    ;;
esac
