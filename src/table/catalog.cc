#include "table/catalog.h"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <random>

#include "engine/ordered_store.h"
#include "model/item_codec.h"
#include "table/description_codec.h"
#include "changelog/keys.h"

namespace monotable::table {
namespace {

// The system partition (key space 0, partition id ""), by sort key: ['T'][name] -> description
// JSON; ['P'] -> next key prefix; ['C'] -> the tables' statistics as a clean shutdown left them
// (SaveStatistics); ['V'] -> the catalog version (u64 BE). In the ordered layout these are the
// engine keys [0000]['T'][name] etc., as they always were.
constexpr engine::PartitionRef kSystemPartition{kSystemKeyPrefix, ""};

std::string TableRecordKey(std::string_view name) {
  std::string key(1, 'T');
  key.append(name);
  return key;
}

std::string NextPrefixKey() { return "P"; }
std::string SavedStatisticsKey() { return "C"; }
std::string VersionKey() { return "V"; }

std::optional<std::string> EncodeVersion(uint64_t version) {
  if (version == 0) return std::nullopt;  // no change yet: no record
  std::string out;
  AppendBigEndian64(version, out);
  return out;
}

// The saved statistics: a version byte, then for each table its key prefix (u32), item count and
// bytes (i64 each), big-endian.
constexpr char kStatisticsVersion = 1;
constexpr size_t kStatisticsEntryBytes = 4 + 8 + 8;

struct SavedStatistics {
  int64_t item_count;
  int64_t size_bytes;
};

// Empty when the record is missing or malformed: every table is then walked.
std::map<uint32_t, SavedStatistics> DecodeSavedStatistics(const std::optional<std::string>& record) {
  std::map<uint32_t, SavedStatistics> saved;
  if (!record || record->empty() || (*record)[0] != kStatisticsVersion ||
      (record->size() - 1) % kStatisticsEntryBytes != 0) {
    return saved;
  }
  std::string_view entries = std::string_view(*record).substr(1);
  for (size_t at = 0; at < entries.size(); at += kStatisticsEntryBytes) {
    std::string_view entry = entries.substr(at, kStatisticsEntryBytes);
    saved[static_cast<uint32_t>(ReadBigEndian(entry.substr(0, 4)))] = {
        static_cast<int64_t>(ReadBigEndian(entry.substr(4, 8))), static_cast<int64_t>(ReadBigEndian(entry.substr(12, 8)))};
  }
  return saved;
}

// Walks [from, upper) at `snapshot`, measuring each item as stored (EncodedItemSize is ItemSize
// of the decoded item, without decoding it) and adding to `stats` as it goes. Stops after
// `budget` items or when `stop` is requested; returns the key to resume at, or nullopt once the
// range is done.
Result<std::optional<std::string>> CountItems(engine::Engine& engine, std::shared_ptr<const engine::Snapshot> snapshot,
                                              const std::string& from, const std::string& upper, TableStats& stats,
                                              uint64_t budget, std::stop_token stop = {}) {
  auto items = engine.NewIterator(from, upper, std::move(snapshot));
  int64_t count = 0, bytes = 0;
  auto settle = [&] {
    stats.item_count += count;
    stats.size_bytes += bytes;
    count = bytes = 0;
  };
  uint64_t walked = 0;
  for (items->SeekToFirst(); items->Valid(); items->Next()) {
    if (walked == budget || stop.stop_requested()) {
      settle();
      return std::optional<std::string>(std::string(items->key()));
    }
    MT_ASSIGN_OR_RETURN(uint64_t size, EncodedItemSize(items->value()));
    ++count;
    ++walked;
    bytes += static_cast<int64_t>(size);
    if (count == 4096) settle();  // DescribeTable sees the count grow while a long walk runs
  }
  MT_RETURN_IF_ERROR(items->status());
  settle();
  return std::optional<std::string>();
}

// CountItems over the partition directory (a store without snapshots): each partition is read
// from a consistent view of its own; keys are keyspace-relative (partition id + sort key).
Result<std::optional<std::string>> CountItemsInStore(engine::PartitionStore& store, uint32_t keyspace,
                                                     const std::string& from, TableStats& stats, uint64_t budget,
                                                     std::stop_token stop = {}) {
  int64_t count = 0, bytes = 0;
  auto settle = [&] {
    stats.item_count += count;
    stats.size_bytes += bytes;
    count = bytes = 0;
  };
  uint64_t walked = 0;
  std::optional<std::string> resume;
  Status failed = Status::Ok();
  MT_RETURN_IF_ERROR(store.ScanKeyspace(keyspace, from, "", [&](std::string_view key, std::string_view value) {
    if (walked == budget || stop.stop_requested()) {
      resume = std::string(key);
      return false;
    }
    auto size = EncodedItemSize(value);
    if (!size.ok()) {
      failed = size.status();
      return false;
    }
    ++count;
    ++walked;
    bytes += static_cast<int64_t>(*size);
    if (count == 4096) settle();
    return true;
  }));
  MT_RETURN_IF_ERROR(failed);
  settle();
  return resume;
}

std::string NewUuid() {
  thread_local std::mt19937_64 rng(std::random_device{}());
  uint64_t a = rng(), b = rng();
  char buf[40];
  std::snprintf(buf, sizeof buf, "%08x-%04x-4%03x-%04x-%012llx", static_cast<unsigned>(a >> 32),
                static_cast<unsigned>((a >> 16) & 0xffff), static_cast<unsigned>(a & 0xfff),
                static_cast<unsigned>(((b >> 48) & 0x3fff) | 0x8000),
                static_cast<unsigned long long>(b & 0xffffffffffffULL));
  return buf;
}

double NowSeconds() {
  using namespace std::chrono;
  return duration_cast<microseconds>(system_clock::now().time_since_epoch()).count() / 1e6;
}

}  // namespace

Status Catalog::Load() {
  std::lock_guard lock(control_mutex_);
  // Statistics a clean shutdown saved hold only until the next item write, so the record goes in
  // the first write after it is read: any later write that survives a crash comes after that
  // deletion in the log, and the next Load after such a crash walks the tables instead.
  MT_ASSIGN_OR_RETURN(auto record, store_.Get(kSystemPartition, SavedStatisticsKey()));
  std::map<uint32_t, SavedStatistics> saved = DecodeSavedStatistics(record);
  if (record) {
    engine::PartitionWrite write;
    write.mutations.push_back({SavedStatisticsKey(), std::nullopt});
    MT_RETURN_IF_ERROR(store_.Commit(kSystemPartition, std::move(write)).status());
  }
  MT_ASSIGN_OR_RETURN(auto version, store_.Get(kSystemPartition, VersionKey()));
  version_.store(version && version->size() == 8 ? ReadBigEndian(*version) : 0, std::memory_order_release);
  // Tables without saved figures are walked as of this snapshot, taken before any item write:
  // the writes after it add their own changes to the same figures, so walk + writes is exact
  // whenever the walk ends. The first kSynchronousCountItems items are walked here; the rest in
  // the background, so a start after a crash does not wait for the whole data set.
  auto snapshot = engine_ ? engine_->GetSnapshot() : nullptr;
  uint64_t budget = kSynchronousCountItems;
  std::vector<PendingCount> pending;
  auto tables = std::make_shared<TableMap>();
  std::vector<std::string> records;
  MT_RETURN_IF_ERROR(store_.ReadRange(kSystemPartition, {"T", "U", true}, [&](std::string_view, std::string_view v) {
    records.emplace_back(v);
    return true;
  }));
  for (const std::string& record_json : records) {
    MT_ASSIGN_OR_RETURN(TableDescription description, DecodeDescription(record_json));
    auto handle = std::make_shared<TableHandle>();
    handle->stats = std::make_shared<TableStats>();
    handle->gate = std::make_shared<TableGate>();
    if (auto found = saved.find(description.key_prefix); found != saved.end()) {
      handle->stats->item_count = found->second.item_count;
      handle->stats->size_bytes = found->second.size_bytes;
    } else {
      auto [first, last] = KeySpaceRange(description.key_prefix);
      std::optional<std::string> resume;
      if (engine_) {
        MT_ASSIGN_OR_RETURN(resume, CountItems(*engine_, snapshot, first, last, *handle->stats, budget));
      } else {
        MT_ASSIGN_OR_RETURN(resume, CountItemsInStore(store_, description.key_prefix, "", *handle->stats, budget));
      }
      budget -= static_cast<uint64_t>(handle->stats->item_count.load());  // the table's walk so far
      if (resume) {
        handle->stats->counted = false;
        pending.push_back({handle->stats, description.key_prefix, std::move(*resume), std::move(last)});
      }
    }
    std::string name = description.name;
    handle->description = std::make_shared<const TableDescription>(std::move(description));
    tables->emplace(std::move(name), std::move(handle));
  }
  Publish(std::move(tables));
  if (!pending.empty()) {
    counter_ = std::jthread([this, snapshot, pending = std::move(pending)](std::stop_token stop) {
      for (const PendingCount& p : pending) {
        auto resume = engine_ ? CountItems(*engine_, snapshot, p.from, p.upper, *p.stats, UINT64_MAX, stop)
                              : CountItemsInStore(store_, p.keyspace, p.from, *p.stats, UINT64_MAX, stop);
        if (!resume.ok()) {
          std::fprintf(stderr, "monotable: counting a table's items failed: %s\n", resume.status().message().c_str());
          return;
        }
        if (*resume) return;  // stopped
        p.stats->counted = true;
      }
    });
  }
  return Status::Ok();
}

namespace {
std::atomic<uint64_t> next_catalog_instance{1};
}  // namespace

Catalog::Catalog(engine::Engine& engine)
    : owned_store_(engine::NewOrderedStore(engine)),
      engine_(&engine),
      store_(*owned_store_),
      instance_(next_catalog_instance.fetch_add(1, std::memory_order_relaxed)) {}

Catalog::Catalog(engine::Engine* engine, engine::PartitionStore& store)
    : engine_(engine), store_(store), instance_(next_catalog_instance.fetch_add(1, std::memory_order_relaxed)) {}

Status Catalog::CommitRecord(std::string key, std::optional<std::string> value) {
  const uint64_t current = version_.load(std::memory_order_acquire);
  engine::PartitionWrite write;
  write.guards.push_back({VersionKey(), EncodeVersion(current)});
  write.mutations.push_back({std::move(key), std::move(value)});
  write.mutations.push_back({VersionKey(), EncodeVersion(current + 1)});
  auto committed = store_.Commit(kSystemPartition, std::move(write));
  if (committed.status().code() == ErrorCode::kGuardFailed) {
    // Only a writer outside this process's control lock can have moved the version: another
    // server sharing the store. The caller refreshes and tries again (RetryOnOtherWriter).
    return committed.status();
  }
  MT_RETURN_IF_ERROR(committed.status());
  version_.store(current + 1, std::memory_order_release);
  return Status::Ok();
}

Result<bool> Catalog::Refresh() {
  std::lock_guard lock(control_mutex_);
  return RefreshLocked();
}

Result<bool> Catalog::RefreshLocked() {
  MT_ASSIGN_OR_RETURN(auto version, store_.Get(kSystemPartition, VersionKey()));
  const uint64_t stored = version && version->size() == 8 ? ReadBigEndian(*version) : 0;
  if (stored == version_.load(std::memory_order_acquire)) return false;
  std::vector<std::string> records;
  MT_RETURN_IF_ERROR(store_.ReadRange(kSystemPartition, {"T", "U", true}, [&](std::string_view, std::string_view v) {
    records.emplace_back(v);
    return true;
  }));
  auto before = Current();
  auto tables = std::make_shared<TableMap>();
  for (const std::string& record_json : records) {
    MT_ASSIGN_OR_RETURN(TableDescription description, DecodeDescription(record_json));
    auto handle = std::make_shared<TableHandle>();
    auto existing = before->find(description.name);
    if (existing != before->end() && existing->second->description->table_id == description.table_id) {
      handle->stats = existing->second->stats;  // the same table: this server's figures go on
      handle->gate = existing->second->gate;
    } else {
      // Made by another server: this server has seen none of its writes (its figures start at 0).
      handle->stats = std::make_shared<TableStats>();
      handle->gate = std::make_shared<TableGate>();
    }
    handle->description = std::make_shared<const TableDescription>(std::move(description));
    tables->emplace(handle->description->name, std::move(handle));
  }
  for (const auto& [name, handle] : *before) {
    auto now = tables->find(name);
    if (now != tables->end() && now->second->gate == handle->gate) continue;
    std::unique_lock gate(handle->gate->mutex);  // dropped elsewhere: writes here refuse from now on
    handle->gate->dropped = true;
  }
  version_.store(stored, std::memory_order_release);
  Publish(tables);
  for (const auto& [name, handle] : *before) {
    auto now = tables->find(name);
    if (now == tables->end() || now->second->gate != handle->gate) Notify(handle->description.get(), nullptr);
  }
  for (const auto& [name, handle] : *tables) {
    auto old = before->find(name);
    if (old == before->end() || old->second->gate != handle->gate) {
      Notify(nullptr, handle->description.get());
    } else if (old->second->description != handle->description) {
      Notify(old->second->description.get(), handle->description.get());
    }
  }
  return true;
}

void Catalog::WaitCounted() {
  if (counter_.joinable()) counter_.join();
}

Status Catalog::SaveStatistics() {
  if (counter_.joinable()) {
    counter_.request_stop();
    counter_.join();
  }
  std::lock_guard lock(control_mutex_);
  std::string record(1, kStatisticsVersion);
  for (const auto& [name, handle] : *Current()) {
    if (!handle->stats->counted) continue;  // its walk did not end: the next start walks it
    AppendBigEndian32(handle->description->key_prefix, record);
    AppendBigEndian64(static_cast<uint64_t>(handle->stats->item_count.load()), record);
    AppendBigEndian64(static_cast<uint64_t>(handle->stats->size_bytes.load()), record);
  }
  engine::PartitionWrite write;
  write.mutations.push_back({SavedStatisticsKey(), std::move(record)});
  return store_.Commit(kSystemPartition, std::move(write)).status();
}

std::shared_ptr<const TableDescription> Catalog::FindByKeyspace(uint32_t keyspace) const {
  auto tables = Current();
  for (const auto& [name, handle] : *tables) {
    if (handle->description->key_prefix == keyspace) return handle->description;
  }
  return nullptr;
}

std::shared_ptr<const TableHandle> Catalog::Find(std::string_view name) const {
  // The calling thread's copy of the map, of weak references: it keeps no handle alive (requests
  // in flight do, and the index builder and TTL worker wait for the ones they replaced to go).
  struct Copy {
    uint64_t instance = 0, generation = 0;
    std::map<std::string, std::weak_ptr<const TableHandle>, std::less<>> tables;
  };
  thread_local Copy copy;
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (attempt == 1 || copy.instance != instance_ || copy.generation != generation_.load(std::memory_order_acquire)) {
      std::shared_lock lock(tables_mutex_);
      copy.tables.clear();
      for (const auto& [table_name, handle] : *tables_) copy.tables.emplace(table_name, handle);
      copy.generation = generation_.load(std::memory_order_relaxed);  // tables_'s, under the lock
      copy.instance = instance_;
    }
    auto it = copy.tables.find(name);
    if (it == copy.tables.end()) return nullptr;
    if (auto handle = it->second.lock()) return handle;
    // Replaced or dropped since this copy was taken and released by everyone: take a fresh copy.
  }
  return nullptr;
}

std::vector<std::string> Catalog::Names() const {
  std::vector<std::string> names;
  for (const auto& [name, _] : *Current()) names.push_back(name);
  return names;
}

Status Catalog::Persist(const TableDescription& table) {
  return CommitRecord(TableRecordKey(table.name), EncodeDescription(table));
}

Result<uint32_t> Catalog::AllocateKeyPrefixes(uint32_t count) {
  MT_ASSIGN_OR_RETURN(auto current, store_.Get(kSystemPartition, NextPrefixKey()));
  uint32_t next = 1;
  if (current && current->size() == 4) {
    next = 0;
    for (unsigned char c : *current) next = (next << 8) | c;
  }
  std::string updated;
  AppendBigEndian32(next + count, updated);
  engine::PartitionWrite write;
  write.guards.push_back({NextPrefixKey(), current});
  write.mutations.push_back({NextPrefixKey(), updated});
  MT_RETURN_IF_ERROR(store_.Commit(kSystemPartition, std::move(write)).status());
  return next;
}

void Catalog::Publish(std::shared_ptr<const TableMap> tables) {
  {
    std::unique_lock lock(tables_mutex_);
    tables_.swap(tables);
    generation_.fetch_add(1, std::memory_order_release);
  }
  // `tables` now holds the previous map: released outside the lock.
}

Result<TableDescription> Catalog::Create(TableDescription table) {
  std::lock_guard lock(control_mutex_);
  for (int attempt = 0;; ++attempt) {
    auto created = CreateLocked(table);
    if (created.status().code() != ErrorCode::kGuardFailed || attempt == 3) return created;
    MT_RETURN_IF_ERROR(RefreshLocked().status());  // another server changed the catalog: see it first
  }
}

Result<TableDescription> Catalog::CreateLocked(TableDescription table) {
  if (Current()->count(table.name)) {
    return Status::InUse("Table already exists: " + table.name);
  }
  auto index_count = static_cast<uint32_t>(table.global_indexes.size() + table.local_indexes.size());
  uint32_t stream_count = table.stream.enabled ? 1 : 0;
  MT_ASSIGN_OR_RETURN(uint32_t prefix, AllocateKeyPrefixes(1 + index_count + stream_count));
  table.key_prefix = prefix;
  for (auto& index : table.global_indexes) index.key_prefix = ++prefix;
  for (auto& index : table.local_indexes) index.key_prefix = ++prefix;
  if (stream_count) table.stream.key_prefix = ++prefix;
  table.table_id = NewUuid();
  table.creation_time = NowSeconds();
  table.status = "ACTIVE";
  MT_RETURN_IF_ERROR(Persist(table));

  auto handle = std::make_shared<TableHandle>();
  handle->description = std::make_shared<const TableDescription>(table);
  handle->stats = std::make_shared<TableStats>();
  handle->gate = std::make_shared<TableGate>();
  auto tables = std::make_shared<TableMap>(*Current());
  tables->emplace(table.name, std::move(handle));
  Publish(std::move(tables));
  Notify(nullptr, &table);
  return table;
}

Result<uint32_t> Catalog::NewKeyPrefix() {
  std::lock_guard lock(control_mutex_);
  return AllocateKeyPrefixes(1);
}

Result<std::shared_ptr<const TableHandle>> Catalog::Update(const TableDescription& table) {
  std::lock_guard lock(control_mutex_);
  return UpdateLocked(table);
}

Result<std::shared_ptr<const TableHandle>> Catalog::Modify(std::string_view name,
                                                           const std::function<Status(TableDescription&)>& change) {
  std::lock_guard lock(control_mutex_);
  auto existing = Find(name);
  if (!existing) {
    return Status::NotFound("Requested resource not found: Table: " + std::string(name) + " not found");
  }
  TableDescription table = *existing->description;
  MT_RETURN_IF_ERROR(change(table));
  return UpdateLocked(table);
}

Result<std::shared_ptr<const TableHandle>> Catalog::UpdateLocked(const TableDescription& requested) {
  auto updated = UpdateOnce(requested);
  if (updated.status().code() != ErrorCode::kGuardFailed) return updated;
  // Another server changed the catalog: the change is refused rather than applied to a stale
  // description; the caller's retry sees the current one.
  MT_RETURN_IF_ERROR(RefreshLocked().status());
  return Status(ErrorCode::kResourceInUse,
                "Attempt to change a resource which is still in use: the table was changed concurrently");
}

Result<std::shared_ptr<const TableHandle>> Catalog::UpdateOnce(const TableDescription& requested) {
  auto existing = Find(requested.name);
  if (!existing) return Status::NotFound("Requested resource not found: Table: " + requested.name + " not found");
  TableDescription table = requested;
  const StreamSettings& before = existing->description->stream;
  if (table.stream.enabled && (!before.enabled || before.label != table.stream.label)) {
    MT_ASSIGN_OR_RETURN(table.stream.key_prefix, AllocateKeyPrefixes(1));  // a new stream
  }
  MT_RETURN_IF_ERROR(Persist(table));
  auto handle = std::make_shared<TableHandle>();
  handle->description = std::make_shared<const TableDescription>(table);
  handle->stats = existing->stats;
  handle->gate = existing->gate;
  auto tables = std::make_shared<TableMap>(*Current());
  (*tables)[table.name] = handle;
  Publish(std::move(tables));
  Notify(existing->description.get(), handle->description.get());
  return existing;
}

Result<TableDescription> Catalog::Drop(std::string_view name) {
  std::lock_guard lock(control_mutex_);
  for (int attempt = 0;; ++attempt) {
    auto dropped = DropLocked(name);
    if (dropped.status().code() != ErrorCode::kGuardFailed || attempt == 3) return dropped;
    MT_RETURN_IF_ERROR(RefreshLocked().status());
  }
}

Result<TableDescription> Catalog::DropLocked(std::string_view name) {
  auto existing = Find(name);
  if (!existing) {
    return Status::NotFound("Requested resource not found: Table: " + std::string(name) + " not found");
  }
  const TableDescription& table = *existing->description;
  {
    // Waits for the writes committing into the table; every later one sees `dropped` and refuses.
    std::unique_lock gate(existing->gate->mutex);
    existing->gate->dropped = true;
  }
  if (Status st = CommitRecord(TableRecordKey(table.name), std::nullopt); !st.ok()) {
    std::unique_lock gate(existing->gate->mutex);
    existing->gate->dropped = false;  // the table stays
    return st;
  }
  auto drop_space = [&](uint32_t prefix) { return store_.DropKeyspace(prefix); };
  MT_RETURN_IF_ERROR(drop_space(table.key_prefix));
  for (const auto& index : table.global_indexes) MT_RETURN_IF_ERROR(drop_space(index.key_prefix));
  for (const auto& index : table.local_indexes) MT_RETURN_IF_ERROR(drop_space(index.key_prefix));
  if (table.ttl.key_prefix != 0) MT_RETURN_IF_ERROR(drop_space(table.ttl.key_prefix));

  auto tables = std::make_shared<TableMap>(*Current());
  tables->erase(tables->find(name));
  Publish(std::move(tables));
  Notify(&table, nullptr);  // the table's stream stays readable (DISABLED) for 24 hours
  TableDescription dropped = table;
  dropped.status = "DELETING";
  return dropped;
}

}  // namespace monotable::table
