#include "table/index_builder.h"

#include <chrono>
#include <cstdio>
#include <mutex>
#include <shared_mutex>

#include "model/item_codec.h"
#include "changelog/index_entries.h"
#include "changelog/keys.h"

namespace monotable::table {
namespace {

// Waits until no in-flight request holds a handle published before our change.
void WaitForRequestsOn(std::weak_ptr<const TableHandle> previous, const std::stop_token& stop) {
  while (!previous.expired() && !stop.stop_requested()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

}  // namespace

IndexBuilder::~IndexBuilder() {
  std::lock_guard lock(mutex_);
  for (auto& job : jobs_) job.request_stop();
  jobs_.clear();  // joins
}

void IndexBuilder::StartBackfill(const std::string& table_name, const std::string& index_name,
                                 std::shared_ptr<const TableHandle> previous) {
  std::lock_guard lock(mutex_);
  jobs_.emplace_back([this, table_name, index_name, weak = std::weak_ptr<const TableHandle>(previous)](
                         std::stop_token stop) { Backfill(stop, table_name, index_name, weak); });
}

void IndexBuilder::StartDrop(uint32_t key_prefix, std::shared_ptr<const TableHandle> previous) {
  std::lock_guard lock(mutex_);
  jobs_.emplace_back([this, key_prefix, weak = std::weak_ptr<const TableHandle>(previous)](std::stop_token stop) {
    WaitForRequestsOn(weak, stop);
    Status st = store_.DropKeyspace(key_prefix);
    if (!st.ok()) std::fprintf(stderr, "monotable: dropping index space failed: %s\n", st.message().c_str());
  });
}

void IndexBuilder::Resume() {
  for (const auto& name : catalog_.Names()) {
    auto handle = catalog_.Find(name);
    if (!handle) continue;
    for (const auto& index : handle->description->global_indexes) {
      if (!index.backfilling) continue;
      std::lock_guard lock(mutex_);
      jobs_.emplace_back(
          [this, name, index_name = index.name](std::stop_token stop) { Backfill(stop, name, index_name, {}); });
    }
  }
}

void IndexBuilder::WaitIdle() {
  std::vector<std::jthread> jobs;
  {
    std::lock_guard lock(mutex_);
    jobs.swap(jobs_);
  }
  for (auto& job : jobs) job.join();
}

void IndexBuilder::Backfill(std::stop_token stop, std::string table_name, std::string index_name,
                            std::weak_ptr<const TableHandle> previous) {
  WaitForRequestsOn(std::move(previous), stop);
  auto handle = catalog_.Find(table_name);
  if (!handle) return;
  const IndexDescription* index = handle->description->FindIndex(index_name);
  if (!index) return;
  Status st = BackfillItems(stop, *handle, *index);
  if (stop.stop_requested()) return;  // resumed at the next open
  {
    std::shared_lock gate(handle->gate->mutex);
    if (handle->gate->dropped) return;  // nothing left to activate
  }
  if (!st.ok()) {
    std::fprintf(stderr, "monotable: backfill of %s.%s failed: %s\n", table_name.c_str(), index_name.c_str(),
                 st.message().c_str());
    return;
  }
  // Mark ACTIVE on the newest description (other updates may have happened meanwhile).
  st = catalog_
           .Modify(table_name,
                   [&](TableDescription& table) {
                     for (auto& i : table.global_indexes) {
                       if (i.name == index_name) {
                         i.status = "ACTIVE";
                         i.backfilling = false;
                       }
                     }
                     return Status::Ok();
                   })
           .status();
  if (!st.ok()) std::fprintf(stderr, "monotable: activating index failed: %s\n", st.message().c_str());
}

Status IndexBuilder::BackfillItems(std::stop_token stop, const TableHandle& handle, const IndexDescription& index) {
  const TableDescription& table = *handle.description;
  const std::string space = PrefixBytes(table.key_prefix);
  Status failed = Status::Ok();
  MT_RETURN_IF_ERROR(store_.ScanKeyspace(table.key_prefix, "", "", [&](std::string_view relative, std::string_view value) {
    if (stop.stop_requested()) return false;
    failed = BackfillItem(handle, index, space + std::string(relative), std::string(value));
    return failed.ok();
  }));
  return failed;
}

Status IndexBuilder::BackfillItem(const TableHandle& handle, const IndexDescription& index, const std::string& key,
                                  std::string value) {
  const TableDescription& table = *handle.description;
  MT_ASSIGN_OR_RETURN(ItemAddress address, AddressOf(table, key));
  std::optional<std::string> raw = std::move(value);
  // Commit the entry guarded by the item's value; if a writer changed the item meanwhile, that
  // writer already maintained the index from its new value: re-read and try again.
  while (raw) {  // deleted meanwhile: its writer removed any entry
    MT_ASSIGN_OR_RETURN(Item item, DecodeItem(*raw));
    auto entry = MakeIndexEntry(table, index, item);
    if (!entry) return Status::Ok();
    Status st;
    {
      std::shared_lock gate(handle.gate->mutex);  // no entry lands in a dropped table's space
      if (handle.gate->dropped) return Status::Ok();
      if (committer_.logged()) {
        st = committer_.Rederive(table, key, *raw);
      } else {
        engine::WriteBatch batch;
        batch.guards.push_back({key, raw});
        batch.mutations.push_back({std::move(entry->key), EncodeItem(entry->projected())});
        st = store_.CommitWithDerived(batch);
      }
    }
    if (st.code() != ErrorCode::kGuardFailed) return st;
    MT_ASSIGN_OR_RETURN(raw, store_.Get(address.partition, address.sort_key));
  }
  return Status::Ok();
}

}  // namespace monotable::table
