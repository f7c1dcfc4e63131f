#include "engine/ordered_store.h"

#include <array>
#include <functional>
#include <mutex>

namespace monotable::engine {
namespace {

void Append32(uint32_t v, std::string& out) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<char>((v >> shift) & 0xff));
}
void Append64(uint64_t v, std::string& out) {
  for (int shift = 56; shift >= 0; shift -= 8) out.push_back(static_cast<char>((v >> shift) & 0xff));
}
uint64_t Read64(std::string_view bytes) {
  uint64_t v = 0;
  for (unsigned char c : bytes.substr(0, 8)) v = (v << 8) | c;
  return v;
}

// The smallest key greater than every key that starts with `prefix` ("" if there is none).
std::string Successor(std::string prefix) {
  while (!prefix.empty() && static_cast<unsigned char>(prefix.back()) == 0xff) prefix.pop_back();
  if (!prefix.empty()) prefix.back() = static_cast<char>(static_cast<unsigned char>(prefix.back()) + 1);
  return prefix;
}

std::string SpacePrefix(uint32_t keyspace) {
  std::string out;
  Append32(keyspace, out);
  return out;
}

std::string ItemPrefix(PartitionRef p) {
  std::string out;
  out.reserve(4 + p.id.size() + 32);
  Append32(p.keyspace, out);
  out.append(p.id);
  return out;
}

std::string LogPrefix(uint32_t space, PartitionRef p) {
  std::string out;
  out.reserve(8 + p.id.size() + 8);
  Append32(space, out);
  Append32(p.keyspace, out);
  out.append(p.id);
  return out;
}

class OrderedStore final : public PartitionStore {
 public:
  explicit OrderedStore(Engine& engine) : engine_(engine) {}

  Result<std::optional<std::string>> Get(PartitionRef p, std::string_view sort_key) override {
    return engine_.Get(PointKey(p, sort_key));
  }

  Status ReadRange(PartitionRef p, const SortRange& range, const EntryVisitor& visit) override {
    std::string prefix = ItemPrefix(p);
    std::string lower = prefix;
    lower.append(range.lower);
    std::string upper;
    if (range.upper.empty()) {
      upper = Successor(prefix);
    } else {
      upper = prefix;
      upper.append(range.upper);
    }
    auto it = engine_.NewIterator(std::move(lower), std::move(upper));
    if (range.forward) {
      for (it->SeekToFirst(); it->Valid(); it->Next()) {
        if (!visit(it->key().substr(prefix.size()), it->value())) break;
      }
    } else {
      for (it->SeekToLast(); it->Valid(); it->Prev()) {
        if (!visit(it->key().substr(prefix.size()), it->value())) break;
      }
    }
    return it->status();
  }

  Result<std::optional<std::string>> GetMarker(PartitionRef p, std::string_view sort_key) override {
    std::string key = LogPrefix(kMarkerKeyspace, p);
    key.append(sort_key);
    return engine_.Get(key);
  }

  uint64_t ReadToken(PartitionRef p, std::string_view sort_key) override {
    return engine_.ReadToken(PointKey(p, sort_key));
  }

  Result<CommitOutcome> Commit(PartitionRef p, PartitionWrite write) override {
    std::string prefix = ItemPrefix(p);
    WriteBatch batch;
    batch.guards = std::move(write.guards);
    batch.mutations = std::move(write.mutations);
    for (Guard& g : batch.guards) g.key.insert(0, prefix);
    for (Mutation& m : batch.mutations) m.key.insert(0, prefix);
    // Colocated keyspaces keep the layout of a keyspace of their own, in the same engine batch.
    for (LocalMutation& m : write.local_mutations) {
      PartitionRef local{m.keyspace, p.id};
      m.key.insert(0, ItemPrefix(local));
      batch.mutations.push_back({std::move(m.key), std::move(m.value)});
    }
    if (!write.marker_guards.empty() || !write.marker_mutations.empty()) {
      std::string marker_prefix = LogPrefix(kMarkerKeyspace, p);
      for (Guard& g : write.marker_guards) {
        g.key.insert(0, marker_prefix);
        batch.guards.push_back(std::move(g));
      }
      for (Mutation& m : write.marker_mutations) {
        m.key.insert(0, marker_prefix);
        batch.mutations.push_back(std::move(m));
      }
    }
    if (write.log.empty()) {
      MT_RETURN_IF_ERROR(engine_.Commit(batch));
      return CommitOutcome{};
    }
    // Positions are handed out under the partition's stripe: the head read and the commit that
    // advances it are one step for every other logged commit of the partition.
    std::lock_guard lock(StripeOf(p));
    std::string head_key = LogPrefix(kLogHeadKeyspace, p);
    MT_ASSIGN_OR_RETURN(auto head, engine_.Get(head_key));
    uint64_t first = head ? Read64(*head) : 1;
    std::string record_prefix = LogPrefix(kLogRecordKeyspace, p);
    uint64_t pos = first;
    for (std::string& record : write.log) {
      std::string key = record_prefix;
      Append64(pos++, key);
      batch.mutations.push_back({std::move(key), std::move(record)});
    }
    std::string next;
    Append64(pos, next);
    batch.mutations.push_back({std::move(head_key), std::move(next)});
    MT_RETURN_IF_ERROR(engine_.Commit(batch));
    return CommitOutcome{first};
  }

  bool AppliesDerivedInCommit() const override { return true; }
  // The layout's full keys are the engine's keys: one engine batch.
  Status CommitWithDerived(const WriteBatch& batch) override { return engine_.Commit(batch); }

  Status ScanKeyspace(KeyspaceRef keyspace, std::string_view lower, std::string_view upper,
                      const EntryVisitor& visit) override {
    std::string space = SpacePrefix(keyspace.keyspace);
    std::string from = space;
    from.append(lower);
    std::string to;
    if (upper.empty()) {
      to = Successor(space);
    } else {
      to = space;
      to.append(upper);
    }
    auto it = engine_.NewIterator(std::move(from), std::move(to));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      if (!visit(it->key().substr(4), it->value())) break;
    }
    return it->status();
  }

  Status ReadLog(PartitionRef p, uint64_t after, const LogVisitor& visit) override {
    std::string prefix = LogPrefix(kLogRecordKeyspace, p);
    std::string from = prefix;
    Append64(after + 1, from);
    if (after + 1 == 0) return Status::Ok();
    auto it = engine_.NewIterator(std::move(from), Successor(prefix));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      if (!visit(Read64(it->key().substr(prefix.size())), it->value())) break;
    }
    return it->status();
  }

  Status TrimLog(PartitionRef p, uint64_t through) override {
    std::lock_guard lock(StripeOf(p));
    std::string prefix = LogPrefix(kLogRecordKeyspace, p);
    std::string to = prefix;
    Append64(through, to);
    to.push_back('\0');  // through itself included
    WriteBatch batch;
    {
      auto it = engine_.NewIterator(prefix, std::move(to));
      for (it->SeekToFirst(); it->Valid(); it->Next()) batch.mutations.push_back({std::string(it->key()), std::nullopt});
      MT_RETURN_IF_ERROR(it->status());
    }
    if (batch.mutations.empty()) return Status::Ok();
    return engine_.Commit(batch);
  }

  Status ScanLogs(uint32_t keyspace, const LoggedPartitionVisitor& visit) override {
    std::string space;
    Append32(kLogRecordKeyspace, space);
    Append32(keyspace, space);
    auto it = engine_.NewIterator(space, Successor(space));
    it->SeekToFirst();
    while (it->Valid()) {
      std::string_view key = it->key();
      if (key.size() < space.size() + 8) return Status(ErrorCode::kCorruption, "ordered store: short log key");
      std::string partition(key.substr(space.size(), key.size() - space.size() - 8));
      if (!visit(partition, Read64(key.substr(key.size() - 8)))) return Status::Ok();
      std::string next = space;
      next.append(partition);
      it->Seek(Successor(std::move(next)));
    }
    return it->status();
  }

  Status DropKeyspace(uint32_t keyspace) override {
    std::string space = SpacePrefix(keyspace);
    MT_RETURN_IF_ERROR(engine_.DeleteRange(space, Successor(space)));
    for (uint32_t log_space : {kLogRecordKeyspace, kLogHeadKeyspace, kMarkerKeyspace}) {
      std::string prefix;
      Append32(log_space, prefix);
      Append32(keyspace, prefix);
      MT_RETURN_IF_ERROR(engine_.DeleteRange(prefix, Successor(prefix)));
    }
    return Status::Ok();
  }

  uint64_t ApproximateBytes(PartitionRef p) override {
    std::string prefix = ItemPrefix(p);
    return engine_.ApproximateSize(prefix, Successor(prefix));
  }

  std::string Name() const override { return engine_.Name(); }

 private:
  // The engine key of one item, built in a per-thread buffer: point reads allocate nothing
  // beyond what the engine does (the view is valid until the thread's next call).
  static std::string_view PointKey(PartitionRef p, std::string_view sort_key) {
    thread_local std::string key;
    key.clear();
    Append32(p.keyspace, key);
    key.append(p.id);
    key.append(sort_key);
    return key;
  }

  std::mutex& StripeOf(PartitionRef p) {
    size_t h = std::hash<std::string_view>{}(p.id) ^ (static_cast<size_t>(p.keyspace) * 0x9e3779b97f4a7c15ULL);
    return stripes_[h % stripes_.size()].mu;
  }

  struct alignas(64) Stripe {
    std::mutex mu;
  };
  Engine& engine_;
  std::array<Stripe, 256> stripes_;
};

}  // namespace

std::unique_ptr<PartitionStore> NewOrderedStore(Engine& engine) { return std::make_unique<OrderedStore>(engine); }

}  // namespace monotable::engine
