#include "table/throughput.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <unordered_map>

#include "model/item_codec.h"

namespace monotable::table {
namespace {

constexpr size_t kMaxPartitions = 256;      // heat-map resolution cap
constexpr size_t kHotKeys = 32;              // keys tracked per table / index
constexpr double kPartitionReadLimit = 3000;
constexpr double kPartitionWriteLimit = 1000;

// The steady clock on the epoch scale: monotonic, yet comparable with a table's creation time.
double SteadyEpochSeconds() {
  using namespace std::chrono;
  static const double offset = duration<double>(system_clock::now().time_since_epoch()).count() -
                               duration<double>(steady_clock::now().time_since_epoch()).count();
  return duration<double>(steady_clock::now().time_since_epoch()).count() + offset;
}

struct Bucket {
  bool started = false;
  double tokens = 0;
  double updated = 0;
  // Refills at `rate` up to `capacity`; a bucket seen for the first time holds `initial`.
  void Refill(double rate, double capacity, double initial, double now) {
    if (!started) {
      started = true;
      tokens = initial;
      updated = now;
    }
    tokens = std::min(capacity, tokens + std::max(0.0, now - updated) * rate);
    updated = now;
  }
};

struct PartitionBuckets {
  Bucket read, write;                  // burst credit at the partition's rate
  Bucket read_ceiling, write_ceiling;  // at most 3,000 RCU / 1,000 WCU a second
};

}  // namespace

struct Throughput::Space {
  struct Partition {
    std::atomic<uint64_t> reads{0}, writes{0}, throttles{0};
    std::atomic<uint64_t> read_milli_units{0}, write_milli_units{0};
  };
  std::array<Partition, kMaxPartitions> partitions;
  std::atomic<uint64_t> sample{0};
  std::mutex mutex;  // buckets and hot keys
  Bucket read_bucket, write_bucket;
  std::unordered_map<size_t, PartitionBuckets> partition_buckets;
  std::unordered_map<std::string, uint64_t> hot_keys;  // space-saving counts
};

namespace {
std::atomic<uint64_t> next_serial{1};
}  // namespace

Throughput::Throughput(bool simulate, SecondsClock clock)
    : serial_(next_serial.fetch_add(1, std::memory_order_relaxed)),
      simulate_(simulate),
      clock_(clock ? std::move(clock) : SecondsClock(SteadyEpochSeconds)) {}

Throughput::Space* Throughput::SpaceFor(uint32_t key_prefix) {
  // Every request consults its table's space: the shared lock and the map are only taken when
  // this thread's direct-mapped cache misses. Spaces live as long as this object, and an entry
  // is tagged with the object's serial, so a cached pointer is never stale.
  struct Entry {
    uint64_t owner = 0;
    uint32_t prefix = 0;
    Space* space = nullptr;
  };
  thread_local std::array<Entry, 16> cache;
  Entry& entry = cache[key_prefix % cache.size()];
  if (entry.owner == serial_ && entry.prefix == key_prefix) return entry.space;
  Space* space = nullptr;
  {
    std::shared_lock lock(mutex_);
    if (auto it = spaces_.find(key_prefix); it != spaces_.end()) space = it->second.get();
  }
  if (!space) {
    std::unique_lock lock(mutex_);
    auto& owned = spaces_[key_prefix];
    if (!owned) owned = std::make_shared<Space>();
    space = owned.get();
  }
  entry = {serial_, key_prefix, space};
  return space;
}

namespace {

size_t PartitionCount(double rcu, double wcu, int64_t bytes) {
  double by_throughput = std::ceil(rcu / kPartitionReadLimit + wcu / kPartitionWriteLimit);
  double by_size = std::ceil(static_cast<double>(bytes) / (10.0 * 1024 * 1024 * 1024));
  return static_cast<size_t>(std::clamp(std::max(by_throughput, by_size), 1.0, static_cast<double>(kMaxPartitions)));
}

std::string KeyText(const AttributeValue& v) {
  switch (v.type()) {
    case AttrType::kS: return v.s();
    case AttrType::kN: return v.n().ToString();
    default: {
      static const char* kHex = "0123456789abcdef";
      std::string out = "0x";
      for (unsigned char c : v.bytes()) {
        out.push_back(kHex[c >> 4]);
        out.push_back(kHex[c & 15]);
      }
      return out;
    }
  }
}

}  // namespace

Throughput::Placement Throughput::Place(const TableDescription& table, const IndexDescription* index,
                                        const AttributeValue* partition_key, bool write, int64_t table_bytes) {
  Placement at;
  at.on_demand = table.billing_mode == BillingMode::kPayPerRequest;
  // LSIs share the table's throughput; GSIs have their own.
  const monotable::Throughput& provisioned = index && index->global ? index->throughput : table.throughput;
  double rcu = at.on_demand ? 12000 : static_cast<double>(provisioned.read_units);
  double wcu = at.on_demand ? 4000 : static_cast<double>(provisioned.write_units);
  size_t partitions = PartitionCount(rcu, wcu, table_bytes);
  if (partition_key) {
    uint64_t h = PartitionHash(*partition_key);
    at.partition = static_cast<size_t>((static_cast<unsigned __int128>(h) * partitions) >> 64);
  }
  at.rate = write ? wcu : rcu;
  at.ceiling = write ? kPartitionWriteLimit : kPartitionReadLimit;
  at.space = SpaceFor(index ? index->key_prefix : table.key_prefix);
  return at;
}

Status Throughput::Consume(const TableDescription& table, const IndexDescription* index,
                           const AttributeValue* partition_key, double units, bool write, int64_t table_bytes) {
  Placement at = Place(table, index, partition_key, write, table_bytes);
  bool on_demand = at.on_demand;
  size_t p = at.partition;
  auto& space = at.space;
  Space::Partition& part = space->partitions[p];

  bool throttled = false;
  if (simulate_ && !on_demand) {
    double now = clock_();
    double rate = at.rate;
    double ceiling = at.ceiling;
    double partition_rate = std::min(ceiling, rate);
    // Credit banked since the table was created (none yet for a new table), on top of the
    // current second's rate.
    double age = std::max(0.0, now - table.creation_time);
    auto initial = [&](double r, double capacity) { return std::min(capacity, r * (1 + age)); };
    std::lock_guard lock(space->mutex);
    Bucket& whole = write ? space->write_bucket : space->read_bucket;
    PartitionBuckets& buckets = space->partition_buckets[p];
    Bucket& slice = write ? buckets.write : buckets.read;
    Bucket& second = write ? buckets.write_ceiling : buckets.read_ceiling;
    // Refill all, then take from all or from none.
    whole.Refill(rate, rate * burst_seconds_, initial(rate, rate * burst_seconds_), now);
    slice.Refill(partition_rate, partition_rate * burst_seconds_,
                 initial(partition_rate, partition_rate * burst_seconds_), now);
    second.Refill(ceiling, ceiling, ceiling, now);
    // Without a partition key (Scan) only the table's own bucket applies.
    bool slice_ok = !partition_key || (slice.tokens >= units && second.tokens >= units);
    if (whole.tokens >= units && slice_ok) {
      whole.tokens -= units;
      if (partition_key) {
        slice.tokens -= units;
        second.tokens -= units;
      }
    } else {
      throttled = true;
    }
  }
  if (throttled) {
    part.throttles.fetch_add(1, std::memory_order_relaxed);
  } else {
    (write ? part.writes : part.reads).fetch_add(1, std::memory_order_relaxed);
    (write ? part.write_milli_units : part.read_milli_units)
        .fetch_add(static_cast<uint64_t>(units * 1000), std::memory_order_relaxed);
  }
  // Hot keys: every 8th request (and every throttled one) updates a small space-saving summary.
  // (A multiplicative hash of the request count picks the sample, so a regular key pattern cannot
  // alias with the sampling period.)
  uint64_t n = space->sample.fetch_add(1, std::memory_order_relaxed);
  if (partition_key && (throttled || ((n * 0x9E3779B97F4A7C15ULL) >> 61) == 0)) {
    std::string key = KeyText(*partition_key);
    std::lock_guard lock(space->mutex);
    auto& hot = space->hot_keys;
    if (auto it = hot.find(key); it != hot.end()) {
      ++it->second;
    } else if (hot.size() < kHotKeys) {
      hot.emplace(std::move(key), 1);
    } else {
      auto min = std::min_element(hot.begin(), hot.end(), [](auto& a, auto& b) { return a.second < b.second; });
      uint64_t count = min->second + 1;
      hot.erase(min);
      hot.emplace(std::move(key), count);
    }
  }
  if (!throttled) return Status::Ok();
  if (index && index->global) {
    return Status(ErrorCode::kProvisionedThroughputExceeded,
                  "The level of configured provisioned throughput for one or more global secondary indexes of the "
                  "table was exceeded. Consider increasing your provisioning level for the under-provisioned global "
                  "secondary indexes with the UpdateTable API");
  }
  return Status(ErrorCode::kProvisionedThroughputExceeded,
                "The level of configured provisioned throughput for the table was exceeded. Consider increasing your "
                "provisioning level with the UpdateTable API.");
}

void Throughput::Refund(const TableDescription& table, const IndexDescription* index,
                        const AttributeValue* partition_key, double units, bool write, int64_t table_bytes) {
  Placement at = Place(table, index, partition_key, write, table_bytes);
  Space::Partition& part = at.space->partitions[at.partition];
  auto take_back = [](std::atomic<uint64_t>& counter, uint64_t n) {
    uint64_t seen = counter.load(std::memory_order_relaxed);
    while (!counter.compare_exchange_weak(seen, seen - std::min(seen, n), std::memory_order_relaxed)) {
    }
  };
  take_back(write ? part.writes : part.reads, 1);
  take_back(write ? part.write_milli_units : part.read_milli_units, static_cast<uint64_t>(units * 1000));
  if (!simulate_ || at.on_demand) return;
  double partition_rate = std::min(at.ceiling, at.rate);
  std::lock_guard lock(at.space->mutex);
  // Buckets never seen cannot owe anything; the others get the units back up to what they hold.
  auto give_back = [units](Bucket& b, double capacity) {
    if (b.started) b.tokens = std::min(capacity, b.tokens + units);
  };
  give_back(write ? at.space->write_bucket : at.space->read_bucket, at.rate * burst_seconds_);
  if (!partition_key) return;
  PartitionBuckets& buckets = at.space->partition_buckets[at.partition];
  give_back(write ? buckets.write : buckets.read, partition_rate * burst_seconds_);
  give_back(write ? buckets.write_ceiling : buckets.read_ceiling, at.ceiling);
}

std::string Throughput::HeatJson(const TableDescription& table) const {
  auto describe = [&](uint32_t prefix, const std::string& name, const char* kind) {
    std::shared_ptr<Space> space;
    {
      std::shared_lock lock(mutex_);
      auto it = spaces_.find(prefix);
      if (it != spaces_.end()) space = it->second;
    }
    std::string out = "{\"name\":\"" + name + "\",\"kind\":\"" + kind + "\",\"partitions\":[";
    if (space) {
      bool first = true;
      char buf[256];
      for (size_t i = 0; i < kMaxPartitions; ++i) {
        const auto& p = space->partitions[i];
        uint64_t reads = p.reads.load(), writes = p.writes.load(), throttles = p.throttles.load();
        if (!reads && !writes && !throttles) continue;
        std::snprintf(buf, sizeof buf,
                      "%s{\"partition\":%zu,\"reads\":%llu,\"writes\":%llu,\"readUnits\":%.1f,\"writeUnits\":%.1f,"
                      "\"throttles\":%llu}",
                      first ? "" : ",", i, static_cast<unsigned long long>(reads),
                      static_cast<unsigned long long>(writes), p.read_milli_units.load() / 1000.0,
                      p.write_milli_units.load() / 1000.0, static_cast<unsigned long long>(throttles));
        out += buf;
        first = false;
      }
    }
    out += "],\"hotKeys\":[";
    if (space) {
      std::vector<std::pair<std::string, uint64_t>> hot;
      {
        std::lock_guard lock(space->mutex);
        hot.assign(space->hot_keys.begin(), space->hot_keys.end());
      }
      std::sort(hot.begin(), hot.end(), [](auto& a, auto& b) { return a.second > b.second; });
      for (size_t i = 0; i < hot.size(); ++i) {
        std::string escaped;
        for (char c : hot[i].first) {
          if (c == '"' || c == '\\') escaped.push_back('\\');
          if (static_cast<unsigned char>(c) < 0x20) continue;
          escaped.push_back(c);
        }
        out += (i ? "," : "") + std::string("{\"key\":\"") + escaped + "\",\"count\":" + std::to_string(hot[i].second) + "}";
      }
    }
    return out + "]}";
  };
  std::string out = "{\"table\":" + describe(table.key_prefix, table.name, "TABLE") + ",\"indexes\":[";
  bool first = true;
  for (const auto* list : {&table.global_indexes, &table.local_indexes}) {
    for (const auto& index : *list) {
      out += (first ? "" : ",") + describe(index.key_prefix, index.name, index.global ? "GSI" : "LSI");
      first = false;
    }
  }
  return out + "]}";
}

}  // namespace monotable::table
