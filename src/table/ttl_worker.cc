#include "table/ttl_worker.h"

#include <chrono>
#include <cmath>
#include <cstdio>

#include "changelog/change_applier.h"
#include "model/item_codec.h"
#include "table/database.h"
#include "changelog/keys.h"
#include "changelog/ttl_index.h"

namespace monotable::table {
namespace {

// Waits until no in-flight request holds a handle published before our change.
void WaitForRequestsOn(const std::weak_ptr<const TableHandle>& previous, const std::stop_token& stop) {
  while (!previous.expired() && !stop.stop_requested()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

}  // namespace

TtlWorker::~TtlWorker() {
  std::lock_guard lock(mutex_);
  for (auto& job : jobs_) job.request_stop();
  jobs_.clear();  // joins
}

Result<size_t> TtlWorker::RunOnce() {
  double now = static_cast<double>(clock_()) / 1000.0;
  size_t deleted = 0;
  for (const auto& name : catalog_.Names()) {
    auto handle = catalog_.Find(name);
    if (!handle || !handle->description->ttl.enabled) continue;
    MT_ASSIGN_OR_RETURN(size_t n, ExpireTable(*handle, now));
    deleted += n;
  }
  return deleted;
}

Result<size_t> TtlWorker::ExpireTable(const TableHandle& handle, double now) {
  const TableDescription& table = *handle.description;
  if (table.ttl.key_prefix == 0) return size_t{0};
  double oldest = std::max(0.0, now - static_cast<double>(kTtlMaxAgeSeconds));
  // Keyspace-relative bounds: [expiry seconds][item key].
  const std::string space = PrefixBytes(table.ttl.key_prefix);
  std::string lower = ExpiryKey(table.ttl.key_prefix, static_cast<uint64_t>(std::floor(oldest)), "").substr(4);
  const std::string upper =
      ExpiryKey(table.ttl.key_prefix, static_cast<uint64_t>(std::floor(now)) + 1, "").substr(4);
  size_t deleted = 0;
  // The entries are read a chunk at a time and handled between reads (a handler commits).
  constexpr size_t kChunk = 512;
  for (;;) {
    std::vector<std::string> entries;
    MT_RETURN_IF_ERROR(store_.ScanKeyspace(table.ttl.key_prefix, lower, upper, [&](std::string_view key, std::string_view) {
      entries.push_back(space + std::string(key));
      return entries.size() < kChunk;
    }));
    for (const std::string& entry : entries) {
      MT_ASSIGN_OR_RETURN(bool expired, ExpireEntry(handle, entry, now));
      if (expired) ++deleted;
    }
    if (entries.size() < kChunk) break;
    lower = entries.back().substr(4);
    lower.push_back('\0');  // the next key after the last one handled
  }
  return deleted;
}

Result<bool> TtlWorker::ExpireEntry(const TableHandle& handle, const std::string& entry, double now) {
  const TableDescription& table = *handle.description;
  const std::string item_key(ItemKeyOfExpiry(entry));
  MT_ASSIGN_OR_RETURN(ItemAddress address, AddressOf(table, item_key));
  const engine::PartitionRef entry_partition{table.ttl.key_prefix, std::string_view(entry).substr(4, 8)};
  for (;;) {
    MT_ASSIGN_OR_RETURN(auto raw, store_.Get(address.partition, address.sort_key));
    std::optional<Item> item;
    if (raw) {
      MT_ASSIGN_OR_RETURN(Item decoded, DecodeItem(*raw));
      item = std::move(decoded);
    }
    if (!item || ExpiryEntryOf(table, *item) != entry) {
      // An entry without its item, or not the item's entry, cannot come from the write path: drop
      // it, guarded by the item's value where one commit can cover both.
      Status st;
      if (committer_.logged()) {
        engine::PartitionWrite write;
        write.mutations.push_back({entry.substr(4 + 8), std::nullopt});
        st = store_.Commit(entry_partition, std::move(write)).status();
      } else {
        engine::WriteBatch batch;
        batch.guards.push_back({item_key, raw});
        batch.mutations.push_back({entry, std::nullopt});
        st = store_.CommitWithDerived(batch);
      }
      if (st.code() == ErrorCode::kGuardFailed) continue;
      MT_RETURN_IF_ERROR(st);
      return false;
    }
    auto expiry = ExpiryTime(*item, table.ttl.attribute);
    if (!expiry || !IsExpired(*expiry, now)) return false;
    // TTL deletions consume no capacity and are recorded with the service's identity.
    ChangeLogBatch changes(streams_);
    changes.Add(table, &*item, nullptr, /*by_service=*/true);
    Status st;
    if (committer_.logged()) {
      engine::WriteBatch stream_records;
      changelog::ItemChange change;
      // The change hooks' mutations (PITR history) come addressed; stream records go to
      // change.stream, numbered by the applier in the stream's shards.
      changes.AppendTo(stream_records, &change.extra, &change.stream);
      change.by_service = true;
      change.old_image = item;
      for (engine::Mutation& m : stream_records.mutations) change.extra.push_back({std::move(m.key), 4, std::move(m.value)});
      st = committer_.CommitItem(table, item_key, raw, std::nullopt, std::move(change));
    } else {
      engine::WriteBatch batch;
      batch.guards.push_back({item_key, raw});
      batch.mutations.push_back({item_key, std::nullopt});
      (void)changelog::AppendDerived(table, &*item, nullptr, {}, batch);
      changes.AppendTo(batch);
      st = store_.CommitWithDerived(batch);
    }
    changes.Settle();
    if (st.code() == ErrorCode::kGuardFailed) continue;  // changed meanwhile: judge the new value
    MT_RETURN_IF_ERROR(st);
    handle.stats->item_count -= 1;
    handle.stats->size_bytes -= static_cast<int64_t>(ItemSize(*item));
    return true;
  }
}

namespace {

Status CheckInterval(const TimeToLiveSettings& ttl, double now, int64_t min_interval_ms) {
  if (ttl.changed > 0 && (now - ttl.changed) * 1000 < static_cast<double>(min_interval_ms)) {
    return Status::Validation("Time to live has been modified multiple times within a fixed interval");
  }
  return Status::Ok();
}

Status DifferentAttribute(const TimeToLiveSettings& ttl) {
  return Status::Validation("TimeToLive is active on a different AttributeName: current AttributeName is " +
                            ttl.attribute);
}

}  // namespace

Status TtlWorker::Enable(std::string_view table_name, const std::string& attribute, int64_t min_interval_ms) {
  MT_ASSIGN_OR_RETURN(uint32_t prefix, catalog_.NewKeyPrefix());
  double now = static_cast<double>(clock_()) / 1000.0;
  MT_ASSIGN_OR_RETURN(auto previous, catalog_.Modify(table_name, [&](TableDescription& t) -> Status {
    if (t.ttl.enabled) {
      return t.ttl.attribute == attribute ? Status::Validation("TimeToLive is already enabled")
                                          : DifferentAttribute(t.ttl);
    }
    MT_RETURN_IF_ERROR(CheckInterval(t.ttl, now, min_interval_ms));
    t.ttl = TimeToLiveSettings{true, attribute, prefix, /*backfilling=*/true, now};
    return Status::Ok();
  }));
  StartBackfill(std::string(table_name), previous);
  return Status::Ok();
}

Status TtlWorker::Disable(std::string_view table_name, const std::string& attribute, int64_t min_interval_ms) {
  double now = static_cast<double>(clock_()) / 1000.0;
  uint32_t dropped = 0;
  MT_ASSIGN_OR_RETURN(auto previous, catalog_.Modify(table_name, [&](TableDescription& t) -> Status {
    if (!t.ttl.enabled) return Status::Validation("TimeToLive is already disabled");
    if (t.ttl.attribute != attribute) return DifferentAttribute(t.ttl);
    MT_RETURN_IF_ERROR(CheckInterval(t.ttl, now, min_interval_ms));
    dropped = t.ttl.key_prefix;
    t.ttl = TimeToLiveSettings{false, "", 0, false, now};
    return Status::Ok();
  }));
  if (dropped != 0) StartDrop(dropped, previous);
  return Status::Ok();
}

void TtlWorker::StartBackfill(std::string table_name, std::weak_ptr<const TableHandle> previous) {
  std::lock_guard lock(mutex_);
  jobs_.emplace_back([this, name = std::move(table_name), previous = std::move(previous)](std::stop_token stop) {
    WaitForRequestsOn(previous, stop);
    Status st = Backfill(stop, name);
    if (!st.ok() && !stop.stop_requested()) {
      std::fprintf(stderr, "monotable: TTL backfill of %s failed: %s\n", name.c_str(), st.message().c_str());
    }
  });
}

void TtlWorker::StartDrop(uint32_t key_prefix, std::weak_ptr<const TableHandle> previous) {
  std::lock_guard lock(mutex_);
  jobs_.emplace_back([this, key_prefix, previous = std::move(previous)](std::stop_token stop) {
    WaitForRequestsOn(previous, stop);
    if (stop.stop_requested()) return;
    Status st = store_.DropKeyspace(key_prefix);
    if (!st.ok()) std::fprintf(stderr, "monotable: dropping an expiry index failed: %s\n", st.message().c_str());
  });
}

void TtlWorker::Resume() {
  for (const auto& name : catalog_.Names()) {
    auto handle = catalog_.Find(name);
    if (handle && handle->description->ttl.enabled && handle->description->ttl.backfilling) StartBackfill(name, {});
  }
}

void TtlWorker::WaitIdle() {
  std::vector<std::jthread> jobs;
  {
    std::lock_guard lock(mutex_);
    jobs.swap(jobs_);
  }
  for (auto& job : jobs) job.join();
}

Status TtlWorker::Backfill(std::stop_token stop, const std::string& table_name) {
  auto handle = catalog_.Find(table_name);
  if (!handle) return Status::Ok();
  const TableDescription& table = *handle->description;
  if (!table.ttl.enabled || !table.ttl.backfilling) return Status::Ok();
  uint32_t prefix = table.ttl.key_prefix;
  const std::string space = PrefixBytes(table.key_prefix);
  Status failed = Status::Ok();
  MT_RETURN_IF_ERROR(store_.ScanKeyspace(table.key_prefix, "", "", [&](std::string_view relative, std::string_view value) {
    if (stop.stop_requested()) return false;  // resumed at the next open
    failed = BackfillItem(table, space + std::string(relative), std::string(value));
    return failed.ok();
  }));
  MT_RETURN_IF_ERROR(failed);
  if (stop.stop_requested()) return Status::Ok();
  handle.reset();
  Status st = catalog_
                  .Modify(table_name,
                          [&](TableDescription& d) {
                            if (d.ttl.enabled && d.ttl.key_prefix == prefix) d.ttl.backfilling = false;
                            return Status::Ok();
                          })
                  .status();
  return st.code() == ErrorCode::kResourceNotFound ? Status::Ok() : st;  // dropped meanwhile
}

Status TtlWorker::BackfillItem(const TableDescription& table, const std::string& key, std::string value) {
  // Commit the entry guarded by the item's value; a writer that changed the item meanwhile
  // maintained the index itself: re-read and judge the newer value.
  std::optional<std::string> raw = std::move(value);
  MT_ASSIGN_OR_RETURN(ItemAddress address, AddressOf(table, key));
  while (raw) {
    MT_ASSIGN_OR_RETURN(Item item, DecodeItem(*raw));
    auto entry = ExpiryEntryOf(table, item);
    if (!entry) return Status::Ok();
    Status st;
    if (committer_.logged()) {
      st = committer_.Rederive(table, key, *raw);
    } else {
      engine::WriteBatch batch;
      batch.guards.push_back({key, raw});
      batch.mutations.push_back({std::move(*entry), std::string()});
      st = store_.CommitWithDerived(batch);
    }
    if (st.code() != ErrorCode::kGuardFailed) return st;
    MT_ASSIGN_OR_RETURN(raw, store_.Get(address.partition, address.sort_key));
  }
  return Status::Ok();
}

}  // namespace monotable::table
