// YieldPacer: when a thread that does not sleep under load should give way to the threads waiting
// for its CPU. Used by the I/O threads (api/http_server.cc) and by RocksDB's flush and compaction
// threads (engine/rocksdb/give_way_collector.h).
//
// Contract: Due(now) is true when at least `interval` has passed since the last time it was true
// (or since construction), and then starts the next interval; otherwise false. One thread only.
//
// Why (bench/RESULTS.md, session 9): under load an I/O thread finds requests ready on every poll,
// so it runs until the kernel preempts it at the end of its time slice (1.4 ms on the 2-core
// benchmark machine), and a client on the same machine waiting for that CPU waits as long, its
// answers already sent but unread. The I/O thread calls sched_yield() after an answer batch
// whenever the pacer is due: a waiting thread runs at once, a yield with nobody waiting returns
// at once. Every 2 ms: GetItem p99 at 32 connections 1.5-2.6 -> 1.0-1.6 ms at -2 % req/s, PutItem
// 2.0-2.1 -> 1.5-1.8 ms (A/B pairs interleaved with nginx); every 1 ms took p99 to ~1.1 ms but
// GetItem lost 6-7 % req/s (likely smaller batches on both sides), every 0.2 ms 11 %.
#pragma once

#include <chrono>

namespace monotable {

class YieldPacer {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr std::chrono::microseconds kDefaultInterval{2000};

  explicit YieldPacer(Clock::duration interval = kDefaultInterval, Clock::time_point start = Clock::now())
      : interval_(interval), last_(start) {}

  bool Due(Clock::time_point now) {
    if (now - last_ < interval_) return false;
    last_ = now;
    return true;
  }

 private:
  Clock::duration interval_;
  Clock::time_point last_;
};

}  // namespace monotable
