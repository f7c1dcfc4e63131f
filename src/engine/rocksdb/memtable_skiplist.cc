#include "engine/rocksdb/memtable_skiplist.h"

#include <rocksdb/slice.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <functional>
#include <mutex>
#include <new>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include <pthread.h>
#include <sys/mman.h>

namespace monotable::engine {
namespace {
class SkipList;
}  // namespace

// Links the queued nodes of skip lists on a thread of its own (started on first use), so that the
// writer of a memtable (RocksDB's write-group leader: a thread serving requests) only indexes and
// queues its nodes. One per factory; a list is handed over when it has a group queued.
class SkipListLinker {
 public:
  ~SkipListLinker();
  // Hands over a list that has a group queued and was not handed over since it was last linked
  // (SkipList::scheduled_).
  void Schedule(SkipList* list);
  // Called by a list's destructor: when it returns, the linker neither holds nor will take list.
  void Forget(const SkipList* list);
  // On the linker's thread: maps `bytes` of zeroed memory with every page faulted in, as the spare
  // hash index of the next memtable, unless a spare is ready.
  void PrepareSpare(size_t bytes);
  // The spare, if one of `bytes` is ready (the caller owns the mapping), or nullptr.
  void* TakeSpare(size_t bytes);
  bool HasSpare();
  // Whether a memtable of this factory's took kPrefaultAfterBytes of entries (any thread), and
  // noting that one did (its writer).
  bool SawBusyMemtable() const { return saw_busy_memtable_.load(std::memory_order_relaxed); }
  void NoteBusyMemtable() { saw_busy_memtable_.store(true, std::memory_order_relaxed); }

 private:
  void Run();

  std::mutex mutex_;
  std::condition_variable work_;  // pending_ has a list, or stop_
  std::condition_variable idle_;  // busy_ changed
  std::vector<SkipList*> pending_;
  const SkipList* busy_ = nullptr;  // the list being linked, outside mutex_
  bool stop_ = false;
  void* spare_ = nullptr;  // PrepareSpare's mapping, spare_bytes_ long
  size_t spare_bytes_ = 0;
  std::atomic<bool> saw_busy_memtable_{false};
  std::thread thread_;
};

namespace {

static_assert(std::endian::native == std::endian::little, "entry trailers are decoded with memcpy");

constexpr int kMaxHeight = 12;  // as RocksDB's own skip list
constexpr uint64_t kBranching = 4;

// A node is named by the address of its memtable entry. In front of the entry, 8-byte aligned:
//   [link for level height-1] ... [link for level 0] [older] [hash] [chain] [height: uint64_t] [entry ...]
// hash is its user key's hash, chain the next node of its hash bucket and older the next older
// version of its user key (the hash index). The head is the same without an entry, with all
// kMaxHeight links.
using Link = std::atomic<const char*>;
constexpr size_t kFront = 4 * sizeof(uint64_t);  // older, hash, chain, height

// Once a memtable's entries take this many bytes a hash bucket (8 MB with 2^18 buckets: the
// memtable of a server taking writes, not of one holding a few items), the next memtable's hash
// index is faulted in ahead on the linker's thread (SkipListLinker::PrepareSpare). Why: a writer
// inserting into a fresh index takes a page fault for each of its pages that it touches first
// (512 with 2^18 buckets), ~12 us each on a virtual machine where faults are dear, and with 4 KB
// items a memtable touches them all in its first ~2,000 inserts: 0.034 faults, ~0.4 us, of each
// 4 KB write on the thread serving it. Faulted in together (MAP_POPULATE) the pages cost ~0.8 us
// each, off that thread.
constexpr size_t kSpareAfterBytesPerBucket = 32;

// With a linker, the arena pages the writer's next nodes will take are faulted in ahead on the
// linker's thread (MADV_POPULATE_WRITE): a window of kPrefaultWindow bytes below the end of the
// writer's latest node, asked for again whenever its nodes come within kPrefaultLead of the
// window's bottom or a node does not end where the one before began (a new arena block: the
// window may have stopped at the old block's edge). Below, because the nodes are taken with
// Allocator::Allocate (unaligned), which RocksDB's arena serves from the top of each block down.
// Why: nodes are written into fresh arena memory (RocksDB allocates the blocks), and the writer
// took a page fault for each page it touched first, ~12-17 us each here, in bursts whenever a
// memtable's blocks were new memory (bench/RESULTS.md, sessions 26 and 28): up to ~8,000 faults in
// one second of 4 KB writes. Populated together they cost ~0.8 us a page, off the writer. Memory
// past a block's edge is refused (and left alone) or belongs to someone else: populating changes
// no contents, and costs at most a window of RAM a block. Only once a memtable's entries take
// kPrefaultAfterBytes (a server taking writes): a server writing a few items would otherwise hold
// a window of RAM it never uses. From then on every later memtable of the factory's is faulted in
// ahead from its first node: the first MB of each new memtable had cost the writer ~256 faults of
// 4 KB items in ~10 ms (~4 ms of faults) at every switch to new memory (bench/RESULTS.md, session 29).
constexpr size_t kPrefaultAfterBytes = 1 << 20;
constexpr uintptr_t kPageBytes = 4096;
constexpr uintptr_t kPrefaultWindow = 512 << 10;
constexpr uintptr_t kPrefaultLead = 256 << 10;
constexpr uintptr_t kPrefaultChunk = 64 << 10;

Link* LinkOf(const char* node, int level) {
  return reinterpret_cast<Link*>(const_cast<char*>(node) - kFront) - 1 - level;
}

Link* OlderOf(const char* node) { return reinterpret_cast<Link*>(const_cast<char*>(node) - kFront); }

Link* ChainOf(const char* node) { return reinterpret_cast<Link*>(const_cast<char*>(node) - 2 * sizeof(uint64_t)); }

uint64_t HashOf(const char* node) {
  uint64_t hash;
  std::memcpy(&hash, node - 3 * sizeof(uint64_t), sizeof hash);
  return hash;
}

int HeightOf(const char* node) {
  uint64_t height;
  std::memcpy(&height, node - sizeof height, sizeof height);
  return static_cast<int>(height);
}

// An internal key: the user key and its trailer (sequence number << 8 | value type).
struct InternalKey {
  const char* user;
  size_t user_size;
  uint64_t trailer;
};

// RocksDB's memtable entry (and LookupKey::memtable_key()): varint32 internal-key size, then the
// internal key; the value that follows is not looked at.
InternalKey KeyOfEntry(const char* entry) {
  uint32_t size = 0;
  int shift = 0;
  for (;; shift += 7) {
    uint8_t byte = static_cast<uint8_t>(*entry++);
    size |= static_cast<uint32_t>(byte & 0x7f) << shift;
    if (byte < 0x80) break;
  }
  uint64_t trailer;
  std::memcpy(&trailer, entry + size - 8, 8);
  return {entry, size - 8, trailer};
}

uint64_t HashOf(const InternalKey& key) {
  return std::hash<std::string_view>{}(std::string_view(key.user, key.user_size));
}

bool SameUserKey(const InternalKey& a, const InternalKey& b) {
  return a.user_size == b.user_size && (a.user_size == 0 || std::memcmp(a.user, b.user, a.user_size) == 0);
}

InternalKey KeyOfSlice(const rocksdb::Slice& internal_key) {
  uint64_t trailer;
  std::memcpy(&trailer, internal_key.data() + internal_key.size() - 8, 8);
  return {internal_key.data(), internal_key.size() - 8, trailer};
}

// InternalKeyComparator over BytewiseComparator: user keys ascending, then newer (larger
// trailer) first.
int Compare(const InternalKey& a, const InternalKey& b) {
  size_t common = std::min(a.user_size, b.user_size);
  int r = common == 0 ? 0 : std::memcmp(a.user, b.user, common);
  if (r != 0) return r;
  if (a.user_size != b.user_size) return a.user_size < b.user_size ? -1 : 1;
  if (a.trailer != b.trailer) return a.trailer > b.trailer ? -1 : 1;
  return 0;
}

// Takes bytes from a RocksDB Allocator through the public MemTableRep::Allocate (Debian does not
// install memory/allocator.h). Used for iterators placed in a read's Arena: Arena's only base
// class is Allocator, so an Arena* is also its Allocator*.
class AllocatorBytes final : public rocksdb::MemTableRep {
 public:
  explicit AllocatorBytes(rocksdb::Allocator* allocator) : MemTableRep(allocator) {}
  char* Take(size_t size) {
    char* bytes = nullptr;
    MemTableRep::Allocate(size, &bytes);
    return bytes;
  }
  void Insert(rocksdb::KeyHandle) override {}
  bool Contains(const char*) const override { return false; }
  size_t ApproximateMemoryUsage() override { return 0; }
  Iterator* GetIterator(rocksdb::Arena*) override { return nullptr; }
};

char* AlignUp(char* p, size_t alignment) {
  auto address = reinterpret_cast<uintptr_t>(p);
  return p + ((alignment - address % alignment) % alignment);
}

// A skip list for order (iterators, Seek), with a hash index from each user key to its newest
// node, and from each node to its user key's next older version, for point reads: a Get costs a
// bucket and a node or two instead of the ~30 nodes, each a likely cache miss, that a search of a
// full memtable visits.
//
// With the index, an insert only indexes its node and queues it; the queue is linked into the list
// kGroup nodes at a time, or before anything reads the list's order (an iterator, Contains, a size
// estimate, the memtable turning read-only), whichever comes first. With a linker, the groups are
// linked on the linker's thread, and by the writer only when kQueue nodes wait (the linker is
// behind); without one, by the writer as each group fills. A group is sorted, searched
// in lock step with each search's next node prefetched, so the cache misses of its searches
// overlap instead of following one another (measured: ~10,000 cycles an insert one by one on this
// machine), then linked in order.
class SkipList final : public rocksdb::MemTableRep {
 public:
  SkipList(rocksdb::Allocator* allocator, size_t hash_buckets, std::shared_ptr<std::atomic<int>> live,
           std::shared_ptr<SkipListLinker> linker)
      : MemTableRep(allocator), prefaulting_(linker != nullptr && linker->SawBusyMemtable()), live_(std::move(live)) {
    live_->fetch_add(1, std::memory_order_relaxed);
    for (int level = 0; level < kMaxHeight; ++level) new (LinkOf(head_, level)) Link(nullptr);
    if (hash_buckets > 0) {
      // Fresh anonymous memory reads as zero (empty buckets) and takes RAM only where touched;
      // a spare is fresh memory too, its pages already faulted in.
      void* memory = linker != nullptr ? linker->TakeSpare(hash_buckets * sizeof(Link)) : nullptr;
      if (memory == nullptr) {
        memory = mmap(nullptr, hash_buckets * sizeof(Link), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      }
      if (memory != MAP_FAILED) {
        buckets_ = static_cast<Link*>(memory);
        bucket_count_ = hash_buckets;
        linker_ = std::move(linker);  // without the index every insert is linked at once
      }
    }
  }

  ~SkipList() override {
    if (linker_ != nullptr) linker_->Forget(this);
    if (buckets_ != nullptr) munmap(buckets_, bucket_count_ * sizeof(Link));
    live_->fetch_sub(1, std::memory_order_relaxed);
  }

  SkipList(const SkipList&) = delete;
  SkipList& operator=(const SkipList&) = delete;

  rocksdb::KeyHandle Allocate(const size_t size, char** buf) override {
    const int height = RandomHeight();
    const size_t front = sizeof(Link) * height + kFront;
    char* bytes = nullptr;
    MemTableRep::Allocate(front + size + alignof(Link) - 1, &bytes);
    allocated_.store(allocated_.load(std::memory_order_relaxed) + size, std::memory_order_relaxed);  // one writer
    char* node = AlignUp(bytes, alignof(Link)) + front;
    for (int level = 0; level < height; ++level) new (LinkOf(node, level)) Link(nullptr);
    new (ChainOf(node)) Link(nullptr);
    new (OlderOf(node)) Link(nullptr);
    const uint64_t stored_height = static_cast<uint64_t>(height);
    std::memcpy(node - sizeof stored_height, &stored_height, sizeof stored_height);
    if (linker_ != nullptr && (prefaulting_ || allocated_.load(std::memory_order_relaxed) >= kPrefaultAfterBytes)) {
      if (!prefaulting_) {
        prefaulting_ = true;
        linker_->NoteBusyMemtable();
      }
      AskPrefault(reinterpret_cast<uintptr_t>(bytes), reinterpret_cast<uintptr_t>(node) + size);
    }
    *buf = node;
    return node;
  }

  void Insert(rocksdb::KeyHandle handle) override { InsertKey(handle); }

  // One writer at a time (see the header); readers follow links published with release stores.
  bool InsertKey(rocksdb::KeyHandle handle) override {
    const char* node = static_cast<const char*>(handle);
    const InternalKey key = KeyOfEntry(node);
    if (buckets_ == nullptr) {  // without the index, point reads search the list: link now
      std::lock_guard lock(link_mutex_);
      return LinkOne(node, key);
    }
    if (!Index(node, key)) return false;
    // The queue has room once its oldest nodes are linked: drained_ counts what was linked.
    const uint64_t queued = queued_.load(std::memory_order_relaxed);
    uint64_t waiting = queued - drained_.load(std::memory_order_acquire);
    if (waiting >= (linker_ != nullptr ? kQueue : kGroup)) {
      std::lock_guard lock(link_mutex_);
      LinkQueued();
      waiting = 0;
    }
    queue_[queued % kQueue] = node;
    // Sequentially consistent with the linker's clearing of scheduled_ and its reading of queued_
    // (LinkInBackground): either the linker sees this node or this writer sees scheduled_ clear.
    queued_.store(queued + 1, std::memory_order_seq_cst);
    if (linker_ != nullptr && waiting + 1 >= kGroup && !scheduled_.load(std::memory_order_seq_cst) &&
        !scheduled_.exchange(true, std::memory_order_seq_cst)) {
      linker_->Schedule(this);
    }
    return true;
  }

  // On the linker's thread: links the queue a group at a time (releasing link_mutex_ between
  // groups, so that readers waiting in LinkAll get in) until less than a group waits.
  void LinkInBackground() {
    if (const uintptr_t top = prefault_top_.exchange(0, std::memory_order_relaxed); top != 0) Prefault(top);
    if (!spare_prepared_ && allocated_.load(std::memory_order_relaxed) >= kSpareAfterBytesPerBucket * bucket_count_) {
      spare_prepared_ = true;
      linker_->PrepareSpare(bucket_count_ * sizeof(Link));
    }
    for (;;) {
      for (;;) {
        std::lock_guard lock(link_mutex_);
        const uint64_t begin = drained_.load(std::memory_order_relaxed);
        if (queued_.load(std::memory_order_acquire) - begin < kGroup) break;
        LinkGroupAt(begin, kGroup);
      }
      scheduled_.store(false, std::memory_order_seq_cst);
      // A writer that queued a group meanwhile saw scheduled_ set and left it to this call.
      if (queued_.load(std::memory_order_seq_cst) - drained_.load(std::memory_order_acquire) < kGroup ||
          scheduled_.exchange(true, std::memory_order_seq_cst)) {
        return;
      }
    }
  }

  bool Contains(const char* entry) const override {
    LinkAll();
    const InternalKey key = KeyOfEntry(entry);
    const char* x = AtOrAfter(key);
    return x != nullptr && Compare(KeyOfEntry(x), key) == 0;
  }

  // RocksDB's default Get leaks the iterator it creates, so every representation overrides it.
  // LookupKey (db/dbformat.h, not installed) begins with the address of its memtable key, the
  // same varint32-prefixed internal key as an entry. RocksDB's callback stops at the first entry of
  // another user key without looking at it, so a user key the index does not hold needs no call,
  // and walking the user key's versions (newest first) is all it needs.
  void Get(const rocksdb::LookupKey& lookup, void* callback_args,
           bool (*callback)(void* arg, const char* entry)) override {
    const char* memtable_key = *reinterpret_cast<const char* const*>(&lookup);
    const InternalKey key = KeyOfEntry(memtable_key);
    const char* x;
    if (buckets_ != nullptr) {
      // The user key's versions hang off its newest node (older links), newest first, whether
      // or not they are in the list yet: skip those newer than the lookup's sequence number.
      x = Newest(key);
      while (x != nullptr && Compare(KeyOfEntry(x), key) < 0) x = OlderOf(x)->load(std::memory_order_acquire);
      for (; x != nullptr && callback(callback_args, x); x = OlderOf(x)->load(std::memory_order_acquire)) {
      }
      return;
    }
    for (x = AtOrAfter(key); x != nullptr && callback(callback_args, x); x = LinkOf(x, 0)->load(std::memory_order_acquire)) {
    }
  }

  // RocksDB's estimate of a range's share of the memtable (GetApproximateSizes with memtables).
  uint64_t ApproximateNumEntries(const rocksdb::Slice& start, const rocksdb::Slice& end) override {
    LinkAll();
    const uint64_t before_start = EstimateCountBefore(KeyOfSlice(start));
    const uint64_t before_end = EstimateCountBefore(KeyOfSlice(end));
    return before_end >= before_start ? before_end - before_start : 0;
  }

  // Entries live in the arena, which RocksDB counts itself; the hash buckets are counted whole.
  size_t ApproximateMemoryUsage() override { return bucket_count_ * sizeof(Link); }

  Iterator* GetIterator(rocksdb::Arena* arena) override;

  // No more inserts: what is queued goes into the list now, on the writer's thread.
  void MarkReadOnly() override { LinkAll(); }

  // Links every node queued so far (by the time this returns), on whichever thread asks.
  void LinkAll() const {
    if (drained_.load(std::memory_order_acquire) == queued_.load(std::memory_order_acquire)) return;
    std::lock_guard lock(link_mutex_);
    const_cast<SkipList*>(this)->LinkQueued();
  }

  // The first node whose key is >= key, or nullptr.
  const char* AtOrAfter(const InternalKey& key) const {
    const char* x = head_;
    const char* known_after = nullptr;  // compared already on the level above
    for (int level = max_height_.load(std::memory_order_relaxed) - 1;;) {
      const char* next = LinkOf(x, level)->load(std::memory_order_acquire);
      const int order = next == nullptr || next == known_after ? 1 : Compare(KeyOfEntry(next), key);
      if (order < 0) {
        x = next;
      } else if (order == 0 || level == 0) {
        return next;
      } else {
        known_after = next;
        --level;
      }
    }
  }

  // The last node whose key is < key, or nullptr.
  const char* Before(const InternalKey& key) const {
    const char* x = head_;
    const char* known_after = nullptr;
    for (int level = max_height_.load(std::memory_order_relaxed) - 1; level >= 0;) {
      const char* next = LinkOf(x, level)->load(std::memory_order_acquire);
      if (next != nullptr && next != known_after && Compare(KeyOfEntry(next), key) < 0) {
        x = next;
      } else {
        known_after = next;
        --level;
      }
    }
    return x == head_ ? nullptr : x;
  }

  // How many nodes come before key, estimated from the nodes passed on each level (as RocksDB's
  // InlineSkipList::EstimateCount does).
  uint64_t EstimateCountBefore(const InternalKey& key) const {
    uint64_t count = 0;
    const char* x = head_;
    for (int level = max_height_.load(std::memory_order_relaxed) - 1;;) {
      const char* next = LinkOf(x, level)->load(std::memory_order_acquire);
      if (next != nullptr && Compare(KeyOfEntry(next), key) < 0) {
        x = next;
        ++count;
      } else if (level == 0) {
        return count;
      } else {
        count *= kBranching;
        --level;
      }
    }
  }

  const char* First() const { return LinkOf(head_, 0)->load(std::memory_order_acquire); }

  const char* Last() const {
    const char* x = head_;
    for (int level = max_height_.load(std::memory_order_relaxed) - 1; level >= 0;) {
      const char* next = LinkOf(x, level)->load(std::memory_order_acquire);
      if (next != nullptr) {
        x = next;
      } else {
        --level;
      }
    }
    return x == head_ ? nullptr : x;
  }

 private:
  // The newest node of key's user key, or nullptr.
  const char* Newest(const InternalKey& key) const {
    const uint64_t hash = HashOf(key);
    for (const char* x = buckets_[hash % bucket_count_].load(std::memory_order_acquire); x != nullptr;
         x = ChainOf(x)->load(std::memory_order_acquire)) {
      if (HashOf(x) == hash && SameUserKey(KeyOfEntry(x), key)) return x;
    }
    return nullptr;
  }

  // Inserts one node, searching the list alone; false for a duplicate internal key. Under link_mutex_.
  bool LinkOne(const char* node, const InternalKey& key) {
    const char* before[kMaxHeight];
    const int top = max_height_.load(std::memory_order_relaxed);
    const char* x = head_;
    for (int level = top - 1; level >= 0; --level) {
      for (;;) {
        const char* next = LinkOf(x, level)->load(std::memory_order_relaxed);
        if (next == nullptr || Compare(KeyOfEntry(next), key) >= 0) break;
        x = next;
      }
      before[level] = x;
    }
    const char* at = LinkOf(before[0], 0)->load(std::memory_order_relaxed);
    if (at != nullptr && Compare(KeyOfEntry(at), key) == 0) return false;
    LinkAfter(node, key, before, top);
    return true;
  }

  // Links node given, on each level below top, a node before it (the head, or a node whose key
  // is less) with nothing but nodes of keys less than node's inserted since between that node and
  // node's place. Level 0 first: a reader that reaches node on a level finds its lower links set.
  void LinkAfter(const char* node, const InternalKey& key, const char* const* before, int top) {
    const int height = HeightOf(node);
    if (height > max_height_.load(std::memory_order_relaxed)) {
      // A reader that sees the new height before the links finds nullptr at the head's upper
      // levels and simply descends.
      max_height_.store(height, std::memory_order_relaxed);
    }
    for (int level = 0; level < height; ++level) {
      const char* x = level < top ? before[level] : head_;
      for (;;) {
        const char* next = LinkOf(x, level)->load(std::memory_order_relaxed);
        if (next == nullptr || Compare(KeyOfEntry(next), key) >= 0) break;
        x = next;
      }
      LinkOf(node, level)->store(LinkOf(x, level)->load(std::memory_order_relaxed), std::memory_order_relaxed);
      LinkOf(x, level)->store(node, std::memory_order_release);
    }
  }

  // Links every queued node. Under link_mutex_.
  void LinkQueued() {
    const uint64_t end = queued_.load(std::memory_order_acquire);
    for (uint64_t begin = drained_.load(std::memory_order_relaxed); begin < end; begin += kGroup) {
      LinkGroupAt(begin, static_cast<size_t>(std::min<uint64_t>(end - begin, kGroup)));
    }
  }

  // Links the count (<= kGroup) queued nodes from the oldest, begin. Under link_mutex_.
  void LinkGroupAt(uint64_t begin, size_t count) {
    const char* nodes[kGroup];
    for (size_t i = 0; i < count; ++i) nodes[i] = queue_[(begin + i) % kQueue];
    LinkGroup(nodes, count);
    drained_.store(begin + count, std::memory_order_release);
  }

  // Links count (<= kGroup) nodes of distinct internal keys. Their searches run in lock step: each
  // round advances every search by one comparison and prefetches the node it compares next.
  void LinkGroup(const char** nodes, size_t count) {
    std::sort(nodes, nodes + count,
              [](const char* a, const char* b) { return Compare(KeyOfEntry(a), KeyOfEntry(b)) < 0; });
    InternalKey keys[kGroup];
    const char* at[kGroup];
    int level[kGroup];
    const char* before[kGroup][kMaxHeight];
    const int top = max_height_.load(std::memory_order_relaxed);
    for (size_t i = 0; i < count; ++i) {
      keys[i] = KeyOfEntry(nodes[i]);
      at[i] = head_;
      level[i] = top - 1;
    }
    for (size_t searching = count; searching > 0;) {
      for (size_t i = 0; i < count; ++i) {
        if (level[i] < 0) continue;
        const char* next = LinkOf(at[i], level[i])->load(std::memory_order_relaxed);
        if (next != nullptr && Compare(KeyOfEntry(next), keys[i]) < 0) {
          at[i] = next;
        } else {
          before[i][level[i]] = at[i];
          if (--level[i] < 0) {
            --searching;
            continue;
          }
        }
        const char* upcoming = LinkOf(at[i], level[i])->load(std::memory_order_relaxed);
        if (upcoming != nullptr) {
          __builtin_prefetch(upcoming);
          __builtin_prefetch(LinkOf(upcoming, 0));
        }
      }
    }
    for (size_t i = 0; i < count; ++i) LinkAfter(nodes[i], keys[i], before[i], top);
  }

  // Makes node the newest version of its user key in the index, or places it among the older
  // versions when a newer one is there. False when a node of the same internal key is there
  // (nothing changes). Readers see each change through one release store; a node replaced at the
  // head of its bucket keeps its chain link, so a reader standing on it still walks the bucket.
  bool Index(const char* node, const InternalKey& key) {
    const uint64_t hash = HashOf(key);
    std::memcpy(const_cast<char*>(node) - 3 * sizeof(uint64_t), &hash, sizeof hash);
    Link* bucket = &buckets_[hash % bucket_count_];
    // Touch the bucket with a write first (a compare-exchange that changes nothing): read first, a
    // fresh page of the index would be mapped to the shared zero page and then fault again for the
    // write below (copy on write, with a TLB shootdown interrupting the other cores).
    const char* expected = nullptr;
    bucket->compare_exchange_strong(expected, nullptr, std::memory_order_relaxed);
    for (Link* at = bucket;;) {
      const char* x = at->load(std::memory_order_relaxed);
      if (x == nullptr) break;
      if (HashOf(x) == hash && SameUserKey(KeyOfEntry(x), key)) {
        int order = Compare(KeyOfEntry(x), key);
        if (order == 0) return false;
        if (order > 0) {  // node is the newest version
          OlderOf(node)->store(x, std::memory_order_relaxed);
          ChainOf(node)->store(ChainOf(x)->load(std::memory_order_relaxed), std::memory_order_relaxed);
          at->store(node, std::memory_order_release);
          return true;
        }
        for (;;) {  // x is newer: node goes after the last version newer than it
          const char* older = OlderOf(x)->load(std::memory_order_relaxed);
          if (older == nullptr || (order = Compare(KeyOfEntry(older), key)) > 0) break;
          if (order == 0) return false;
          x = older;
        }
        OlderOf(node)->store(OlderOf(x)->load(std::memory_order_relaxed), std::memory_order_relaxed);
        OlderOf(x)->store(node, std::memory_order_release);
        return true;
      }
      at = ChainOf(x);
    }
    ChainOf(node)->store(bucket->load(std::memory_order_relaxed), std::memory_order_relaxed);
    bucket->store(node, std::memory_order_release);
    return true;
  }

  // The writer, after placing a node in [begin, end) (see kPrefaultWindow).
  void AskPrefault(uintptr_t begin, uintptr_t end) {
    const bool next_below = end <= last_begin_ && end + kPageBytes > last_begin_;
    last_begin_ = begin;
    if (next_below && begin >= prefault_low_ + kPrefaultLead && end <= prefault_low_ + kPrefaultWindow) return;
    const uintptr_t top = (end + kPageBytes - 1) & ~(kPageBytes - 1);
    prefault_low_ = top - kPrefaultWindow;
    prefault_top_.store(top, std::memory_order_relaxed);  // the linker takes the latest
    // Hand the list over now rather than at the next full group (up to 32 nodes, 32 pages of 4 KB
    // items, later), as InsertKey does; the linker then links what is queued, if a group.
    if (!scheduled_.load(std::memory_order_seq_cst) && !scheduled_.exchange(true, std::memory_order_seq_cst)) {
      linker_->Schedule(this);
    }
  }

  // On the linker's thread: faults in the window below `top`, a chunk at a time from the top; a
  // chunk refused (it reaches past the memory's edge) is done page by page down to that edge.
  static void Prefault(uintptr_t top) {
    for (uintptr_t at = top - kPrefaultChunk; at >= top - kPrefaultWindow; at -= kPrefaultChunk) {
      if (madvise(reinterpret_cast<void*>(at), kPrefaultChunk, MADV_POPULATE_WRITE) == 0) continue;
      for (uintptr_t page = at + kPrefaultChunk - kPageBytes; page >= at; page -= kPageBytes) {
        if (madvise(reinterpret_cast<void*>(page), kPageBytes, MADV_POPULATE_WRITE) != 0) return;
      }
      return;
    }
  }

  // Height h with probability (1 - 1/kBranching) * (1/kBranching)^(h-1). Only the writer draws.
  int RandomHeight() {
    rng_ ^= rng_ << 13;
    rng_ ^= rng_ >> 7;
    rng_ ^= rng_ << 17;
    uint64_t bits = rng_;
    int height = 1;
    while (height < kMaxHeight && (bits & 3) == 0) {
      ++height;
      bits >>= 2;
    }
    return height;
  }

  alignas(Link) char head_links_[sizeof(Link) * kMaxHeight + kFront];
  const char* const head_ = head_links_ + sizeof head_links_;
  std::atomic<int> max_height_{1};
  uint64_t rng_ = 0x9E3779B97F4A7C15ULL;
  Link* buckets_ = nullptr;  // the hash index; nullptr without one
  size_t bucket_count_ = 0;
  // Nodes indexed but not yet in the list (only with the index): queue_[n % kQueue] for
  // drained_ <= n < queued_. Only the writer appends; whoever holds link_mutex_ links. kQueue
  // bounds what an iterator or the memtable's sealing may have to link first (~1 us a node).
  static constexpr uint64_t kGroup = 32;
  static constexpr uint64_t kQueue = 256;
  const char* queue_[kQueue] = {};
  std::atomic<uint64_t> queued_{0};
  std::atomic<uint64_t> drained_{0};
  mutable std::mutex link_mutex_;
  std::shared_ptr<SkipListLinker> linker_;  // nullptr: the writer links
  std::atomic<bool> scheduled_{false};      // handed to the linker, which has not finished with it
  std::atomic<size_t> allocated_{0};        // bytes of entries inserted (written by the writer only)
  bool spare_prepared_ = false;             // the linker was asked for a spare index (its thread only)
  bool prefaulting_;                        // the writer asks for windows (see kPrefaultWindow)
  uintptr_t prefault_low_ = 0;              // the window last asked for starts here (the writer's)
  uintptr_t last_begin_ = 0;                // where the writer's latest node begins
  std::atomic<uintptr_t> prefault_top_{0};  // the top of a window for the linker to fault in, or 0
  std::shared_ptr<std::atomic<int>> live_;  // the factory's count of memtables not yet freed
};

class SkipListIterator final : public rocksdb::MemTableRep::Iterator {
 public:
  explicit SkipListIterator(const SkipList* list) : list_(list) {}

  bool Valid() const override { return node_ != nullptr; }
  const char* key() const override { return node_; }
  // Nodes lie in the arena in insert order, so an ordered walk (a flush, a Scan) misses the cache
  // at nearly every node: fetching the node after this one while the caller works on this one
  // overlaps the misses with that work. (A prefetch of a stale address cannot fault.)
  void Next() override {
    node_ = LinkOf(node_, 0)->load(std::memory_order_acquire);
    if (node_ == nullptr) return;
    const char* after = LinkOf(node_, 0)->load(std::memory_order_relaxed);
    if (after != nullptr) {
      __builtin_prefetch(LinkOf(after, 0));
      __builtin_prefetch(after + 64);
    }
  }
  void Prev() override { node_ = list_->Before(KeyOfEntry(node_)); }

  void Seek(const rocksdb::Slice& internal_key, const char* memtable_key) override {
    node_ = list_->AtOrAfter(memtable_key != nullptr ? KeyOfEntry(memtable_key) : KeyOfSlice(internal_key));
  }

  // The last node whose key is <= the target.
  void SeekForPrev(const rocksdb::Slice& internal_key, const char* memtable_key) override {
    const InternalKey key = memtable_key != nullptr ? KeyOfEntry(memtable_key) : KeyOfSlice(internal_key);
    const char* at = list_->AtOrAfter(key);
    node_ = at != nullptr && Compare(KeyOfEntry(at), key) == 0 ? at : list_->Before(key);
  }

  void SeekToFirst() override { node_ = list_->First(); }
  void SeekToLast() override { node_ = list_->Last(); }

 private:
  const SkipList* list_;
  const char* node_ = nullptr;
};

rocksdb::MemTableRep::Iterator* SkipList::GetIterator(rocksdb::Arena* arena) {
  LinkAll();  // an iterator reads the list: what was inserted before it must be there
  if (arena == nullptr) return new SkipListIterator(this);
  // RocksDB destroys an arena iterator by calling its destructor only; the arena frees the bytes.
  AllocatorBytes bytes(reinterpret_cast<rocksdb::Allocator*>(arena));
  char* memory = AlignUp(bytes.Take(sizeof(SkipListIterator) + alignof(SkipListIterator) - 1),
                         alignof(SkipListIterator));
  return new (memory) SkipListIterator(this);
}

}  // namespace

SkipListLinker::~SkipListLinker() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  work_.notify_all();
  if (thread_.joinable()) thread_.join();
  if (spare_ != nullptr) munmap(spare_, spare_bytes_);
}

void SkipListLinker::PrepareSpare(size_t bytes) {
  if (HasSpare()) return;
  void* memory = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
  if (memory == MAP_FAILED) return;
  std::lock_guard lock(mutex_);
  spare_ = memory;  // only this thread sets it, and it was not set
  spare_bytes_ = bytes;
}

void* SkipListLinker::TakeSpare(size_t bytes) {
  std::lock_guard lock(mutex_);
  if (spare_ == nullptr || spare_bytes_ != bytes) return nullptr;
  return std::exchange(spare_, nullptr);
}

bool SkipListLinker::HasSpare() {
  std::lock_guard lock(mutex_);
  return spare_ != nullptr;
}

void SkipListLinker::Schedule(SkipList* list) {
  {
    std::lock_guard lock(mutex_);
    pending_.push_back(list);
    if (!thread_.joinable()) thread_ = std::thread([this] { Run(); });
  }
  work_.notify_one();
}

void SkipListLinker::Forget(const SkipList* list) {
  std::unique_lock lock(mutex_);
  std::erase(pending_, list);
  idle_.wait(lock, [&] { return busy_ != list; });
}

void SkipListLinker::Run() {
  pthread_setname_np(pthread_self(), "memtable:link");
  std::unique_lock lock(mutex_);
  for (;;) {
    work_.wait(lock, [&] { return stop_ || !pending_.empty(); });
    if (stop_) return;
    SkipList* list = pending_.back();
    pending_.pop_back();
    busy_ = list;
    lock.unlock();
    list->LinkInBackground();
    lock.lock();
    busy_ = nullptr;
    idle_.notify_all();
  }
}

BytewiseSkipListFactory::BytewiseSkipListFactory(size_t hash_buckets, bool background_linking)
    : hash_buckets_(hash_buckets), linker_(background_linking ? std::make_shared<SkipListLinker>() : nullptr) {}

rocksdb::MemTableRep* BytewiseSkipListFactory::CreateMemTableRep(
    const rocksdb::MemTableRep::KeyComparator& /*compare: see the header*/, rocksdb::Allocator* allocator,
    const rocksdb::SliceTransform* /*prefix_extractor*/, rocksdb::Logger* /*logger*/) {
  return new SkipList(allocator, hash_buckets_, live_memtables_, linker_);
}

bool BytewiseSkipListFactory::SpareIndexReady() const { return linker_ != nullptr && linker_->HasSpare(); }

}  // namespace monotable::engine
