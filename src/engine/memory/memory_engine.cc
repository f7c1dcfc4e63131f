#include "engine/memory/memory_engine.h"

#include <atomic>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <shared_mutex>
#include <utility>

#include "engine/guarded_commit.h"

namespace monotable::engine {
namespace {

struct Version {
  uint64_t seq;
  std::optional<std::string> value;  // nullopt: tombstone
};

struct Entry {
  std::vector<Version> versions;  // ascending seq; non-empty, first one never a tombstone
  bool queued = false;            // in Store::prune_queue
};

// Newest value visible at `seq`, or nullptr if the key is absent there.
const std::string* Visible(const Entry& e, uint64_t seq) {
  for (auto it = e.versions.rbegin(); it != e.versions.rend(); ++it) {
    if (it->seq <= seq) return it->value ? &*it->value : nullptr;
  }
  return nullptr;
}

// State shared by the engine, its snapshots and its iterators (so neither can dangle).
class Store {
 public:
  using Map = std::map<std::string, Entry, std::less<>>;

  mutable std::shared_mutex mu;
  Map map;                       // guarded by mu
  std::atomic<uint64_t> seq{0};  // last published commit; only advanced under exclusive mu

  void RegisterSnapshot(uint64_t s) {
    std::lock_guard lk(snap_mu_);
    live_snapshots_.insert(s);
  }
  void ReleaseSnapshot(uint64_t s) {
    std::lock_guard lk(snap_mu_);
    live_snapshots_.erase(live_snapshots_.find(s));
  }

  // Runs `write(new_seq)` under the exclusive lock, then publishes new_seq. `write` calls Put()
  // for every mutation; all of them share new_seq and become visible together.
  void Write(const std::function<void(uint64_t)>& write) {
    std::unique_lock lk(mu);
    uint64_t new_seq = seq.load(std::memory_order_relaxed) + 1;
    oldest_ = OldestNeeded(new_seq);
    puts_ = 0;
    write(new_seq);
    DrainPruneQueue(puts_ + 4);  // at least as fast as Put() can queue keys
    seq.store(new_seq, std::memory_order_release);
  }

  // Under exclusive mu (inside Write). Returns the iterator past the (possibly erased) entry.
  Map::iterator Put(Map::iterator it, uint64_t new_seq, std::optional<std::string> value) {
    ++puts_;
    std::vector<Version>& v = it->second.versions;
    if (!v.empty() && v.back().seq == new_seq) {
      v.back().value = std::move(value);  // same key twice in one batch: last wins
    } else {
      v.push_back({new_seq, std::move(value)});
    }
    return Prune(it);
  }

 private:
  // Smallest sequence any reader may still use. Snapshots are registered under shared mu, so
  // none can appear while we hold the exclusive lock.
  uint64_t OldestNeeded(uint64_t new_seq) {
    std::lock_guard lk(snap_mu_);
    return live_snapshots_.empty() ? new_seq : std::min(*live_snapshots_.begin(), new_seq);
  }

  // Drops versions hidden from every reader (all read at >= oldest_) and leading tombstones
  // (reading below or at them both yield "absent"); erases the key when nothing is left, and
  // queues it for later if old versions must stay for a live snapshot.
  Map::iterator Prune(Map::iterator it) {
    std::vector<Version>& v = it->second.versions;
    size_t keep_from = 0;
    for (size_t i = v.size(); i-- > 0;) {
      if (v[i].seq <= oldest_) {
        keep_from = i;
        break;
      }
    }
    while (keep_from < v.size() && !v[keep_from].value) ++keep_from;
    v.erase(v.begin(), v.begin() + static_cast<ptrdiff_t>(keep_from));
    if (v.empty()) return map.erase(it);  // a stale queue entry just misses it later
    if (v.size() > 1 && !it->second.queued) {
      it->second.queued = true;
      prune_queue_.push_back(it->first);
    }
    return std::next(it);
  }

  // Revisits a few keys that kept old versions for a snapshot that may be gone by now.
  void DrainPruneQueue(size_t budget) {
    for (size_t n = std::min(budget, prune_queue_.size()); n > 0; --n) {
      auto it = map.find(prune_queue_.front());
      prune_queue_.pop_front();
      if (it == map.end()) continue;
      it->second.queued = false;
      Prune(it);
    }
  }

  std::mutex snap_mu_;
  std::multiset<uint64_t> live_snapshots_;  // guarded by snap_mu_
  uint64_t oldest_ = 0;                     // guarded by exclusive mu
  size_t puts_ = 0;                         // guarded by exclusive mu
  std::deque<std::string> prune_queue_;     // guarded by exclusive mu
};

class MemorySnapshot : public Snapshot {
 public:
  MemorySnapshot(std::shared_ptr<Store> store, uint64_t seq)
      : store_(std::move(store)), seq_(seq) {}
  ~MemorySnapshot() override { store_->ReleaseSnapshot(seq_); }
  uint64_t seq() const { return seq_; }
  const Store* store() const { return store_.get(); }

 private:
  std::shared_ptr<Store> store_;
  uint64_t seq_;
};

std::shared_ptr<const MemorySnapshot> TakeSnapshot(const std::shared_ptr<Store>& store) {
  std::shared_lock lk(store->mu);
  uint64_t s = store->seq.load(std::memory_order_acquire);
  store->RegisterSnapshot(s);  // before unlocking: no commit may prune what s still needs
  return std::make_shared<MemorySnapshot>(store, s);
}

class MemoryIterator : public Iterator {
 public:
  MemoryIterator(std::shared_ptr<Store> store, std::shared_ptr<const MemorySnapshot> snapshot,
                 std::string lower, std::string upper)
      : store_(std::move(store)),
        snapshot_(std::move(snapshot)),
        lower_(std::move(lower)),
        upper_(std::move(upper)) {}

  void SeekToFirst() override { Forward(lower_, false); }
  void SeekToLast() override {
    std::string_view upper(upper_);
    Backward(upper.empty() ? nullptr : &upper, true);
  }
  void Seek(std::string_view key) override {
    Forward(key < std::string_view(lower_) ? std::string_view(lower_) : key, false);
  }
  void SeekForPrev(std::string_view key) override {
    if (!upper_.empty() && key >= std::string_view(upper_)) {
      SeekToLast();
    } else {
      Backward(&key, false);
    }
  }
  bool Valid() const override { return valid_; }
  void Next() override {
    if (valid_) Forward(key_, true);
  }
  void Prev() override {
    if (!valid_) return;
    std::string_view key(key_);
    Backward(&key, true);
  }
  std::string_view key() const override { return key_; }
  std::string_view value() const override { return value_; }
  Status status() const override { return Status::Ok(); }

 private:
  // First visible key >= from (> from if exclusive) and < upper. `from` may alias key_: it is
  // only used before Land() overwrites key_.
  void Forward(std::string_view from, bool exclusive) {
    std::shared_lock lk(store_->mu);
    auto it = exclusive ? store_->map.upper_bound(from) : store_->map.lower_bound(from);
    for (; it != store_->map.end(); ++it) {
      if (!upper_.empty() && it->first >= upper_) break;
      if (Land(*it)) return;
    }
    valid_ = false;
  }

  // Last visible key <= from (< from if exclusive; the very last if `from` is null) and >= lower.
  void Backward(const std::string_view* from, bool exclusive) {
    std::shared_lock lk(store_->mu);
    auto it = from == nullptr ? store_->map.end()
              : exclusive     ? store_->map.lower_bound(*from)
                              : store_->map.upper_bound(*from);
    while (it != store_->map.begin()) {
      --it;
      if (it->first < lower_) break;
      if (Land(*it)) return;
    }
    valid_ = false;
  }

  bool Land(const Store::Map::value_type& kv) {
    const std::string* v = Visible(kv.second, snapshot_->seq());
    if (v == nullptr) return false;
    key_ = kv.first;
    value_ = *v;
    valid_ = true;
    return true;
  }

  std::shared_ptr<Store> store_;
  std::shared_ptr<const MemorySnapshot> snapshot_;
  std::string lower_, upper_;
  bool valid_ = false;
  std::string key_, value_;
};

class MemoryEngine : public Engine {
 public:
  MemoryEngine()
      : store_(std::make_shared<Store>()),
        committer_([this](std::string_view key) { return Get(key, nullptr); },
                   [this](const std::vector<Mutation>& mutations) { return Apply(mutations); }) {}

  std::shared_ptr<const Snapshot> GetSnapshot() override { return TakeSnapshot(store_); }

  Result<std::optional<std::string>> Get(std::string_view key,
                                         const Snapshot* snapshot) override {
    const MemorySnapshot* snap = nullptr;
    if (snapshot != nullptr) {
      snap = dynamic_cast<const MemorySnapshot*>(snapshot);
      if (snap == nullptr || snap->store() != store_.get()) {
        return Status::Internal("snapshot belongs to another engine");
      }
    }
    std::shared_lock lk(store_->mu);
    uint64_t seq = snap ? snap->seq() : store_->seq.load(std::memory_order_acquire);
    auto it = store_->map.find(key);
    if (it == store_->map.end()) return std::optional<std::string>();
    const std::string* v = Visible(it->second, seq);
    return v ? std::optional<std::string>(*v) : std::nullopt;
  }

  std::unique_ptr<Iterator> NewIterator(std::string lower, std::string upper,
                                        std::shared_ptr<const Snapshot> snapshot) override {
    auto snap = std::dynamic_pointer_cast<const MemorySnapshot>(snapshot);
    if (snap == nullptr || snap->store() != store_.get()) snap = TakeSnapshot(store_);
    return std::make_unique<MemoryIterator>(store_, std::move(snap), std::move(lower),
                                            std::move(upper));
  }

  Status Commit(const WriteBatch& batch) override { return committer_.Commit(batch); }
  uint64_t ReadToken(std::string_view key) override { return committer_.Token(key); }

  Status DeleteRange(std::string_view lower, std::string_view upper) override {
    if (!upper.empty() && lower >= upper) return Status::Ok();
    store_->Write([&](uint64_t new_seq) {
      auto it = store_->map.lower_bound(lower);
      while (it != store_->map.end() && (upper.empty() || it->first < upper)) {
        const Entry& e = it->second;
        if (!e.versions.back().value) {
          ++it;  // already deleted
        } else {
          it = store_->Put(it, new_seq, std::nullopt);
        }
      }
    });
    return Status::Ok();
  }

  uint64_t ApproximateSize(std::string_view lower, std::string_view upper) override {
    std::shared_lock lk(store_->mu);
    uint64_t seq = store_->seq.load(std::memory_order_acquire);
    uint64_t total = 0;
    for (auto it = store_->map.lower_bound(lower);
         it != store_->map.end() && (upper.empty() || it->first < upper); ++it) {
      if (const std::string* v = Visible(it->second, seq)) total += it->first.size() + v->size();
    }
    return total;
  }

  std::string Name() const override { return "memory"; }

 private:
  Status Apply(const std::vector<Mutation>& mutations) {
    store_->Write([&](uint64_t new_seq) {
      for (const Mutation& m : mutations) {
        auto it = store_->map.find(m.key);
        if (it == store_->map.end()) {
          if (!m.value) continue;  // deleting an absent key: absent at every sequence already
          it = store_->map.emplace(m.key, Entry{}).first;
        }
        store_->Put(it, new_seq, m.value);
      }
    });
    return Status::Ok();
  }

  std::shared_ptr<Store> store_;
  GuardedCommitter committer_;
};

}  // namespace

std::unique_ptr<Engine> NewMemoryEngine() { return std::make_unique<MemoryEngine>(); }

}  // namespace monotable::engine
