#include "engine/partitioned/partitioned_store.h"

#include <atomic>
#include <map>
#include <mutex>
#include <shared_mutex>
#include <utility>
#include <vector>

namespace monotable::engine {

struct Partition {
  std::mutex mu;
  std::map<std::string, std::string, std::less<>> items;
  std::map<std::string, std::string, std::less<>> markers;
  std::map<uint64_t, std::string> log;
  // Colocated keyspaces' entries of this partition id (engine.h), by keyspace.
  std::map<uint32_t, std::map<std::string, std::string, std::less<>>> colocated;
  uint64_t next_position = 1;
};

class PartitionedState {
 public:
  using Directory = std::map<std::string, std::shared_ptr<Partition>, std::less<>>;

  mutable std::shared_mutex dir_mu;
  std::map<uint32_t, Directory> keyspaces;

  mutable std::mutex fault_mu;
  uint64_t generation = 1;
  bool crashed = false;
  bool armed = false;
  uint64_t remaining = 0;  // writes still allowed before the crash, while armed
  CrashPoint point = CrashPoint::kBeforeWrite;
  std::atomic<uint64_t> writes{0};

  std::shared_ptr<Partition> Find(PartitionRef p) {
    std::shared_lock lock(dir_mu);
    auto ks = keyspaces.find(p.home == kNotColocated ? p.keyspace : p.home);
    if (ks == keyspaces.end()) return nullptr;
    auto it = ks->second.find(p.id);
    return it == ks->second.end() ? nullptr : it->second;
  }
  std::shared_ptr<Partition> FindOrCreate(PartitionRef p) {
    if (auto found = Find(p)) return found;
    std::unique_lock lock(dir_mu);
    auto& dir = keyspaces[p.keyspace];
    auto it = dir.find(p.id);
    if (it == dir.end()) it = dir.emplace(std::string(p.id), std::make_shared<Partition>()).first;
    return it->second;
  }
  // The partitions of a keyspace, in id order (a copy of the directory's entries).
  std::vector<std::pair<std::string, std::shared_ptr<Partition>>> List(uint32_t keyspace, std::string_view from) {
    std::shared_lock lock(dir_mu);
    std::vector<std::pair<std::string, std::shared_ptr<Partition>>> out;
    auto ks = keyspaces.find(keyspace);
    if (ks == keyspaces.end()) return out;
    auto it = ks->second.upper_bound(from);
    // The partition holding `from` (its id is a prefix of it) sorts just before it.
    if (it != ks->second.begin()) {
      auto prev = std::prev(it);
      if (from.substr(0, prev->first.size()) == prev->first) it = prev;
    }
    for (; it != ks->second.end(); ++it) out.emplace_back(it->first, it->second);
    return out;
  }

  Status Alive(uint64_t gen) {
    std::lock_guard lock(fault_mu);
    if (crashed || gen != generation) return Status::Io("simulated crash");
    return Status::Ok();
  }
  // Called with the partition locked, right before a write is applied: whether to apply it, and
  // what to answer after applying it.
  struct Decision {
    bool apply;
    Status after;
  };
  Decision BeginWrite(uint64_t gen) {
    std::lock_guard lock(fault_mu);
    if (crashed || gen != generation) return {false, Status::Io("simulated crash")};
    if (armed) {
      if (remaining == 0) {
        crashed = true;
        armed = false;
        if (point == CrashPoint::kBeforeWrite) return {false, Status::Io("simulated crash")};
        writes.fetch_add(1);
        return {true, Status::Io("simulated crash")};
      }
      --remaining;
    }
    writes.fetch_add(1);
    return {true, Status::Ok()};
  }
};

namespace {

using Entries = std::map<std::string, std::string, std::less<>>;

// The entries a read of `p` sees in its unit: the items, or a colocated keyspace's entries (null:
// none). Called with the partition locked.
const Entries* EntriesOf(const Partition& part, PartitionRef p) {
  if (p.home == kNotColocated) return &part.items;
  auto it = part.colocated.find(p.keyspace);
  return it == part.colocated.end() ? nullptr : &it->second;
}

bool GuardsHold(const Entries& entries, const std::vector<Guard>& guards) {
  for (const Guard& g : guards) {
    auto it = entries.find(g.key);
    bool holds = g.expected ? (it != entries.end() && it->second == *g.expected) : it == entries.end();
    if (!holds) return false;
  }
  return true;
}

void Apply(Entries& entries, std::vector<Mutation>& mutations) {
  for (Mutation& m : mutations) {
    if (m.value) {
      entries.insert_or_assign(std::move(m.key), std::move(*m.value));
    } else {
      entries.erase(m.key);
    }
  }
}

class PartitionedStore final : public PartitionStore {
 public:
  PartitionedStore(std::shared_ptr<PartitionedState> state, uint64_t generation)
      : state_(std::move(state)), generation_(generation) {}

  Result<std::optional<std::string>> Get(PartitionRef p, std::string_view sort_key) override {
    MT_RETURN_IF_ERROR(state_->Alive(generation_));
    auto part = state_->Find(p);
    if (!part) return std::optional<std::string>();
    std::lock_guard lock(part->mu);
    const Entries* entries = EntriesOf(*part, p);
    if (!entries) return std::optional<std::string>();
    auto it = entries->find(sort_key);
    if (it == entries->end()) return std::optional<std::string>();
    return std::optional<std::string>(it->second);
  }

  Status ReadRange(PartitionRef p, const SortRange& range, const EntryVisitor& visit) override {
    MT_RETURN_IF_ERROR(state_->Alive(generation_));
    auto part = state_->Find(p);
    if (!part) return Status::Ok();
    std::vector<std::pair<std::string, std::string>> copy;
    {
      std::lock_guard lock(part->mu);
      const Entries* entries = EntriesOf(*part, p);
      if (!entries) return Status::Ok();
      auto from = entries->lower_bound(range.lower);
      auto to = range.upper.empty() ? entries->end() : entries->lower_bound(range.upper);
      if (!range.upper.empty() && range.upper <= range.lower) to = from;
      for (auto it = from; it != to && it != entries->end(); ++it) copy.emplace_back(it->first, it->second);
    }
    if (range.forward) {
      for (const auto& [k, v] : copy) {
        if (!visit(k, v)) break;
      }
    } else {
      for (auto it = copy.rbegin(); it != copy.rend(); ++it) {
        if (!visit(it->first, it->second)) break;
      }
    }
    return state_->Alive(generation_);
  }

  Result<CommitOutcome> Commit(PartitionRef p, PartitionWrite write) override {
    MT_RETURN_IF_ERROR(state_->Alive(generation_));
    auto part = state_->FindOrCreate(p);
    std::lock_guard lock(part->mu);
    if (!GuardsHold(part->items, write.guards) || !GuardsHold(part->markers, write.marker_guards)) {
      return Status(ErrorCode::kGuardFailed, "guard failed");
    }
    auto decision = state_->BeginWrite(generation_);
    if (!decision.apply) return decision.after;
    Apply(part->items, write.mutations);
    Apply(part->markers, write.marker_mutations);
    for (LocalMutation& m : write.local_mutations) {
      Entries& entries = part->colocated[m.keyspace];
      if (m.value) entries.insert_or_assign(std::move(m.key), std::move(*m.value));
      else entries.erase(m.key);
    }
    CommitOutcome out;
    if (!write.log.empty()) out.first_log_position = part->next_position;
    for (std::string& record : write.log) part->log.emplace(part->next_position++, std::move(record));
    MT_RETURN_IF_ERROR(decision.after);
    return out;
  }

  Result<std::optional<std::string>> GetMarker(PartitionRef p, std::string_view sort_key) override {
    MT_RETURN_IF_ERROR(state_->Alive(generation_));
    auto part = state_->Find(p);
    if (!part) return std::optional<std::string>();
    std::lock_guard lock(part->mu);
    auto it = part->markers.find(sort_key);
    if (it == part->markers.end()) return std::optional<std::string>();
    return std::optional<std::string>(it->second);
  }

  Status ScanKeyspace(KeyspaceRef keyspace, std::string_view lower, std::string_view upper,
                      const EntryVisitor& visit) override {
    MT_RETURN_IF_ERROR(state_->Alive(generation_));
    std::string key;
    const uint32_t listed = keyspace.colocated() ? keyspace.home : keyspace.keyspace;
    for (auto& [id, part] : state_->List(listed, lower)) {
      if (!upper.empty() && std::string_view(id) >= upper) break;
      std::string_view sort_lower;
      if (lower.size() > id.size() && lower.substr(0, id.size()) == id) sort_lower = lower.substr(id.size());
      std::vector<std::pair<std::string, std::string>> copy;
      {
        std::lock_guard lock(part->mu);
        const Entries* entries = EntriesOf(*part, {keyspace.keyspace, id, keyspace.home});
        for (auto it = entries ? entries->lower_bound(sort_lower) : Entries::const_iterator();
             entries && it != entries->end(); ++it) {
          copy.emplace_back(it->first, it->second);
        }
      }
      for (const auto& [sort, value] : copy) {
        key.assign(id);
        key.append(sort);
        if (std::string_view(key) < lower) continue;
        if (!upper.empty() && std::string_view(key) >= upper) return Status::Ok();
        if (!visit(key, value)) return Status::Ok();
      }
    }
    return state_->Alive(generation_);
  }

  Status ReadLog(PartitionRef p, uint64_t after, const LogVisitor& visit) override {
    MT_RETURN_IF_ERROR(state_->Alive(generation_));
    auto part = state_->Find(p);
    if (!part) return Status::Ok();
    std::vector<std::pair<uint64_t, std::string>> copy;
    {
      std::lock_guard lock(part->mu);
      for (auto it = part->log.upper_bound(after); it != part->log.end(); ++it) copy.emplace_back(*it);
    }
    for (const auto& [pos, record] : copy) {
      if (!visit(pos, record)) break;
    }
    return Status::Ok();
  }

  Status TrimLog(PartitionRef p, uint64_t through) override {
    MT_RETURN_IF_ERROR(state_->Alive(generation_));
    auto part = state_->Find(p);
    if (!part) return Status::Ok();
    std::lock_guard lock(part->mu);
    if (part->log.empty() || part->log.begin()->first > through) return Status::Ok();
    auto decision = state_->BeginWrite(generation_);
    if (!decision.apply) return decision.after;
    part->log.erase(part->log.begin(), part->log.upper_bound(through));
    return decision.after;
  }

  Status ScanLogs(uint32_t keyspace, const LoggedPartitionVisitor& visit) override {
    MT_RETURN_IF_ERROR(state_->Alive(generation_));
    for (auto& [id, part] : state_->List(keyspace, "")) {
      uint64_t first = 0;
      {
        std::lock_guard lock(part->mu);
        if (!part->log.empty()) first = part->log.begin()->first;
      }
      if (first != 0 && !visit(id, first)) break;
    }
    return Status::Ok();
  }

  Status DropKeyspace(uint32_t keyspace) override {
    MT_RETURN_IF_ERROR(state_->Alive(generation_));
    std::unique_lock lock(state_->dir_mu);
    auto decision = state_->BeginWrite(generation_);
    if (!decision.apply) return decision.after;
    state_->keyspaces.erase(keyspace);
    return decision.after;
  }

  uint64_t ApproximateBytes(PartitionRef p) override {
    if (!state_->Alive(generation_).ok()) return 0;
    auto part = state_->Find(p);
    if (!part) return 0;
    std::lock_guard lock(part->mu);
    const Entries* entries = EntriesOf(*part, p);
    uint64_t total = 0;
    if (entries) {
      for (const auto& [k, v] : *entries) total += k.size() + v.size();
    }
    return total;
  }

  std::string Name() const override { return "partitioned"; }

 private:
  std::shared_ptr<PartitionedState> state_;
  uint64_t generation_;
};

}  // namespace

std::shared_ptr<PartitionedState> NewPartitionedState() { return std::make_shared<PartitionedState>(); }

std::unique_ptr<PartitionStore> OpenPartitionedStore(std::shared_ptr<PartitionedState> state) {
  uint64_t gen;
  {
    std::lock_guard lock(state->fault_mu);
    gen = state->generation;
  }
  return std::make_unique<PartitionedStore>(std::move(state), gen);
}

void CrashAfter(PartitionedState& state, uint64_t writes, CrashPoint point) {
  std::lock_guard lock(state.fault_mu);
  state.armed = true;
  state.remaining = writes;
  state.point = point;
}

void Restart(PartitionedState& state) {
  std::lock_guard lock(state.fault_mu);
  state.crashed = false;
  state.armed = false;
  ++state.generation;
}

bool Crashed(const PartitionedState& state) {
  std::lock_guard lock(state.fault_mu);
  return state.crashed;
}

uint64_t PartitionWrites(const PartitionedState& state) { return state.writes.load(); }

size_t PartitionCount(const PartitionedState& state, uint32_t keyspace) {
  std::shared_lock lock(state.dir_mu);
  auto it = state.keyspaces.find(keyspace);
  return it == state.keyspaces.end() ? 0 : it->second.size();
}

}  // namespace monotable::engine
