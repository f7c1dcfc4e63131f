// PartitionStore operations on each backend: the ordered adapter over the memory engine and over
// RocksDB (engine/ordered_store.h), and Ceph RADOS (engine/rados) when MONOTABLE_CEPH_CONF names a
// cluster's ceph.conf (pool MONOTABLE_CEPH_POOL, default "dyn"; objects go to a namespace of
// their own, dropped at the end). Without it the RADOS cases report an error and the others run.
//
//   Commit       a guarded put of one 100-byte item (guard: the value the thread wrote last), no
//                log record; each thread writes its own partition
//   Commit/logged  the same with one 50-byte change-log record appended
//   Get          one item of 10,000 (100 partitions of 100 items), chosen at random
//   ReadRange10  ten items forward from a random sort key of a random partition
//
//   MONOTABLE_CEPH_CONF=/path/ceph.conf build/partition_store_bench [--benchmark_filter=...]
#include <benchmark/benchmark.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <mutex>
#include <random>
#include <string>

#include "engine/engine.h"
#include "engine/ordered_store.h"
#include "engine/rados/rados_store.h"

namespace monotable::engine {
namespace {

enum class Backend { kMemory, kRocksDb, kRados };

constexpr uint32_t kKeyspace = 1;
constexpr int kPartitions = 100, kItemsPerPartition = 100;
const std::string kValue(100, 'x');

std::string Pid(int n) {
  uint64_t hash = static_cast<uint64_t>(n) * 0x9E3779B97F4A7C15ull;
  std::string out;
  for (int shift = 56; shift >= 0; shift -= 8) out.push_back(static_cast<char>((hash >> shift) & 0xff));
  out.append("p" + std::to_string(n));
  out.append("\0\1", 2);
  return out;
}

std::string SortKey(int n) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "s%05d", n);
  return buf;
}

struct Fixture {
  std::unique_ptr<Engine> engine;  // the embedded backends' engine, under the adapter
  std::unique_ptr<PartitionStore> store;
  std::string error;               // why this backend cannot run
  std::string dir;                 // RocksDB's temporary directory
};

std::string RocksDir() {
  std::string templ = (std::filesystem::temp_directory_path() / "mt_pstore_bench_XXXXXX").string();
  return mkdtemp(templ.data()) ? templ : "";
}

const char* CephConf() {
  const char* conf = std::getenv("MONOTABLE_CEPH_CONF");
  return conf && *conf ? conf : nullptr;
}

RadosOptions BenchRadosOptions() {
  RadosOptions options;
  options.ceph_conf = CephConf();
  if (const char* pool = std::getenv("MONOTABLE_CEPH_POOL"); pool && *pool) options.pool = pool;
  options.name_space = "mt-bench-" + std::to_string(getpid());
  return options;
}

Fixture Open(Backend backend) {
  Fixture f;
  switch (backend) {
    case Backend::kMemory:
      f.engine = NewMemoryEngine();
      f.store = NewOrderedStore(*f.engine);
      break;
    case Backend::kRocksDb: {
      f.dir = RocksDir();
      auto engine = OpenRocksDbEngine({.path = f.dir + "/db", .sync = false, .group_prefix_bytes = 4});
      if (!engine.ok()) {
        f.error = engine.status().message();
        return f;
      }
      f.engine = std::move(engine).value();
      f.store = NewOrderedStore(*f.engine);
      break;
    }
    case Backend::kRados: {
      if (!CephConf()) {
        f.error = "MONOTABLE_CEPH_CONF is not set";
        return f;
      }
      auto store = OpenRadosStore(BenchRadosOptions());
      if (!store.ok()) {
        f.error = store.status().message();
        return f;
      }
      f.store = std::move(store).value();
      break;
    }
  }
  for (int p = 0; p < kPartitions; ++p) {
    PartitionWrite w;
    for (int i = 0; i < kItemsPerPartition; ++i) w.mutations.push_back({SortKey(i), kValue});
    std::string id = Pid(p);
    Status st = f.store->Commit({kKeyspace, id}, std::move(w)).status();
    if (!st.ok()) {
      f.error = "loading: " + st.message();
      break;
    }
  }
  return f;
}

// One fixture per backend, made by the first thread of the first benchmark that needs it.
std::once_flag made[3];
Fixture fixtures[3];

Fixture& Get(Backend backend) {
  int i = static_cast<int>(backend);
  std::call_once(made[i], [&] { fixtures[i] = Open(backend); });
  return fixtures[i];
}

void Close() {
  for (Fixture& f : fixtures) {
    if (!f.engine && f.store) (void)f.store->DropKeyspace(kKeyspace);  // RADOS: leave nothing behind
    f.store.reset();
    f.engine.reset();
    if (!f.dir.empty()) std::filesystem::remove_all(f.dir);
  }
}

void BM_Commit(benchmark::State& state, Backend backend, bool logged) {
  Fixture& f = Get(backend);
  if (!f.error.empty()) {
    state.SkipWithError(f.error.c_str());
    return;
  }
  std::string id = Pid((logged ? 2000 : 1000) + state.thread_index());
  PartitionRef p{kKeyspace, id};
  auto current = f.store->Get(p, "w");
  std::optional<std::string> last = current.ok() ? *current : std::nullopt;
  uint64_t n = 0;
  for (auto _ : state) {
    std::string value = kValue;
    std::snprintf(value.data(), value.size(), "%020llu", static_cast<unsigned long long>(n++));
    PartitionWrite w;
    w.guards.push_back({"w", last});
    w.mutations.push_back({"w", value});
    if (logged) w.log.push_back(value.substr(0, 50));
    auto done = f.store->Commit(p, std::move(w));
    if (!done.ok()) {
      state.SkipWithError(done.status().message().c_str());
      break;
    }
    last = std::move(value);
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_Get(benchmark::State& state, Backend backend) {
  Fixture& f = Get(backend);
  if (!f.error.empty()) {
    state.SkipWithError(f.error.c_str());
    return;
  }
  std::mt19937 rng(state.thread_index() + 1);
  for (auto _ : state) {
    std::string id = Pid(rng() % kPartitions);
    auto got = f.store->Get({kKeyspace, id}, SortKey(rng() % kItemsPerPartition));
    if (!got.ok() || !got->has_value()) {
      state.SkipWithError("get failed or found nothing");
      break;
    }
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_ReadRange10(benchmark::State& state, Backend backend) {
  Fixture& f = Get(backend);
  if (!f.error.empty()) {
    state.SkipWithError(f.error.c_str());
    return;
  }
  std::mt19937 rng(state.thread_index() + 1);
  for (auto _ : state) {
    std::string id = Pid(rng() % kPartitions);
    std::string lower = SortKey(rng() % (kItemsPerPartition - 10));
    int seen = 0;
    Status st = f.store->ReadRange({kKeyspace, id}, {lower, "", true}, [&](std::string_view, std::string_view) {
      return ++seen < 10;
    });
    if (!st.ok() || seen != 10) {
      state.SkipWithError("read range failed or came short");
      break;
    }
  }
  state.SetItemsProcessed(state.iterations());
}

#define MT_STORE_BENCH(fn)                                                                  \
  BENCHMARK_CAPTURE(fn, memory, Backend::kMemory)->Threads(1)->Threads(8)->UseRealTime();   \
  BENCHMARK_CAPTURE(fn, rocksdb, Backend::kRocksDb)->Threads(1)->Threads(8)->UseRealTime(); \
  BENCHMARK_CAPTURE(fn, rados, Backend::kRados)->Threads(1)->Threads(8)->UseRealTime()

#define MT_COMMIT_BENCH(logged, suffix)                                                                     \
  BENCHMARK_CAPTURE(BM_Commit, memory##suffix, Backend::kMemory, logged)->Threads(1)->Threads(8)->UseRealTime();   \
  BENCHMARK_CAPTURE(BM_Commit, rocksdb##suffix, Backend::kRocksDb, logged)->Threads(1)->Threads(8)->UseRealTime(); \
  BENCHMARK_CAPTURE(BM_Commit, rados##suffix, Backend::kRados, logged)->Threads(1)->Threads(8)->UseRealTime()

MT_COMMIT_BENCH(false, );
MT_COMMIT_BENCH(true, _logged);
MT_STORE_BENCH(BM_Get);
MT_STORE_BENCH(BM_ReadRange10);

}  // namespace
}  // namespace monotable::engine

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  monotable::engine::Close();
  return 0;
}
