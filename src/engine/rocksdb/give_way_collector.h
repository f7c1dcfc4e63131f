// GiveWayCollectorFactory: RocksDB's flush and compaction threads give way to the threads serving
// requests.
//
// Contract: installed in Options::table_properties_collector_factories, it gives every table file
// RocksDB builds (a flush's or a compaction's output) a collector that records no property and, as
// the builder adds keys, calls `yield` (sched_yield by default) whenever `interval` has passed since
// it last did for that file, except while `live_memtables` (the memtable factory's count) is
// kBehind or more: then a sealed memtable waits for a flush, and the background work takes its
// full share. A yield with no other thread waiting for the CPU returns at once, so on an idle
// machine the background work runs as before.
//
// Why (bench/RESULTS.md, session 10): on a machine with few cores a flush or compaction holds a core
// for a whole time slice (1.4 ms on the 2-core benchmark machine) while the I/O thread or the
// clients it answers wait; 4 KB PutItems at 32 connections had a p99 of 3-4.6 ms from those waits.
// Giving way every 300 us: 1.8-2.6 ms, at the same or a higher rate. It also lowers the background
// threads' share of a contended CPU (the kernel charges a yield like the rest of a slice): a flush
// giving way all the time fell behind by three memtables under 4 KB PutItems and RocksDB stopped
// the writes for ~90 ms, hence the pause while one waits (and three memtables, rocksdb_engine.cc).
// Every 30 us starved the flushes (p99 14 ms).
#pragma once

#include <rocksdb/table_properties.h>

#include <atomic>
#include <chrono>
#include <memory>

namespace monotable::engine {

class GiveWayCollectorFactory : public rocksdb::TablePropertiesCollectorFactory {
 public:
  using Clock = std::chrono::steady_clock;
  using NowFunction = Clock::time_point (*)();
  using YieldFunction = void (*)();
  static constexpr std::chrono::microseconds kDefaultInterval{300};
  // The active memtable, the one being flushed and one more: a flush is behind.
  static constexpr int kBehind = 3;
  static constexpr const char* kName = "monotable.GiveWay";  // the factory's and its collectors'

  explicit GiveWayCollectorFactory(std::shared_ptr<const std::atomic<int>> live_memtables,
                                   Clock::duration interval = kDefaultInterval, NowFunction now = &Clock::now,
                                   YieldFunction yield = nullptr);

  rocksdb::TablePropertiesCollector* CreateTablePropertiesCollector(
      rocksdb::TablePropertiesCollectorFactory::Context context) override;
  const char* Name() const override { return kName; }

 private:
  std::shared_ptr<const std::atomic<int>> live_memtables_;
  Clock::duration interval_;
  NowFunction now_;
  YieldFunction yield_;
};

}  // namespace monotable::engine
