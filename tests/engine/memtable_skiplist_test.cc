// The bytewise skip list memtable against a std::map model, through RocksDB itself: point reads,
// both iteration directions, seeks, snapshots (several versions of one key), range size estimates,
// flushes, and readers running while a writer inserts and overwrites. Every test runs with the
// hash index as configured by default (nodes linked by the background linker), with the default
// index but the writer linking, with a single bucket (every user key collides) and without the index
// (point reads search the list; the writer links every node at once).
#include "engine/rocksdb/memtable_skiplist.h"

#include <gtest/gtest.h>
#include <rocksdb/db.h>
#include <rocksdb/options.h>

#include <malloc.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <iterator>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace monotable::engine {
namespace {

// The parameter: hash buckets (0: no hash index; kDefaultBuckets: the factory's default), and
// whether a background thread links the queued nodes.
constexpr size_t kDefaultBuckets = ~size_t{0};
struct Layout {
  size_t buckets;
  bool background_linking;
};

class MemtableSkipListTest : public ::testing::TestWithParam<Layout> {
 protected:
  void SetUp() override {
    std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::replace(name.begin(), name.end(), '/', '-');
    dir_ = std::filesystem::temp_directory_path() / ("mt-skiplist-" + std::to_string(::getpid()) + "-" + name);
    std::filesystem::remove_all(dir_);
    rocksdb::Options o;
    o.create_if_missing = true;
    o.write_buffer_size = 64 << 20;  // everything stays in the memtable unless a test flushes
    const Layout layout = GetParam();
    factory_ =
        layout.buckets == kDefaultBuckets && layout.background_linking
            ? std::make_shared<BytewiseSkipListFactory>()
            : std::make_shared<BytewiseSkipListFactory>(
                  layout.buckets == kDefaultBuckets ? size_t{1} << 18 : layout.buckets, layout.background_linking);
    o.memtable_factory = factory_;
    o.allow_concurrent_memtable_write = false;
    Customize(o);
    rocksdb::DB* raw = nullptr;
    ASSERT_TRUE(rocksdb::DB::Open(o, dir_.string(), &raw).ok());
    db_.reset(raw);
  }
  virtual void Customize(rocksdb::Options&) {}

  void TearDown() override {
    db_.reset();
    std::filesystem::remove_all(dir_);
  }

  std::optional<std::string> Get(const std::string& key, const rocksdb::Snapshot* snapshot = nullptr) {
    rocksdb::ReadOptions ro;
    ro.snapshot = snapshot;
    std::string value;
    rocksdb::Status s = db_->Get(ro, key, &value);
    EXPECT_TRUE(s.ok() || s.IsNotFound()) << s.ToString();
    if (s.IsNotFound()) return std::nullopt;
    return value;
  }

  // Everything the DB holds, read forward or backward with a fresh iterator.
  std::vector<std::pair<std::string, std::string>> Scan(bool backward, const rocksdb::Snapshot* snapshot = nullptr) {
    rocksdb::ReadOptions ro;
    ro.snapshot = snapshot;
    std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(ro));
    std::vector<std::pair<std::string, std::string>> out;
    if (backward) {
      for (it->SeekToLast(); it->Valid(); it->Prev()) out.emplace_back(it->key().ToString(), it->value().ToString());
    } else {
      for (it->SeekToFirst(); it->Valid(); it->Next()) out.emplace_back(it->key().ToString(), it->value().ToString());
    }
    EXPECT_TRUE(it->status().ok());
    return out;
  }

  // Puts key_of(0), key_of(1), ... key_of(count - 1) from a thread of its own, `published` counting
  // the puts done; stops at the first failure, setting `failed`.
  std::thread PublishingWriter(std::function<std::string(int)> key_of, int count, std::string value,
                               std::atomic<int>& published, std::atomic<bool>& failed) {
    return std::thread([this, key_of = std::move(key_of), count, value = std::move(value), &published, &failed] {
      for (int i = 0; i < count && !failed; ++i) {
        if (!db_->Put(rocksdb::WriteOptions(), key_of(i), value).ok()) failed = true;
        published.store(i + 1, std::memory_order_release);
      }
    });
  }

  std::filesystem::path dir_;
  std::shared_ptr<BytewiseSkipListFactory> factory_;
  std::unique_ptr<rocksdb::DB> db_;
};

std::string LayoutName(const ::testing::TestParamInfo<Layout>& info) {
  const Layout& layout = info.param;
  if (layout.buckets == 0) return "NoIndex";
  std::string name = layout.buckets == kDefaultBuckets ? "Default"
                     : layout.buckets == 1             ? "OneBucket"
                                                       : std::to_string(layout.buckets) + "Buckets";
  return layout.background_linking ? name : name + "WriterLinks";
}

INSTANTIATE_TEST_SUITE_P(Layouts, MemtableSkipListTest,
                         ::testing::Values(Layout{kDefaultBuckets, true}, Layout{kDefaultBuckets, false},
                                           Layout{size_t{1}, true}, Layout{size_t{0}, true}),
                         LayoutName);

// Keys that share prefixes and differ in length, so the length tie-break matters.
std::string RandomKey(std::mt19937& rng) {
  static const char* kStems[] = {"", "a", "ab", "abc", "b", "user#", "user#1", "user#10", "z"};
  std::string key = kStems[rng() % std::size(kStems)];
  const int extra = static_cast<int>(rng() % 4);
  for (int i = 0; i < extra; ++i) key.push_back(static_cast<char>('0' + rng() % 3));
  if (rng() % 16 == 0) key.push_back('\xff');  // bytes above 0x7f order after ASCII
  return key;
}

TEST_P(MemtableSkipListTest, MatchesAnOrderedMapUnderPutsDeletesAndSeeks) {
  std::mt19937 rng(7);
  std::map<std::string, std::string> model;
  std::map<std::string, std::string> model_then;  // at the snapshot
  const rocksdb::Snapshot* snapshot = nullptr;
  for (int i = 0; i < 5000; ++i) {
    if (i == 2500) {
      snapshot = db_->GetSnapshot();
      model_then = model;
    }
    const std::string key = RandomKey(rng);
    if (rng() % 4 == 0) {
      ASSERT_TRUE(db_->Delete(rocksdb::WriteOptions(), key).ok());
      model.erase(key);
    } else {
      const std::string value = "v" + std::to_string(i);
      ASSERT_TRUE(db_->Put(rocksdb::WriteOptions(), key, value).ok());
      model[key] = value;
    }
  }
  std::vector<std::pair<std::string, std::string>> expected(model.begin(), model.end());
  EXPECT_EQ(Scan(false), expected);
  std::vector<std::pair<std::string, std::string>> reversed(model.rbegin(), model.rend());
  EXPECT_EQ(Scan(true), reversed);

  for (int i = 0; i < 500; ++i) {
    const std::string key = RandomKey(rng);
    auto found = model.find(key);
    EXPECT_EQ(Get(key), found == model.end() ? std::nullopt : std::optional<std::string>(found->second)) << key;
    auto then = model_then.find(key);
    EXPECT_EQ(Get(key, snapshot), then == model_then.end() ? std::nullopt : std::optional<std::string>(then->second))
        << key;
  }
  db_->ReleaseSnapshot(snapshot);

  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions()));
  for (int i = 0; i < 500; ++i) {
    const std::string target = RandomKey(rng);
    it->Seek(target);
    auto at_or_after = model.lower_bound(target);
    ASSERT_EQ(it->Valid(), at_or_after != model.end()) << target;
    if (it->Valid()) {
      EXPECT_EQ(it->key().ToString(), at_or_after->first);
    }

    it->SeekForPrev(target);
    auto after = model.upper_bound(target);
    ASSERT_EQ(it->Valid(), after != model.begin()) << target;
    if (it->Valid()) {
      EXPECT_EQ(it->key().ToString(), std::prev(after)->first);
    }
  }
}

TEST_P(MemtableSkipListTest, SnapshotsSeeTheVersionOfTheirTime) {
  const rocksdb::WriteOptions w;
  ASSERT_TRUE(db_->Put(w, "k", "one").ok());
  ASSERT_TRUE(db_->Put(w, "k2", "x").ok());
  const rocksdb::Snapshot* first = db_->GetSnapshot();
  ASSERT_TRUE(db_->Put(w, "k", "two").ok());
  ASSERT_TRUE(db_->Delete(w, "k2").ok());
  const rocksdb::Snapshot* second = db_->GetSnapshot();
  ASSERT_TRUE(db_->Put(w, "k", "three").ok());

  EXPECT_EQ(Get("k", first), "one");
  EXPECT_EQ(Get("k2", first), "x");
  EXPECT_EQ(Get("k", second), "two");
  EXPECT_EQ(Get("k2", second), std::nullopt);
  EXPECT_EQ(Get("k"), "three");
  using Pairs = std::vector<std::pair<std::string, std::string>>;
  EXPECT_EQ(Scan(false, first), (Pairs{{"k", "one"}, {"k2", "x"}}));
  EXPECT_EQ(Scan(true, first), (Pairs{{"k2", "x"}, {"k", "one"}}));
  EXPECT_EQ(Scan(true, second), (Pairs{{"k", "two"}}));
  db_->ReleaseSnapshot(first);
  db_->ReleaseSnapshot(second);
}

TEST_P(MemtableSkipListTest, RangeSizeEstimatesCountTheMemtable) {
  const std::string value(100, 'v');
  for (int i = 0; i < 20000; ++i) {
    char key[16];
    std::snprintf(key, sizeof key, "key%06d", i);
    ASSERT_TRUE(db_->Put(rocksdb::WriteOptions(), key, value).ok());
  }
  auto size_of = [&](const std::string& from, const std::string& to) {
    rocksdb::Range range(from, to);
    rocksdb::SizeApproximationOptions opts;
    opts.include_memtables = true;
    opts.include_files = false;
    uint64_t size = 0;
    EXPECT_TRUE(db_->GetApproximateSizes(opts, db_->DefaultColumnFamily(), &range, 1, &size).ok());
    return size;
  };
  // The estimate walks the levels as RocksDB's InlineSkipList::EstimateCount does: coarse (a node
  // on level L stands for 4^L entries), so only its order of magnitude is checked.
  const uint64_t all = size_of("key000000", "key999999");
  const uint64_t quarter = size_of("key000000", "key005000");
  const uint64_t stored = 20000u * 110;  // keys and values, before per-entry overhead
  EXPECT_GT(all, stored / 3);
  EXPECT_LT(all, stored * 3);
  EXPECT_GT(quarter, 0u);
  EXPECT_LT(quarter, all);
  EXPECT_EQ(size_of("zzz", "zzzz"), 0u);
}

TEST_P(MemtableSkipListTest, FlushWritesWhatTheMemtableHeld) {
  std::map<std::string, std::string> model;
  for (int i = 0; i < 3000; ++i) {
    const std::string key = "f" + std::to_string(i * 7919 % 3001);
    model[key] = std::to_string(i);
    ASSERT_TRUE(db_->Put(rocksdb::WriteOptions(), key, std::to_string(i)).ok());
  }
  ASSERT_TRUE(db_->Flush(rocksdb::FlushOptions()).ok());
  ASSERT_TRUE(db_->Put(rocksdb::WriteOptions(), "f1", "after flush").ok());
  model["f1"] = "after flush";
  std::vector<std::pair<std::string, std::string>> expected(model.begin(), model.end());
  EXPECT_EQ(Scan(false), expected);
}

// One writer, two readers: every key the writer has published is found (also while newer versions
// replace it in the hash index), and iteration stays in order while nodes are linked in underneath.
TEST_P(MemtableSkipListTest, ReadersRunConcurrentlyWithTheWriter) {
  constexpr int kKeys = 20000;
  std::atomic<int> published{0};
  std::atomic<bool> failed{false};
  auto key_of = [](int i) { return "c" + std::to_string(static_cast<uint32_t>(i) * 2654435761u); };
  std::thread writer([&] {
    for (int i = 0; i < kKeys; ++i) {
      if (!db_->Put(rocksdb::WriteOptions(), key_of(i), "v").ok()) failed = true;
      published.store(i + 1, std::memory_order_release);
      if (i % 2 == 1 && !db_->Put(rocksdb::WriteOptions(), key_of(i / 2), "w").ok()) failed = true;
    }
  });
  auto reader = [&](unsigned seed) {
    std::mt19937 rng(seed);
    while (published.load(std::memory_order_acquire) < kKeys && !failed) {
      const int known = published.load(std::memory_order_acquire);
      if (known > 0) {
        std::string value;
        if (!db_->Get(rocksdb::ReadOptions(), key_of(static_cast<int>(rng() % known)), &value).ok()) failed = true;
      }
      std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions()));
      std::string previous;
      int seen = 0;
      for (it->SeekToFirst(); it->Valid() && seen < 200; it->Next(), ++seen) {
        if (seen > 0 && !(previous < it->key().ToString())) failed = true;
        previous = it->key().ToString();
      }
    }
  };
  std::thread a(reader, 1), b(reader, 2);
  writer.join();
  a.join();
  b.join();
  EXPECT_FALSE(failed);
  EXPECT_EQ(Scan(false).size(), static_cast<size_t>(kKeys));
}

// Writes are linked into the list in groups (with the hash index): an iterator created after a
// write finished must find it, whichever thread links it.
TEST_P(MemtableSkipListTest, IteratorsFindEveryWriteFinishedBeforeThem) {
  constexpr int kKeys = 20000;
  std::atomic<int> published{0};
  std::atomic<bool> failed{false};
  auto key_of = [](int i) { return "s" + std::to_string(static_cast<uint32_t>(i) * 2654435761u); };
  std::thread writer = PublishingWriter(key_of, kKeys, "v", published, failed);
  auto reader = [&](unsigned seed) {
    std::mt19937 rng(seed);
    while (published.load(std::memory_order_acquire) < kKeys && !failed) {
      const int known = published.load(std::memory_order_acquire);
      if (known == 0) continue;
      // The newest write is the likeliest to be still queued.
      const int pick = rng() % 2 == 0 ? known - 1 : static_cast<int>(rng() % known);
      const std::string key = key_of(pick);
      std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions()));
      it->Seek(key);
      if (!it->Valid() || it->key().ToString() != key) failed = true;
      it->SeekForPrev(key);
      if (!it->Valid() || it->key().ToString() != key) failed = true;
    }
  };
  std::thread a(reader, 3), b(reader, 4);
  writer.join();
  a.join();
  b.join();
  EXPECT_FALSE(failed);
}

// Many versions of one key, written among other keys across several groups: every snapshot reads
// its own version, by point read and by iteration.
TEST_P(MemtableSkipListTest, EverySnapshotReadsItsVersionAcrossGroups) {
  const rocksdb::WriteOptions w;
  std::vector<const rocksdb::Snapshot*> snapshots;
  for (int version = 0; version < 100; ++version) {
    ASSERT_TRUE(db_->Put(w, "key", "v" + std::to_string(version)).ok());
    snapshots.push_back(db_->GetSnapshot());
    for (int other = 0; other < version % 7; ++other) {
      ASSERT_TRUE(db_->Put(w, "k" + std::to_string(version * 10 + other), "o").ok());
    }
  }
  for (int version = 0; version < 100; ++version) {
    EXPECT_EQ(Get("key", snapshots[version]), "v" + std::to_string(version));
    rocksdb::ReadOptions ro;
    ro.snapshot = snapshots[version];
    std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(ro));
    it->Seek("key");
    ASSERT_TRUE(it->Valid());
    EXPECT_EQ(it->key().ToString(), "key");
    EXPECT_EQ(it->value().ToString(), "v" + std::to_string(version));
  }
  EXPECT_EQ(Get("key"), "v99");
  for (const rocksdb::Snapshot* snapshot : snapshots) db_->ReleaseSnapshot(snapshot);
}

// Small memtables, switched and flushed every few hundred writes while a writer and a reader run:
// each memtable is freed (after its flush) while the linker may still be at work on lists, and
// every write is found afterwards, by point read and by iteration.
class SmallMemtablesTest : public MemtableSkipListTest {
  void Customize(rocksdb::Options& o) override {
    o.write_buffer_size = 256 << 10;  // with 1,024 hash buckets (8 KB of the memtable's usage)
    o.max_write_buffer_number = 4;
    o.level0_file_num_compaction_trigger = 4;
  }
};

TEST_P(SmallMemtablesTest, MemtablesComeAndGoWhileTheirNodesAreLinked) {
  constexpr int kKeys = 30000;
  std::atomic<int> published{0};
  std::atomic<bool> failed{false};
  auto key_of = [](int i) { return "m" + std::to_string(static_cast<uint32_t>(i) * 2654435761u); };
  std::thread writer = PublishingWriter(key_of, kKeys, std::string(100, 'v'), published, failed);
  std::thread reader([&] {
    std::mt19937 rng(5);
    while (published.load(std::memory_order_acquire) < kKeys && !failed) {
      const int known = published.load(std::memory_order_acquire);
      if (known == 0) continue;
      const std::string key = key_of(known - 1 - static_cast<int>(rng() % std::min(known, 64)));
      std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions()));
      it->Seek(key);
      if (!it->Valid() || it->key().ToString() != key) failed = true;
    }
  });
  writer.join();
  reader.join();
  EXPECT_FALSE(failed);
  std::vector<std::pair<std::string, std::string>> all = Scan(false);
  EXPECT_EQ(all.size(), static_cast<size_t>(kKeys));
  for (int i = 0; i < kKeys; i += 997) EXPECT_EQ(Get(key_of(i)), std::string(100, 'v')) << i;
}

INSTANTIATE_TEST_SUITE_P(Layouts, SmallMemtablesTest, ::testing::Values(Layout{1024, true}, Layout{1024, false}),
                         LayoutName);

// The next memtable's hash index is made ahead by the linker once the memtable's entries take 32
// bytes a bucket (32 KB with 1,024 buckets), and the next memtable takes it: it then holds the
// writes that follow, and the memtables before it stay readable.
class SpareIndexTest : public MemtableSkipListTest {};

TEST_P(SpareIndexTest, MadeOnceTheMemtableFillsAndTakenByTheNext) {
  const bool linker = GetParam().background_linking;
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(db_->Put(rocksdb::WriteOptions(), "a" + std::to_string(i), "v").ok());
  EXPECT_FALSE(factory_->SpareIndexReady());  // ~3 KB of entries
  for (int i = 0; i < 400; ++i) {
    ASSERT_TRUE(db_->Put(rocksdb::WriteOptions(), "b" + std::to_string(i), std::string(100, 'v')).ok());
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (linker && !factory_->SpareIndexReady() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_EQ(factory_->SpareIndexReady(), linker);  // without a linker, no spare
  ASSERT_TRUE(db_->Flush(rocksdb::FlushOptions()).ok());  // the next memtable takes it
  EXPECT_FALSE(factory_->SpareIndexReady());
  for (int i = 0; i < 300; ++i) ASSERT_TRUE(db_->Put(rocksdb::WriteOptions(), "c" + std::to_string(i), "w").ok());
  EXPECT_EQ(Get("c299"), "w");
  EXPECT_EQ(Get("b399"), std::string(100, 'v'));
  EXPECT_EQ(Get("a0"), "v");
  EXPECT_EQ(Scan(false).size(), 800u);
  EXPECT_EQ(Scan(true).size(), 800u);
}

INSTANTIATE_TEST_SUITE_P(Layouts, SpareIndexTest, ::testing::Values(Layout{1024, true}, Layout{1024, false}),
                         LayoutName);

// With a linker, the arena pages ahead of the writer's nodes are faulted in on the linker's thread,
// so the thread writing takes few page faults of its own in a memtable of new memory; without one
// it takes about one a 4 KB entry. The same puts into a fresh DB with each factory, the writer's
// faults (getrusage) counted around each put: in the first memtable from the 512th put on (the
// linker starts once a memtable's entries take 1 MB), and in the memtable after a flush from its
// first put (the factory has seen a memtable take 1 MB). The malloc calls of the puts fault alike
// in both. (glibc's malloc is told to map every arena block afresh, as blocks of new memory come to
// a server taking writes; 1,024 buckets keep the hash index to two pages.)
long ThreadMinorFaults() {
  rusage usage{};
  getrusage(RUSAGE_THREAD, &usage);
  return usage.ru_minflt;
}

struct WriterFaults {
  long busy_memtable = 0;  // puts 512-2047 of the first memtable
  long next_memtable = 0;  // the first 256 puts after a flush
};

WriterFaults WriterFaultsOfPuts(bool background_linking) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("mt-skiplist-" + std::to_string(::getpid()) + "-prefault-" + std::to_string(background_linking));
  std::filesystem::remove_all(dir);
  rocksdb::Options o;
  o.create_if_missing = true;
  o.write_buffer_size = 64 << 20;
  o.memtable_factory = std::make_shared<BytewiseSkipListFactory>(1024, background_linking);
  o.allow_concurrent_memtable_write = false;
  rocksdb::DB* raw = nullptr;
  EXPECT_TRUE(rocksdb::DB::Open(o, dir.string(), &raw).ok());
  std::unique_ptr<rocksdb::DB> db(raw);
  const std::string value(4000, 'v');
  WriterFaults faults;
  auto put = [&](const std::string& key, long* counted) {
    const long before = ThreadMinorFaults();
    EXPECT_TRUE(db->Put(rocksdb::WriteOptions(), key, value).ok());
    if (counted != nullptr) *counted += ThreadMinorFaults() - before;
  };
  for (int i = 0; db && i < 2048; ++i) {  // ~8 MB of entries: a page each, eight arena blocks
    put("k" + std::to_string(i), i >= 512 ? &faults.busy_memtable : nullptr);
    if (i % 8 == 7) std::this_thread::sleep_for(std::chrono::milliseconds(1));  // the linker's turn
  }
  EXPECT_TRUE(db && db->Flush(rocksdb::FlushOptions()).ok());
  for (int i = 0; db && i < 256; ++i) {  // the next memtable's first MB
    put("n" + std::to_string(i), &faults.next_memtable);
    if (i % 8 == 7) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  std::string read;
  EXPECT_TRUE(db && db->Get(rocksdb::ReadOptions(), "k2047", &read).ok() && read == value);
  EXPECT_TRUE(db && db->Get(rocksdb::ReadOptions(), "n255", &read).ok() && read == value);
  db.reset();
  std::filesystem::remove_all(dir);
  return faults;
}

TEST(MemtablePrefaultTest, TheWriterFindsArenaPagesFaultedInByTheLinker) {
  mallopt(M_MMAP_THRESHOLD, 128 << 10);
  const WriterFaults writer_links = WriterFaultsOfPuts(false);
  const WriterFaults with_linker = WriterFaultsOfPuts(true);
  EXPECT_GT(writer_links.busy_memtable, 768);  // the measurement sees the arena's fresh pages
  EXPECT_LT(with_linker.busy_memtable * 5, writer_links.busy_memtable)
      << with_linker.busy_memtable << " against " << writer_links.busy_memtable;
  // A memtable that follows one of 1 MB or more is faulted in ahead from its first node.
  EXPECT_GT(writer_links.next_memtable, 128);
  EXPECT_LT(with_linker.next_memtable * 5, writer_links.next_memtable)
      << with_linker.next_memtable << " against " << writer_links.next_memtable;
}

}  // namespace
}  // namespace monotable::engine
