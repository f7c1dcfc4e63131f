// IdleCompactor: while the process is idle, compacts RocksDB's level 0 into the level below it, so
// that the next burst of requests does not pay for the last one's.
//
// Contract:
// - Constructed with an open DB (which must outlive it), it polls on a thread of its own every
//   `poll`. When the process used less than `idle_share` of one core over the last two polls
//   (`cpu_nanoseconds`: requests, flushes and compactions all count), no compaction is
//   running or pending, and level 0 of the default column family holds at least `min_files`
//   files, it compacts all of them into the first non-empty level below (the last level when all
//   are empty), with the column family's compression and 64 MB output files, on its own thread.
//   A compaction that fails (RocksDB refuses files another compaction took) is tried again on a
//   later idle poll.
// - The destructor cancels a compaction in progress (DB::DisableManualCompaction, then
//   EnableManualCompaction) and joins the thread. compactions() counts those that succeeded.
//
// Why (bench/RESULTS.md, session 24): RocksDB compacts level 0 when it reaches 8 files
// (rocksdb_engine.cc). A burst that stops below that leaves its files for the next burst's first
// flush to set off: after the benchmark's bulk load 7 files (60 MB) waited, and the 3-GSI writes
// that followed compacted them while serving. Waiting for half the trigger keeps the batching
// that the trigger buys for steady writes. The bulk load then 3-GSI writes, fresh servers, two
// alternating pairs: 28.3k / 39.4k req/s, p99 2.57 / 1.92 ms, 46.5 / 33.6 us of process CPU a
// write, against 26.5k / 30.6k, 2.72 / 2.66 ms, 52.3 / 45.8 us without.
#pragma once

#include <rocksdb/db.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>

namespace monotable::engine {

class IdleCompactor {
 public:
  struct Options {
    std::chrono::milliseconds poll{250};
    double idle_share = 0.02;
    int min_files = 4;
    // The CPU time the process has used, in nanoseconds (tests replace it).
    std::function<int64_t()> cpu_nanoseconds = ProcessCpuNanoseconds;
  };
  static int64_t ProcessCpuNanoseconds();  // CLOCK_PROCESS_CPUTIME_ID

  IdleCompactor(rocksdb::DB* db, Options options);
  ~IdleCompactor();
  IdleCompactor(const IdleCompactor&) = delete;
  IdleCompactor& operator=(const IdleCompactor&) = delete;

  uint64_t compactions() const { return compactions_.load(std::memory_order_relaxed); }

 private:
  void Run();
  bool CompactLevelZero();

  rocksdb::DB* const db_;
  const Options options_;
  std::atomic<uint64_t> compactions_{0};
  std::mutex mutex_;
  std::condition_variable stop_signal_;
  bool stop_ = false;
  std::thread thread_;  // last: started once the members above exist
};

}  // namespace monotable::engine
