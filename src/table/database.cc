#include "table/database.h"

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <map>

#include "changelog/change_applier.h"
#include "engine/ordered_store.h"
#include "engine/partitioned/partitioned_store.h"
#include "model/capacity.h"
#include "model/item_codec.h"
#include "changelog/index_entries.h"
#include "changelog/keys.h"
#include "table/transaction.h"

namespace monotable::table {

Result<std::unique_ptr<Database>> Database::Open(const DatabaseOptions& options) {
  if (options.in_memory && options.partitioned_test_engine) {
    return OpenOnStore(engine::OpenPartitionedStore(engine::NewPartitionedState()), options);
  }
  std::unique_ptr<engine::Engine> engine;
  if (options.in_memory) {
    engine = engine::NewMemoryEngine();
  } else {
    MT_ASSIGN_OR_RETURN(engine, engine::OpenRocksDbEngine({.path = options.path,
                                                            .sync = options.sync,
                                                            .group_prefix_bytes = kPartitionPrefixBytes,
                                                            .block_cache_bytes = options.block_cache_bytes,
                                                            .write_buffer_bytes = options.write_buffer_bytes,
                                                            .background_jobs = options.background_jobs,
                                                            .wal_dir = options.wal_dir}));
  }
  auto db = std::make_unique<Database>(std::move(engine));
  MT_RETURN_IF_ERROR(db->Start(options));
  return db;
}

Result<std::unique_ptr<Database>> Database::OpenOnStore(std::unique_ptr<engine::PartitionStore> store,
                                                        const DatabaseOptions& options) {
  auto db = std::make_unique<Database>(std::move(store));
  MT_RETURN_IF_ERROR(db->Start(options));
  return db;
}

Status Database::Start(const DatabaseOptions& options) {
  options_ = options;
  throughput_.set_simulate(options.simulate_throughput);
  throughput_.set_burst_seconds(options.burst_seconds);
  MT_RETURN_IF_ERROR(catalog_.Load());
  MT_RETURN_IF_ERROR(RecoverChangeLogs());
  if (committer_.logged()) MT_RETURN_IF_ERROR(committer_.RecoverTransactions());
  MT_RETURN_IF_ERROR(streams_.Load(catalog_));
  index_builder_.Resume();
  ttl_.Resume();
  background_ = std::jthread([this](std::stop_token stop) { RunBackground(stop); });
  return Status::Ok();
}

Database::Database(std::unique_ptr<engine::Engine> engine, Clock clock)
    : Database(std::move(engine), nullptr, std::move(clock)) {}

Database::Database(std::unique_ptr<engine::PartitionStore> store, Clock clock)
    : Database(nullptr, std::move(store), std::move(clock)) {}

Database::Database(std::unique_ptr<engine::Engine> engine, std::unique_ptr<engine::PartitionStore> store, Clock clock)
    : engine_(std::move(engine)),
      store_(store ? std::move(store) : engine::NewOrderedStore(*engine_)),
      catalog_(engine_.get(), *store_),
      committer_(*store_, catalog_, clock),
      streams_(*store_, clock),
      ttl_(*store_, committer_, catalog_, streams_, clock),
      ttl_lease_(*store_, "ttl", 10'000, clock) {
  catalog_.SetChangeListener(
      [this](const TableDescription* before, const TableDescription* after) { streams_.OnTableChange(before, after); });
}

Database::~Database() {
  if (background_.joinable()) {
    background_.request_stop();
    background_.join();  // its TTL passes delete items: none may follow the saved statistics
  }
  if (Status st = catalog_.SaveStatistics(); !st.ok()) {
    std::fprintf(stderr, "monotable: saving table statistics failed: %s\n", st.message().c_str());
  }
}

void Database::RunBackground(std::stop_token stop) {
  std::mutex mu;
  std::condition_variable_any wake;
  int64_t last_trim = 0;
  while (!stop.stop_requested()) {
    {
      std::unique_lock lock(mu);
      wake.wait_for(lock, stop, std::chrono::milliseconds(std::max<int64_t>(options_.ttl_period_ms, 1)),
                    [] { return false; });
    }
    if (stop.stop_requested()) return;
    if (committer_.logged()) {
      // Another server's DDL is seen within a period; its in-doubt transactions are finished.
      if (auto refreshed = catalog_.Refresh(); !refreshed.ok()) {
        std::fprintf(stderr, "monotable: catalog refresh failed: %s\n", refreshed.status().message().c_str());
      }
      if (Status st = committer_.RecoverTransactions(); !st.ok()) {
        std::fprintf(stderr, "monotable: transaction recovery failed: %s\n", st.message().c_str());
      }
    }
    auto held = committer_.logged() ? ttl_lease_.TryHold() : Result<bool>(true);
    if (!held.ok()) {
      std::fprintf(stderr, "monotable: TTL lease failed: %s\n", held.status().message().c_str());
    } else if (*held) {
      if (auto expired = ttl_.RunOnce(); !expired.ok()) {
        std::fprintf(stderr, "monotable: TTL pass failed: %s\n", expired.status().message().c_str());
      }
    }
    int64_t now = SystemNowMs();
    if (now - last_trim >= 60 * 1000) {
      last_trim = now;
      if (Status st = streams_.Trim(); !st.ok()) {
        std::fprintf(stderr, "monotable: stream trimming failed: %s\n", st.message().c_str());
      }
    }
  }
}

Status Database::RecoverChangeLogs() {
  std::vector<uint32_t> keyspaces;
  for (const std::string& name : catalog_.Names()) {
    if (auto handle = catalog_.Find(name)) keyspaces.push_back(handle->description->key_prefix);
  }
  return committer_.applier().Recover(keyspaces);
}

Result<std::shared_ptr<const TableHandle>> Database::Table(std::string_view name) {
  auto handle = catalog_.Find(name);
  if (!handle && committer_.logged()) {
    // On a shared store the table may have been created by another server a moment ago.
    MT_RETURN_IF_ERROR(catalog_.Refresh().status());
    handle = catalog_.Find(name);
  }
  if (!handle) return Status::NotFound("Requested resource not found");
  return handle;
}

Result<std::optional<std::string>> Database::GetRecord(const TableHandle& table, const Item& key) {
  // One buffer holds the partition id ([hash][partition key component]) and the sort key.
  const TableDescription& desc = *table.description;
  const AttributeValue& hash = key.find(desc.hash_key())->second;
  std::string buffer;
  buffer.reserve(32);
  AppendBigEndian64(PartitionHash(hash), buffer);
  AppendKeyComponent(hash, buffer);
  const size_t partition_bytes = buffer.size();
  if (const std::string* range_name = desc.range_key()) AppendKeyComponent(key.find(*range_name)->second, buffer);
  std::string_view all(buffer);
  return store_->Get({desc.key_prefix, all.substr(0, partition_bytes)}, all.substr(partition_bytes));
}

Result<std::optional<Item>> Database::GetItem(const TableHandle& table, const Item& key) {
  MT_ASSIGN_OR_RETURN(auto raw, GetRecord(table, key));
  if (!raw) return std::optional<Item>();
  MT_ASSIGN_OR_RETURN(Item item, DecodeItem(*raw));
  return std::optional<Item>(std::move(item));
}

Result<WriteResult> Database::Write(const TableHandle& table, const Item& key, const ApplyFn& apply,
                                    const AttemptedSizeFn& attempted_size) {
  // A single-item write is a one-action transaction that never gives up on collisions. The action
  // is moved into its vector: an initializer list would copy the key and both functions again.
  std::vector<WriteAction> actions;
  actions.push_back(WriteAction{&table, key, apply, false, attempted_size});
  MT_ASSIGN_OR_RETURN(TransactionResult result,
                      WriteAtomically(*this, actions, WriteCharge::kStandard, /*max_attempts=*/1 << 20));
  if (!result.committed) return result.outcomes[0];
  return std::move(result.results[0]);
}

}  // namespace monotable::table
