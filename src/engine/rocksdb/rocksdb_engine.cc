#include "engine/rocksdb/rocksdb_engine.h"

#include <rocksdb/cache.h>
#include <rocksdb/convenience.h>
#include <rocksdb/db.h>
#include <rocksdb/env.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/listener.h>
#include <rocksdb/options.h>
#include <rocksdb/slice.h>
#include <rocksdb/slice_transform.h>
#include <rocksdb/table.h>
#include <rocksdb/write_batch.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <cstdarg>
#include <cstdio>
#include <filesystem>
#include <system_error>
#include <utility>

#include "engine/guarded_commit.h"
#include "engine/write_rounds.h"

namespace monotable::engine {
namespace {

using DbPtr = std::shared_ptr<rocksdb::DB>;

Status FromRocks(const rocksdb::Status& s) {
  if (s.ok()) return Status::Ok();
  if (s.IsCorruption()) return Status(ErrorCode::kCorruption, "rocksdb: " + s.ToString());
  return Status::Io("rocksdb: " + s.ToString());
}

rocksdb::Slice ToSlice(std::string_view s) { return rocksdb::Slice(s.data(), s.size()); }

rocksdb::CompressionType PickCompression() {
  std::vector<rocksdb::CompressionType> supported = rocksdb::GetSupportedCompressions();
  auto has = [&](rocksdb::CompressionType t) {
    return std::find(supported.begin(), supported.end(), t) != supported.end();
  };
  if (has(rocksdb::kLZ4Compression)) return rocksdb::kLZ4Compression;
  if (has(rocksdb::kSnappyCompression)) return rocksdb::kSnappyCompression;
  return rocksdb::kNoCompression;
}

// RocksDB's warnings and errors go to the server's stderr, one line each, instead of a LOG file in
// the data directory (nobody reads it there, and creating and rotating it slows every start).
class StderrLogger : public rocksdb::Logger {
 public:
  StderrLogger() : Logger(rocksdb::WARN_LEVEL) {}
  using Logger::Logv;
  void Logv(const rocksdb::InfoLogLevel level, const char* format, va_list ap) override {
    if (level < GetInfoLogLevel()) return;
    char line[1024];
    std::vsnprintf(line, sizeof line, format, ap);
    std::fprintf(stderr, "monotable: rocksdb: %s\n", line);
  }
};

rocksdb::Options MakeOptions(const EngineOptions& options) {
  rocksdb::Options o;
  o.max_background_jobs = std::max(1, options.background_jobs);
  o.write_buffer_size = std::max<size_t>(options.write_buffer_bytes, 1 << 20);
  if (!options.wal_dir.empty()) o.wal_dir = options.wal_dir;
  o.max_open_files = 512;
  o.max_file_opening_threads = 1;  // opening table files at start: 16 threads cost more than they save here
  o.compaction_style = rocksdb::kCompactionStyleLevel;
  o.level_compaction_dynamic_level_bytes = true;
  // Every level compressed (LZ4 where built in); level 0 compacts at RocksDB's default trigger.
  o.compression = PickCompression();
  // Compactions read their input files 256 KB at a time (RocksDB 7.8 reads block by block: one
  // pread a data block, and a block holds a single item of 4 KB or more). 4 KB PutItems: the
  // compaction thread's system calls 0.95 -> 0.0002 a write, its CPU 9.4-14.3 -> 5.0-7.2 us a
  // write (later RocksDB releases default to 2 MB; 256 KB measured the same and holds less memory).
  o.compaction_readahead_size = 256 << 10;
  o.info_log = std::make_shared<StderrLogger>();
  // Start fast and small: no informational log chatter or periodic stats, and memtable arena
  // blocks of 1 MB instead of write_buffer_size / 8 (the first block is touched at open).
  o.info_log_level = rocksdb::WARN_LEVEL;  // also the logger's own threshold
  o.stats_dump_period_sec = 0;
  o.stats_persist_period_sec = 0;
  o.arena_block_size = 1 << 20;
  o.skip_stats_update_on_db_open = true;
  o.avoid_unnecessary_blocking_io = true;  // obsolete files are deleted in the background
  // Point reads (GetItem, guards, old images) dominate: data blocks carry a hash index, and the
  // block cache keeps the blocks read. (No row cache: RocksDB 7.8's row cache does not see range
  // deletions, so a Get could return a key DeleteRange removed.) Every write first reads the key's current image (guards, old
  // images): a whole-key bloom filter in the memtable spares the skiplist search for keys the
  // memtable does not hold (0.4 % of the memtable's size, zeroed at open).
  o.memtable_whole_key_filtering = true;
  o.memtable_prefix_bloom_size_ratio = 0.004;
  // Concurrent writers wait for the write-group leader by blocking, not by spinning and
  // yielding: on a machine with few cores the spinning steals the CPU the leader needs.
  o.enable_write_thread_adaptive_yield = false;
  o.enable_pipelined_write = true;  // WAL append and memtable insert of successive write groups overlap
  // Log records wait in RocksDB's buffer until FlushWAL: a commit writes its own out, unless it
  // was made in a log round (engine.h), which writes out all of its commits' at once.
  // Synced commits are written and synced one by one.
  o.manual_wal_flush = !options.sync;
  // Memtables: RocksDB's default skip list.
  rocksdb::BlockBasedTableOptions t;
  if (options.block_cache_bytes == 0) {
    t.no_block_cache = true;
  } else {
    t.block_cache = rocksdb::NewLRUCache(options.block_cache_bytes);
  }
  t.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
  t.data_block_index_type = rocksdb::BlockBasedTableOptions::kDataBlockBinaryAndHash;
  o.table_factory.reset(rocksdb::NewBlockBasedTableFactory(t));
  // Filters (SST and memtable) also hold the group prefix, so a range read within one group
  // (iterators use auto_prefix_mode) skips files without it; whole-key filtering stays for Get.
  if (options.group_prefix_bytes > 0) o.prefix_extractor.reset(rocksdb::NewFixedPrefixTransform(options.group_prefix_bytes));
  return o;
}

// Follows RocksDB's write-stall condition (EventListener::OnStallConditionsChanged) for
// Engine::WritesStalled().
class StallListener : public rocksdb::EventListener {
 public:
  void OnStallConditionsChanged(const rocksdb::WriteStallInfo& info) override {
    stalled_.store(info.condition.cur != rocksdb::WriteStallCondition::kNormal, std::memory_order_relaxed);
  }
  bool stalled() const { return stalled_.load(std::memory_order_relaxed); }

 private:
  std::atomic<bool> stalled_{false};
};

class RocksSnapshot : public Snapshot {
 public:
  explicit RocksSnapshot(DbPtr db) : db_(std::move(db)), snapshot_(db_->GetSnapshot()) {}
  ~RocksSnapshot() override { db_->ReleaseSnapshot(snapshot_); }
  RocksSnapshot(const RocksSnapshot&) = delete;
  RocksSnapshot& operator=(const RocksSnapshot&) = delete;

  const rocksdb::Snapshot* get() const { return snapshot_; }
  const rocksdb::DB* db() const { return db_.get(); }

 private:
  DbPtr db_;
  const rocksdb::Snapshot* snapshot_;
};

class RocksIterator : public Iterator {
 public:
  // `within_group`: both bounds have the same group prefix (so every key in the range has it).
  RocksIterator(DbPtr db, std::shared_ptr<const RocksSnapshot> snapshot, std::string lower, std::string upper,
                bool within_group)
      : db_(std::move(db)),
        snapshot_(std::move(snapshot)),
        lower_(std::move(lower)),
        upper_(std::move(upper)),
        lower_slice_(lower_),
        upper_slice_(upper_) {
    rocksdb::ReadOptions ro;
    if (within_group) {
      // Prefix mode: every position the iterator takes (a seek within the bounds, or to the bounds
      // themselves for SeekToFirst and SeekToLast) has the group prefix, so stopping at the end of
      // the prefix loses nothing, and the memtables' prefix bloom filters skip memtables without
      // the group (RocksDB 7.8 consults them in prefix mode only, not in auto_prefix_mode).
      ro.prefix_same_as_start = true;
    } else {
      ro.auto_prefix_mode = true;  // prefix filters only where the bounds keep to one prefix: same results
    }
    if (!lower_.empty()) ro.iterate_lower_bound = &lower_slice_;
    if (!upper_.empty()) ro.iterate_upper_bound = &upper_slice_;
    if (snapshot_) ro.snapshot = snapshot_->get();
    it_.reset(db_->NewIterator(ro));
  }
  RocksIterator(const RocksIterator&) = delete;
  RocksIterator& operator=(const RocksIterator&) = delete;

  void SeekToFirst() override { it_->SeekToFirst(); }
  void SeekToLast() override { it_->SeekToLast(); }
  void Seek(std::string_view key) override {
    it_->Seek(key < std::string_view(lower_) ? lower_slice_ : ToSlice(key));
  }
  void SeekForPrev(std::string_view key) override {
    if (!upper_.empty() && key >= std::string_view(upper_)) {
      it_->SeekToLast();
    } else {
      it_->SeekForPrev(ToSlice(key));
    }
  }
  bool Valid() const override { return it_->Valid(); }
  void Next() override {
    if (it_->Valid()) it_->Next();
  }
  void Prev() override {
    if (it_->Valid()) it_->Prev();
  }
  std::string_view key() const override {
    rocksdb::Slice k = it_->key();
    return {k.data(), k.size()};
  }
  std::string_view value() const override {
    rocksdb::Slice v = it_->value();
    return {v.data(), v.size()};
  }
  Status status() const override { return FromRocks(it_->status()); }

 private:
  // Declaration order matters: it_ is destroyed first, then the bounds it points to, then the
  // snapshot, then (possibly the last reference to) the DB.
  DbPtr db_;
  std::shared_ptr<const RocksSnapshot> snapshot_;
  std::string lower_, upper_;
  rocksdb::Slice lower_slice_, upper_slice_;
  std::unique_ptr<rocksdb::Iterator> it_;
};

class RocksDbEngine : public Engine, public DeferredLog {
 public:
  RocksDbEngine(DbPtr db, const EngineOptions& options, std::shared_ptr<StallListener> stalls)
      : db_(std::move(db)),
        stalls_(std::move(stalls)),
        group_prefix_bytes_(options.group_prefix_bytes),
        committer_([this](std::string_view key) { return GetForWrite(key); },
                   [this](const std::vector<Mutation>& mutations) { return Apply(mutations); }) {
    write_options_.sync = options.sync;
  }

  ~RocksDbEngine() override {
    {
      std::lock_guard lock(reclaim_mutex_);
      reclaim_stop_ = true;
    }
    reclaim_wake_.notify_all();
    if (reclaimer_.joinable()) {
      db_->DisableManualCompaction();  // a compaction still running returns at once
      reclaimer_.join();
    }
  }

  std::shared_ptr<const Snapshot> GetSnapshot() override {
    return std::make_shared<RocksSnapshot>(db_);
  }

  Result<std::optional<std::string>> Get(std::string_view key,
                                         const Snapshot* snapshot) override {
    rocksdb::ReadOptions ro;
    if (snapshot == nullptr) return Read(key, ro);
    auto* snap = dynamic_cast<const RocksSnapshot*>(snapshot);
    if (snap == nullptr || snap->db() != db_.get()) {
      return Status::Internal("snapshot belongs to another engine");
    }
    ro.snapshot = snap->get();
    return Read(key, ro);
  }

  // The value read is about to be replaced: keeping it, or the table block it came from, in a
  // cache would only evict what later reads need (a 4 KB PutItem over existing items: -10 %
  // server CPU a write without the block cache's inserts and evictions).
  Result<std::optional<std::string>> GetForWrite(std::string_view key) override {
    rocksdb::ReadOptions ro;
    ro.fill_cache = false;
    return Read(key, ro);
  }

  std::unique_ptr<Iterator> NewIterator(std::string lower, std::string upper,
                                        std::shared_ptr<const Snapshot> snapshot) override {
    auto snap = std::dynamic_pointer_cast<const RocksSnapshot>(snapshot);
    if (snap != nullptr && snap->db() != db_.get()) snap = nullptr;
    // Both bounds in one group: every key in the range has the group prefix.
    const bool within_group = group_prefix_bytes_ > 0 && lower.size() >= group_prefix_bytes_ &&
                              upper.size() >= group_prefix_bytes_ &&
                              lower.compare(0, group_prefix_bytes_, upper, 0, group_prefix_bytes_) == 0;
    return std::make_unique<RocksIterator>(db_, std::move(snap), std::move(lower), std::move(upper), within_group);
  }

  Status Commit(const WriteBatch& batch) override { return committer_.Commit(batch); }
  uint64_t ReadToken(std::string_view key) override { return committer_.Token(key); }

  Status DeleteRange(std::string_view lower, std::string_view upper) override {
    std::string end;
    MT_RETURN_IF_ERROR(EffectiveUpper(lower, upper, &end));
    if (end.empty() || std::string_view(end) <= lower) return Status::Ok();
    Status s = FromRocks(db_->DeleteRange(write_options_, db_->DefaultColumnFamily(), ToSlice(lower), end));
    MT_RETURN_IF_ERROR(s);
    MT_RETURN_IF_ERROR(LogWritten());
    Reclaim(std::string(lower), std::move(end));
    return Status::Ok();
  }

  bool WritesStalled() const override { return stalls_->stalled(); }

  void WaitForReclaim() override {
    std::unique_lock lock(reclaim_mutex_);
    reclaim_idle_.wait(lock, [&] { return reclaim_stop_ || (reclaim_queue_.empty() && !reclaim_busy_); });
  }

  uint64_t ApproximateSize(std::string_view lower, std::string_view upper) override {
    std::string end;
    if (!EffectiveUpper(lower, upper, &end).ok()) return 0;
    if (end.empty() || std::string_view(end) <= lower) return 0;
    rocksdb::Range range(ToSlice(lower), end);
    rocksdb::SizeApproximationOptions opts;
    opts.include_memtables = true;
    opts.include_files = true;
    uint64_t size = 0;
    if (!db_->GetApproximateSizes(opts, db_->DefaultColumnFamily(), &range, 1, &size).ok()) {
      return 0;
    }
    return size;
  }

  std::string Name() const override { return "rocksdb"; }

 private:
  Status Apply(const std::vector<Mutation>& mutations) {
    // The batch's buffer sized once (grown as it fills, a 4 KB item took three allocations and
    // copies): RocksDB's 12-byte header (sequence, count), then per record a tag byte and two
    // varint32 lengths of at most 5 bytes each before the key and value bytes.
    constexpr size_t kBatchHeaderBytes = 12;
    constexpr size_t kRecordOverheadBytes = 1 + 5 + 5;
    size_t bytes = kBatchHeaderBytes;
    for (const Mutation& m : mutations) {
      bytes += kRecordOverheadBytes + m.key.size() + (m.value ? m.value->size() : 0);
    }
    rocksdb::WriteBatch wb(bytes);
    for (const Mutation& m : mutations) {
      rocksdb::Status s = m.value ? wb.Put(m.key, *m.value) : wb.Delete(m.key);
      if (!s.ok()) return FromRocks(s);
    }
    Status s = FromRocks(db_->Write(write_options_, &wb));
    return s.ok() ? LogWritten() : s;
  }

  Result<std::optional<std::string>> Read(std::string_view key, const rocksdb::ReadOptions& ro) {
    std::string value;
    rocksdb::Status s = db_->Get(ro, db_->DefaultColumnFamily(), ToSlice(key), &value);
    if (s.IsNotFound()) return std::optional<std::string>();
    if (!s.ok()) return FromRocks(s);
    return std::optional<std::string>(std::move(value));
  }

  // The keys DeleteRange removed are hidden by a range tombstone, but their table files stay until
  // a compaction rewrites them: a background thread compacts each deleted range (down to the last
  // level, where the tombstone and what it covers are dropped), one at a time.
  void Reclaim(std::string lower, std::string upper) {
    {
      std::lock_guard lock(reclaim_mutex_);
      if (reclaim_stop_) return;
      reclaim_queue_.emplace_back(std::move(lower), std::move(upper));
      if (!reclaimer_.joinable()) reclaimer_ = std::thread([this] { RunReclaims(); });
    }
    reclaim_wake_.notify_one();
  }

  void RunReclaims() {
    std::unique_lock lock(reclaim_mutex_);
    while (true) {
      reclaim_wake_.wait(lock, [&] { return reclaim_stop_ || !reclaim_queue_.empty(); });
      if (reclaim_stop_) break;
      auto [lower, upper] = std::move(reclaim_queue_.front());
      reclaim_queue_.pop_front();
      reclaim_busy_ = true;
      lock.unlock();
      rocksdb::CompactRangeOptions co;
      co.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForceOptimized;
      rocksdb::Slice begin(lower), end(upper);
      rocksdb::Status s = db_->CompactRange(co, &begin, &end);
      if (!s.ok() && !s.IsIncomplete()) {  // Incomplete: stopped by the shutdown
        std::fprintf(stderr, "monotable: rocksdb: reclaiming a dropped range failed: %s\n", s.ToString().c_str());
      }
      lock.lock();
      reclaim_busy_ = false;
      reclaim_idle_.notify_all();
    }
    reclaim_idle_.notify_all();
  }

  Status WriteOutLog() override { return FromRocks(db_->FlushWAL(/*sync=*/false)); }

  // After a commit: its log record is out of RocksDB's buffer (or a round will take it out).
  Status LogWritten() {
    if (write_options_.sync || DeferToRound(*this)) return Status::Ok();
    return WriteOutLog();
  }

  // RocksDB needs a concrete end key: for an empty `upper` ("no bound") use the successor of the
  // current last key, or "" when [lower, ...) holds nothing.
  Status EffectiveUpper(std::string_view lower, std::string_view upper, std::string* end) {
    if (!upper.empty()) {
      end->assign(upper);
      return Status::Ok();
    }
    RocksIterator it(db_, nullptr, std::string(lower), "", /*within_group=*/false);
    it.SeekToLast();
    MT_RETURN_IF_ERROR(it.status());
    end->clear();
    if (it.Valid()) {
      end->assign(it.key());
      end->push_back('\0');
    }
    return Status::Ok();
  }

  DbPtr db_;
  std::shared_ptr<StallListener> stalls_;
  size_t group_prefix_bytes_;
  rocksdb::WriteOptions write_options_;
  GuardedCommitter committer_;
  // Reclaim(): ranges deleted and not yet compacted, and the thread (started by the first) that
  // compacts them; stopped and joined by the destructor, before db_ can go.
  std::mutex reclaim_mutex_;
  std::condition_variable reclaim_wake_, reclaim_idle_;
  std::deque<std::pair<std::string, std::string>> reclaim_queue_;
  bool reclaim_busy_ = false;
  bool reclaim_stop_ = false;
  std::thread reclaimer_;
};

// What DB::Open may do with `path`: open the database there, or create one when the directory is
// new or empty. A directory that holds files but no CURRENT file is refused: RocksDB would create
// a database over it and delete the table and log files it does not know (lost data, if the
// directory was a damaged database or someone else's).
Status CheckOpenable(const EngineOptions& options, bool* create) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path dir(options.path);
  if (fs::exists(dir / "CURRENT", ec)) {
    *create = false;
    return Status::Ok();
  }
  if (ec) return Status::Io("rocksdb: cannot read " + options.path + ": " + ec.message());
  *create = true;
  // The first file in `d`, if any (a leftover empty LOCK alone, from a creation stopped at once, is
  // harmless and does not count).
  auto first_file = [](const fs::path& d) -> std::string {
    std::error_code e;
    if (!fs::exists(d, e)) return "";
    for (const auto& entry : fs::directory_iterator(d, e)) {
      if (entry.path().filename() == "LOCK" && fs::is_regular_file(entry, e) && fs::file_size(entry, e) == 0) continue;
      return entry.path().filename().string();
    }
    return "";
  };
  std::string found = first_file(dir);
  std::string where = options.path;
  if (found.empty() && !options.wal_dir.empty() && fs::path(options.wal_dir) != dir) {
    found = first_file(options.wal_dir);
    where = options.wal_dir + " (the WAL directory)";
  }
  if (!found.empty()) {
    return Status::Io("rocksdb: " + where + " holds files (" + found + ") but " + options.path +
                      " has no CURRENT file: it is not a database, or a damaged one (CURRENT names the "
                      "database's MANIFEST). Refusing to open it; nothing was changed. Use a new or empty "
                      "directory, or restore the database's CURRENT file");
  }
  return Status::Ok();
}

}  // namespace

Result<std::unique_ptr<Engine>> OpenRocksDbEngine(const EngineOptions& options) {
  if (options.path.empty()) return Status::Io("rocksdb: empty database path");
  std::error_code ec;
  std::filesystem::create_directories(options.path, ec);
  if (ec) return Status::Io("rocksdb: cannot create " + options.path + ": " + ec.message());
  if (!options.wal_dir.empty()) {
    std::filesystem::create_directories(options.wal_dir, ec);
    if (ec) return Status::Io("rocksdb: cannot create " + options.wal_dir + ": " + ec.message());
  }
  bool create = false;
  MT_RETURN_IF_ERROR(CheckOpenable(options, &create));
  rocksdb::Options o = MakeOptions(options);
  o.create_if_missing = create;  // never over an existing database that did not open
  auto stalls = std::make_shared<StallListener>();
  o.listeners.push_back(stalls);
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(o, options.path, &raw);
  if (!s.ok()) {
    Status st = FromRocks(s);
    return Status(st.code(), "rocksdb: cannot open the database in " + options.path + " (nothing was deleted or "
                                 "recreated): " + s.ToString());
  }
  DbPtr db(raw, [](rocksdb::DB* d) {
    // A clean shutdown leaves the memtables in table files and nothing unsynced: the next open
    // then has no log to replay.
    d->Flush(rocksdb::FlushOptions()).PermitUncheckedError();
    d->FlushWAL(/*sync=*/true).PermitUncheckedError();
    d->Close().PermitUncheckedError();  // nothing can still reference it; errors are logged
    delete d;
  });
  return std::unique_ptr<Engine>(std::make_unique<RocksDbEngine>(std::move(db), options, std::move(stalls)));
}

}  // namespace monotable::engine
