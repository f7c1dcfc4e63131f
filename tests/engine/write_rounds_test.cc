// Write rounds: which threads defer their commits' log records, what a write-out hands over, and
// the RocksDB engine's WAL as seen on disk: a commit on a round thread is visible at once but its
// record reaches the WAL file only with the round's write-out; anywhere else, and with sync, the
// record is in the file when Commit() returns.
#include "engine/write_rounds.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <thread>

#include "engine/engine.h"
#include "engine/rocksdb/rocksdb_engine.h"
#include "rocksdb_fixtures.h"

namespace monotable::engine {
namespace {

class CountingLog : public DeferredLog {
 public:
  Status WriteOutLog() override {
    ++write_outs;
    return fail ? Status::Io("disk full") : Status::Ok();
  }
  int write_outs = 0;
  bool fail = false;
};

// Runs body on a fresh thread, which starts out of any round.
template <typename Body>
void OnFreshThread(Body body) {
  std::thread(body).join();
}

TEST(WriteRoundsTest, OnlyRoundThreadsDefer) {
  OnFreshThread([] {
    CountingLog log;
    EXPECT_FALSE(DeferToRound(log));
    EXPECT_TRUE(WriteOutDeferredLogs().ok());
    EXPECT_EQ(log.write_outs, 0);
    DeferLogWrites();
    EXPECT_TRUE(DeferToRound(log));
    OnFreshThread([&log] { EXPECT_FALSE(DeferToRound(log)); });  // rounds are per thread
  });
}

TEST(WriteRoundsTest, WriteOutHandsOverEachDeferredLogOnceAndStartsAgain) {
  OnFreshThread([] {
    DeferLogWrites();
    CountingLog a, b;
    EXPECT_TRUE(DeferToRound(a));
    EXPECT_TRUE(DeferToRound(b));
    EXPECT_TRUE(DeferToRound(a));
    EXPECT_TRUE(WriteOutDeferredLogs().ok());
    EXPECT_EQ(a.write_outs, 1);
    EXPECT_EQ(b.write_outs, 1);
    EXPECT_TRUE(WriteOutDeferredLogs().ok());  // nothing deferred since
    EXPECT_EQ(a.write_outs, 1);
    EXPECT_TRUE(DeferToRound(b));
    EXPECT_TRUE(WriteOutDeferredLogs().ok());
    EXPECT_EQ(b.write_outs, 2);
  });
}

TEST(WriteRoundsTest, AFailedWriteOutIsReportedAndTheOthersStillGoOut) {
  OnFreshThread([] {
    DeferLogWrites();
    CountingLog failing, fine;
    failing.fail = true;
    DeferToRound(failing);
    DeferToRound(fine);
    Status s = WriteOutDeferredLogs();
    EXPECT_EQ(s.code(), ErrorCode::kIo);
    EXPECT_EQ(fine.write_outs, 1);
  });
}

class RocksWalTest : public ::testing::Test {
 protected:
  std::unique_ptr<Engine> Open(bool sync) {
    auto r = OpenRocksDbEngine({.path = dir_.db(), .sync = sync});
    EXPECT_TRUE(r.ok()) << r.status().message();
    return r.ok() ? std::move(r).value() : nullptr;
  }

  // Bytes in the database's write-ahead log files.
  uintmax_t WalBytes() const {
    uintmax_t bytes = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir_.db())) {
      if (entry.path().extension() == ".log") bytes += entry.file_size();
    }
    return bytes;
  }

  static WriteBatch Put(const std::string& key, const std::string& value) {
    WriteBatch batch;
    batch.mutations.push_back({key, value});
    return batch;
  }

  TempDir dir_{"mt_write_rounds_"};
};

TEST_F(RocksWalTest, ARoundThreadsCommitsReachTheLogAtTheWriteOut) {
  auto engine = Open(/*sync=*/false);
  ASSERT_NE(engine, nullptr);
  OnFreshThread([&] {
    DeferLogWrites();
    const uintmax_t before = WalBytes();
    ASSERT_TRUE(engine->Commit(Put("a", std::string(1000, 'x'))).ok());
    ASSERT_TRUE(engine->Commit(Put("b", "y")).ok());
    EXPECT_EQ(WalBytes(), before);  // buffered
    auto got = engine->Get("a");
    ASSERT_TRUE(got.ok());
    EXPECT_EQ(got.value(), std::string(1000, 'x'));  // visible already
    ASSERT_TRUE(WriteOutDeferredLogs().ok());
    EXPECT_GT(WalBytes(), before + 1000);
  });
}

TEST_F(RocksWalTest, OtherThreadsCommitsAreInTheLogWhenCommitReturns) {
  auto engine = Open(/*sync=*/false);
  ASSERT_NE(engine, nullptr);
  OnFreshThread([&] {
    const uintmax_t before = WalBytes();
    ASSERT_TRUE(engine->Commit(Put("a", std::string(1000, 'x'))).ok());
    EXPECT_GT(WalBytes(), before + 1000);
    const uintmax_t after_put = WalBytes();
    ASSERT_TRUE(engine->DeleteRange("a", "z").ok());
    EXPECT_GT(WalBytes(), after_put);
  });
}

TEST_F(RocksWalTest, SyncedCommitsIgnoreRounds) {
  auto engine = Open(/*sync=*/true);
  ASSERT_NE(engine, nullptr);
  OnFreshThread([&] {
    DeferLogWrites();
    const uintmax_t before = WalBytes();
    ASSERT_TRUE(engine->Commit(Put("a", std::string(1000, 'x'))).ok());
    EXPECT_GT(WalBytes(), before + 1000);
    ASSERT_TRUE(WriteOutDeferredLogs().ok());
  });
}

}  // namespace
}  // namespace monotable::engine
