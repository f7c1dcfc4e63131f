// A memtable representation for RocksDB: a skip list of memtable entries ordered for the bytewise
// comparator, with the comparison inlined, and a hash index from each user key to its newest entry
// (and from each entry to its user key's next older one) that answers point reads (Get) without
// searching the list. With the index, inserts are linked into the list 32 at a time, their
// searches overlapped (each a chain of ~30 cache misses in a full memtable), or sooner when
// something reads the list's order; by default on a linker thread of the factory's own, so that the
// thread writing (RocksDB's write-group leader, a thread serving requests) only indexes and queues.
//
// Why: Debian's librocksdb is built without NDEBUG, so its InlineSkipList checks its invariants
// with extra key comparisons on every search and insert, and each comparison goes through two
// virtual calls and a thread-local perf counter. Point reads and writes spent 10,000-16,000
// instructions in the memtable; this representation does the same work in a fraction of that.
//
// Why the linker (bench/RESULTS.md, session 18): linking was 21 % of the I/O thread's samples in
// writes to a table with three GSIs (five memtable entries a write) and 5.5 % in 4 KB PutItems;
// on its own thread it takes 11-15 us of CPU a 3-GSI write off the I/O thread. Four alternating
// pairs of fresh servers: 3-GSI writes 18.7k -> 25.0k req/s (first 5 s runs) and 16.8k -> 20.4k
// (second), 4 KB PutItems 24.2k -> 26.2k and 19.8k -> 22.0k.
//
// Contract:
// - Only for column families whose comparator is rocksdb::BytewiseComparator() (user keys ordered
//   by memcmp, shorter prefix first) without user-defined timestamps: entries are compared by
//   decoding RocksDB's frozen memtable entry format (varint32 internal-key length, user key,
//   8-byte little-endian sequence/type trailer ordered descending, then the value) instead of
//   calling the KeyComparator RocksDB passes in.
// - One writer at a time (IsInsertConcurrentlySupported() is false, so the DB must be opened with
//   allow_concurrent_memtable_write = false); any number of concurrent readers. Point reads take
//   no lock; creating an iterator (and Contains, size estimates, MarkReadOnly) first links what
//   the writer queued, under a mutex, when anything is queued: at most 256 nodes (~1 us each).
// - With background_linking (the default), the factory starts one thread on the first insert that
//   fills a group and joins it when the factory and every memtable it made are gone; a memtable's
//   destruction waits until the linker is done with it. When 256 nodes wait (the linker is behind,
//   say on a machine whose cores are all busy), the writer links them itself.
// - Entries and iterators live in RocksDB's arenas, as with RocksDB's own skip list; the hash
//   buckets (8 bytes each, hash_buckets of them, 0 for none) in memory of their own that takes RAM
//   as buckets are first used. With background linking, once a memtable's entries take 32 bytes a
//   bucket, the linker maps the next memtable's buckets with their pages faulted in (a spare,
//   which the factory keeps until a memtable takes it: RAM that RocksDB does not count). Once a
//   memtable's entries take 1 MB, the linker also faults in the arena pages ahead of the writer's
//   nodes (up to 512 KB at a time, possibly past the arena block's end: RAM RocksDB does not count),
//   and in every memtable the factory makes after that one from its first node.
// - live_memtables() counts the memtables made by the factory that RocksDB has not yet freed: the
//   active one, and those sealed and waiting for (or in) a flush.
#pragma once

#include <rocksdb/memtablerep.h>

#include <atomic>
#include <memory>

namespace monotable::engine {

class SkipListLinker;  // memtable_skiplist.cc

class BytewiseSkipListFactory : public rocksdb::MemTableRepFactory {
 public:
  // 2^18 buckets: about one entry a bucket when a 64 MB memtable fills with ~250-byte items.
  explicit BytewiseSkipListFactory(size_t hash_buckets = size_t{1} << 18, bool background_linking = true);

  std::shared_ptr<const std::atomic<int>> live_memtables() const { return live_memtables_; }

  // Whether a spare hash index waits for the next memtable (for the tests).
  bool SpareIndexReady() const;

  static const char* kClassName() { return "MonotableBytewiseSkipList"; }
  const char* Name() const override { return kClassName(); }

  rocksdb::MemTableRep* CreateMemTableRep(const rocksdb::MemTableRep::KeyComparator& compare,
                                          rocksdb::Allocator* allocator,
                                          const rocksdb::SliceTransform* prefix_extractor,
                                          rocksdb::Logger* logger) override;

 private:
  size_t hash_buckets_;
  std::shared_ptr<SkipListLinker> linker_;  // nullptr without background linking
  std::shared_ptr<std::atomic<int>> live_memtables_ = std::make_shared<std::atomic<int>>(0);
};

}  // namespace monotable::engine
