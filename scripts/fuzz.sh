#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) in build-fuzz/ and runs each for a
# bounded time. Exit status is non-zero if any target found a crash.
#   scripts/fuzz.sh [SECONDS_PER_TARGET]   (default 60)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
CXX=$(command -v clang++ || command -v clang++-14) cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMONOTABLE_FUZZ=ON \
  -DMONOTABLE_TESTS=OFF >/dev/null
ninja -C build-fuzz fuzz_expression fuzz_http
mkdir -p build-fuzz/corpus/expression build-fuzz/corpus/http
cp -n tests/api/fuzz_corpus/* build-fuzz/corpus/http/ 2>/dev/null || true
failed=0
for target in fuzz_expression fuzz_http; do
  echo "== $target for ${seconds}s"
  if ! build-fuzz/$target -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
       -artifact_prefix=build-fuzz/ build-fuzz/corpus/${target#fuzz_} 2>build-fuzz/$target.log; then
    echo "!! $target found a failure:"; tail -40 build-fuzz/$target.log; failed=1
  else
    grep -E "stat::number_of_executed_units|Done" build-fuzz/$target.log | tail -2
  fi
done
exit $failed
