// Shared pieces of the coordinator tests: a store and coordinator over either backend (the
// partitioned test engine, or the ordered adapter over the memory engine), item helpers, and a
// store wrapper that runs a hook after each successful commit (to interleave two transactions).
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "changelog/change_applier.h"
#include "changelog/item_change.h"
#include "engine/engine.h"
#include "engine/ordered_store.h"
#include "engine/partitioned/partitioned_store.h"
#include "txn/coordinator.h"
#include "txn/ledger.h"

namespace monotable::txn {

constexpr uint32_t kTable = 42;

// A partition id as the table layer makes them: an 8-byte hash, then a self-delimiting name.
inline std::string Pid(uint64_t hash, std::string_view name) {
  std::string out;
  for (int shift = 56; shift >= 0; shift -= 8) out.push_back(static_cast<char>((hash >> shift) & 0xff));
  out.append(name);
  out.append("\0\1", 2);
  return out;
}

inline std::string ChangeRecord() {
  changelog::ItemChange change;
  change.table_keyspace = kTable;
  return changelog::EncodeItemChange(change);
}

inline TxnWrite Write(const std::string& pid, std::string sort, std::optional<std::string> expected,
                      std::optional<std::string> new_value) {
  TxnWrite w;
  w.keyspace = kTable;
  w.partition_id = pid;
  w.sort_key = std::move(sort);
  w.expected = std::move(expected);
  w.new_value = std::move(new_value);
  w.change = ChangeRecord();
  return w;
}

inline TxnWrite Check(const std::string& pid, std::string sort, std::optional<std::string> expected) {
  TxnWrite w = Write(pid, std::move(sort), std::move(expected), std::nullopt);
  w.check_only = true;
  w.change.clear();
  return w;
}

inline Status PutItem(engine::PartitionStore& store, const std::string& pid, std::string sort, std::string value) {
  engine::PartitionWrite w;
  w.mutations.push_back({std::move(sort), std::move(value)});
  return store.Commit({kTable, pid}, std::move(w)).status();
}

inline std::optional<std::string> GetItem(engine::PartitionStore& store, const std::string& pid, std::string_view sort) {
  auto r = store.Get({kTable, pid}, sort);
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? *r : std::nullopt;
}

inline std::optional<std::string> GetMarker(engine::PartitionStore& store, const std::string& pid, std::string_view sort) {
  auto r = store.GetMarker({kTable, pid}, sort);
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? *r : std::nullopt;
}

// The states of every ledger record.
inline std::vector<LedgerState> LedgerStates(engine::PartitionStore& store) {
  std::vector<LedgerState> states;
  Ledger ledger(store);
  Status st = ledger.ForEach([&](StoredRecord stored) {
    states.push_back(stored.record.state);
    return Status::Ok();
  });
  EXPECT_TRUE(st.ok()) << st.message();
  return states;
}

inline bool AnyUnfinished(engine::PartitionStore& store) {
  for (LedgerState s : LedgerStates(store)) {
    if (s == LedgerState::kPending || s == LedgerState::kCommitted) return true;
  }
  return false;
}

// One "server": a store on the shared state (or engine), its applier and its coordinator.
struct Server {
  std::unique_ptr<engine::PartitionStore> store;
  std::unique_ptr<changelog::ChangeApplier> applier;
  std::unique_ptr<Coordinator> coordinator;

  explicit Server(std::unique_ptr<engine::PartitionStore> s) : store(std::move(s)) {
    applier = std::make_unique<changelog::ChangeApplier>(*store, [](uint32_t) { return nullptr; });
    coordinator = std::make_unique<Coordinator>(*store, *applier);
  }
};

// Both backends: the partitioned test engine (shared state) and the ordered memory engine.
class Backend {
 public:
  explicit Backend(bool partitioned) {
    if (partitioned) state_ = engine::NewPartitionedState();
    else engine_ = engine::NewMemoryEngine();
  }
  std::unique_ptr<engine::PartitionStore> OpenStore() const {
    return state_ ? engine::OpenPartitionedStore(state_) : engine::NewOrderedStore(*engine_);
  }
  std::unique_ptr<Server> OpenServer() const { return std::make_unique<Server>(OpenStore()); }

 private:
  std::shared_ptr<engine::PartitionedState> state_;
  std::unique_ptr<engine::Engine> engine_;
};

// Forwards to `base`; after each successful Commit, runs `after_commit` (once it is set).
class HookedStore final : public engine::PartitionStore {
 public:
  explicit HookedStore(engine::PartitionStore& base) : base_(base) {}
  std::function<void(engine::PartitionRef, size_t commit_number)> after_commit;

  Result<std::optional<std::string>> Get(engine::PartitionRef p, std::string_view sort_key) override {
    return base_.Get(p, sort_key);
  }
  Result<std::optional<std::string>> GetMarker(engine::PartitionRef p, std::string_view sort_key) override {
    return base_.GetMarker(p, sort_key);
  }
  Status ReadRange(engine::PartitionRef p, const engine::SortRange& range, const engine::EntryVisitor& visit) override {
    return base_.ReadRange(p, range, visit);
  }
  Result<engine::CommitOutcome> Commit(engine::PartitionRef p, engine::PartitionWrite write) override {
    auto out = base_.Commit(p, std::move(write));
    if (out.ok() && after_commit) after_commit(p, ++commits_);
    return out;
  }
  Status ScanKeyspace(engine::KeyspaceRef keyspace, std::string_view lower, std::string_view upper,
                      const engine::EntryVisitor& visit) override {
    return base_.ScanKeyspace(keyspace, lower, upper, visit);
  }
  Status ReadLog(engine::PartitionRef p, uint64_t after, const engine::LogVisitor& visit) override {
    return base_.ReadLog(p, after, visit);
  }
  Status TrimLog(engine::PartitionRef p, uint64_t through) override { return base_.TrimLog(p, through); }
  Status ScanLogs(uint32_t keyspace, const engine::LoggedPartitionVisitor& visit) override {
    return base_.ScanLogs(keyspace, visit);
  }
  Status DropKeyspace(uint32_t keyspace) override { return base_.DropKeyspace(keyspace); }
  uint64_t ApproximateBytes(engine::PartitionRef p) override { return base_.ApproximateBytes(p); }
  std::string Name() const override { return "hooked " + base_.Name(); }

 private:
  engine::PartitionStore& base_;
  size_t commits_ = 0;
};

}  // namespace monotable::txn
