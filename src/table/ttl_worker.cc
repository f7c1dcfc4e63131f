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
  std::string lower = ExpiryKey(table.ttl.key_prefix, static_cast<uint64_t>(std::floor(oldest)), "");
  std::string upper = ExpiryKey(table.ttl.key_prefix, static_cast<uint64_t>(std::floor(now)) + 1, "");
  size_t deleted = 0;
  auto it = engine_.NewIterator(lower, upper);
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    std::string entry(it->key());
    std::string item_key(ItemKeyOfExpiry(entry));
    for (;;) {
      MT_ASSIGN_OR_RETURN(auto raw, engine_.GetForWrite(item_key));
      engine::WriteBatch batch;
      if (!raw) {
        // An entry without its item cannot come from the write path; drop it if it is still so.
        batch.guards.push_back({item_key, std::nullopt});
        batch.mutations.push_back({entry, std::nullopt});
        Status st = engine_.Commit(batch);
        if (st.code() == ErrorCode::kGuardFailed) continue;
        MT_RETURN_IF_ERROR(st);
        break;
      }
      MT_ASSIGN_OR_RETURN(Item item, DecodeItem(*raw));
      batch.guards.push_back({item_key, raw});
      if (ExpiryEntryOf(table, item) != entry) {
        // Not the item's entry (it cannot come from the write path either): drop it, guarded.
        batch.mutations.push_back({entry, std::nullopt});
        Status st = engine_.Commit(batch);
        if (st.code() == ErrorCode::kGuardFailed) continue;
        MT_RETURN_IF_ERROR(st);
        break;
      }
      auto expiry = ExpiryTime(item, table.ttl.attribute);
      if (!expiry || !IsExpired(*expiry, now)) break;
      batch.mutations.push_back({item_key, std::nullopt});
      (void)changelog::AppendDerived(table, &item, nullptr, {}, batch);  // TTL deletes consume no capacity
      ChangeLogBatch changes(streams_);
      changes.Add(table, &item, nullptr, /*by_service=*/true);
      changes.AppendTo(batch);
      Status st = engine_.Commit(batch);
      changes.Settle();
      if (st.code() == ErrorCode::kGuardFailed) continue;  // changed meanwhile: judge the new value
      MT_RETURN_IF_ERROR(st);
      handle.stats->item_count -= 1;
      handle.stats->size_bytes -= static_cast<int64_t>(ItemSize(item));
      ++deleted;
      break;
    }
  }
  MT_RETURN_IF_ERROR(it->status());
  return deleted;
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
    auto [first, last] = KeySpaceRange(key_prefix);
    Status st = engine_.DeleteRange(first, last);
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
  auto [first, last] = KeySpaceRange(table.key_prefix);
  auto it = engine_.NewIterator(first, last);
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    if (stop.stop_requested()) return Status::Ok();  // resumed at the next open
    std::string key(it->key());
    std::optional<std::string> raw = std::string(it->value());
    // Commit the entry guarded by the item's value; a writer that changed the item meanwhile
    // maintained the index itself: re-read and judge the newer value.
    while (raw) {
      MT_ASSIGN_OR_RETURN(Item item, DecodeItem(*raw));
      auto entry = ExpiryEntryOf(table, item);
      if (!entry) break;
      engine::WriteBatch batch;
      batch.guards.push_back({key, raw});
      batch.mutations.push_back({std::move(*entry), std::string()});
      Status st = engine_.Commit(batch);
      if (st.ok()) break;
      if (st.code() != ErrorCode::kGuardFailed) return st;
      MT_ASSIGN_OR_RETURN(raw, engine_.Get(key));
    }
  }
  MT_RETURN_IF_ERROR(it->status());
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

}  // namespace monotable::table
