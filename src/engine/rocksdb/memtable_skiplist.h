// A memtable representation for RocksDB: a skip list of memtable entries ordered for the bytewise
// comparator, with the comparison inlined, and a hash index from each user key to its newest entry
// (and from each entry to its user key's next older one) that answers point reads (Get) without
// searching the list. With the index, inserts are linked into the list 32 at a time, their
// searches overlapped (each a chain of ~30 cache misses in a full memtable), or sooner when
// something reads the list's order.
//
// Why: Debian's librocksdb is built without NDEBUG, so its InlineSkipList checks its invariants
// with extra key comparisons on every search and insert, and each comparison goes through two
// virtual calls and a thread-local perf counter. Point reads and writes spent 10,000-16,000
// instructions in the memtable; this representation does the same work in a fraction of that.
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
//   the writer queued, under a mutex, when anything is queued.
// - Entries and iterators live in RocksDB's arenas, as with RocksDB's own skip list; the hash
//   buckets (8 bytes each, hash_buckets of them, 0 for none) in memory of their own that takes RAM
//   as buckets are first used.
// - live_memtables() counts the memtables made by the factory that RocksDB has not yet freed: the
//   active one, and those sealed and waiting for (or in) a flush.
#pragma once

#include <rocksdb/memtablerep.h>

#include <atomic>
#include <memory>

namespace monotable::engine {

class BytewiseSkipListFactory : public rocksdb::MemTableRepFactory {
 public:
  // 2^18 buckets: about one entry a bucket when a 64 MB memtable fills with ~250-byte items.
  explicit BytewiseSkipListFactory(size_t hash_buckets = size_t{1} << 18) : hash_buckets_(hash_buckets) {}

  std::shared_ptr<const std::atomic<int>> live_memtables() const { return live_memtables_; }

  static const char* kClassName() { return "MonotableBytewiseSkipList"; }
  const char* Name() const override { return kClassName(); }

  rocksdb::MemTableRep* CreateMemTableRep(const rocksdb::MemTableRep::KeyComparator& compare,
                                          rocksdb::Allocator* allocator,
                                          const rocksdb::SliceTransform* prefix_extractor,
                                          rocksdb::Logger* logger) override;

 private:
  size_t hash_buckets_;
  std::shared_ptr<std::atomic<int>> live_memtables_ = std::make_shared<std::atomic<int>>(0);
};

}  // namespace monotable::engine
