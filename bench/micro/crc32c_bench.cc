// The CRC32C that replaces RocksDB's (src/engine/rocksdb/crc32c_hardware.h), side by side: Extend
// as RocksDB calls it for every log record (three crc32 chains from 192 bytes), the instruction
// in one chain, and the byte-at-a-time table, by length.
//
//   build/crc32c_bench [--benchmark_filter=...]
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>

#include "engine/rocksdb/crc32c_hardware.h"

namespace rocksdb::crc32c {
uint32_t Extend(uint32_t init_crc, const char* data, size_t n);
}  // namespace rocksdb::crc32c

namespace {

template <uint32_t (*kCrc)(uint32_t, const char*, size_t)>
void BM_Crc(benchmark::State& state) {
  const std::string data(static_cast<size_t>(state.range(0)), 'x');
  uint32_t crc = 0;
  for (auto _ : state) {
    crc = kCrc(crc, data.data(), data.size());
    benchmark::DoNotOptimize(crc);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * data.size()));
}

}  // namespace

BENCHMARK(BM_Crc<rocksdb::crc32c::Extend>)->Name("Extend")->Arg(64)->Arg(256)->Arg(4150)->Arg(65536);
BENCHMARK(BM_Crc<monotable::engine::ExtendCrc32cOneChain>)->Name("OneChain")->Arg(64)->Arg(256)->Arg(4150)->Arg(65536);
BENCHMARK(BM_Crc<monotable::engine::ExtendCrc32cBytewise>)->Name("Bytewise")->Arg(64)->Arg(4150);

BENCHMARK_MAIN();
