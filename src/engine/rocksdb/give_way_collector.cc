#include "engine/rocksdb/give_way_collector.h"

#include <sched.h>

#include <utility>

#include "common/yield_pacer.h"

namespace monotable::engine {
namespace {

void YieldCpu() { sched_yield(); }

// The clock is read once per 16 keys or 16 KB of keys and values, whichever comes first: a read
// costs ~25 ns, a key added to a table several hundred.
constexpr unsigned kKeysPerCheck = 16;
constexpr size_t kBytesPerCheck = 16 << 10;

class GiveWayCollector : public rocksdb::TablePropertiesCollector {
 public:
  GiveWayCollector(std::shared_ptr<const std::atomic<int>> live_memtables,
                   GiveWayCollectorFactory::Clock::duration interval, GiveWayCollectorFactory::NowFunction now,
                   GiveWayCollectorFactory::YieldFunction yield)
      : live_memtables_(std::move(live_memtables)), now_(now), yield_(yield), pacer_(interval, now()) {}

  rocksdb::Status AddUserKey(const rocksdb::Slice& key, const rocksdb::Slice& value, rocksdb::EntryType,
                             rocksdb::SequenceNumber, uint64_t) override {
    bytes_ += key.size() + value.size();
    if (++keys_ >= kKeysPerCheck || bytes_ >= kBytesPerCheck) {
      keys_ = 0;
      bytes_ = 0;
      if (pacer_.Due(now_()) && live_memtables_->load(std::memory_order_relaxed) < GiveWayCollectorFactory::kBehind) {
        yield_();
      }
    }
    return rocksdb::Status::OK();
  }
  rocksdb::Status Finish(rocksdb::UserCollectedProperties*) override { return rocksdb::Status::OK(); }
  rocksdb::UserCollectedProperties GetReadableProperties() const override { return {}; }
  const char* Name() const override { return GiveWayCollectorFactory::kName; }

 private:
  std::shared_ptr<const std::atomic<int>> live_memtables_;
  GiveWayCollectorFactory::NowFunction now_;
  GiveWayCollectorFactory::YieldFunction yield_;
  YieldPacer pacer_;
  unsigned keys_ = 0;
  size_t bytes_ = 0;
};

}  // namespace

GiveWayCollectorFactory::GiveWayCollectorFactory(std::shared_ptr<const std::atomic<int>> live_memtables,
                                                 Clock::duration interval, NowFunction now, YieldFunction yield)
    : live_memtables_(std::move(live_memtables)), interval_(interval), now_(now),
      yield_(yield != nullptr ? yield : &YieldCpu) {}

rocksdb::TablePropertiesCollector* GiveWayCollectorFactory::CreateTablePropertiesCollector(
    rocksdb::TablePropertiesCollectorFactory::Context) {
  return new GiveWayCollector(live_memtables_, interval_, now_, yield_);
}

}  // namespace monotable::engine
