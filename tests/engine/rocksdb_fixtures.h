// Fixtures of the RocksDB engine's tests.
// - TempDir: a fresh directory under the system's temporary directory, removed with everything in
//   it when the object goes. db() names a database path inside it that does not exist yet.
// - CommitOneKey(path) opens the engine at path (synced), commits k = v and closes it;
//   ExpectOneKey(path) opens it again and expects k = v there.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <string>

#include "engine/rocksdb/rocksdb_engine.h"

namespace monotable::engine {

class TempDir {
 public:
  explicit TempDir(const std::string& prefix = "mt_engine_") {
    std::string templ = (std::filesystem::temp_directory_path() / (prefix + "XXXXXX")).string();
    EXPECT_NE(mkdtemp(templ.data()), nullptr);
    path_ = templ;
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string db() const { return path_ + "/db"; }

 private:
  std::string path_;
};

inline void CommitOneKey(const std::string& path) {
  auto engine = OpenRocksDbEngine({.path = path, .sync = true});
  ASSERT_TRUE(engine.ok()) << engine.status().message();
  ASSERT_TRUE((*engine)->Commit({.guards = {}, .mutations = {{"k", "v"}}}).ok());
}

inline void ExpectOneKey(const std::string& path) {
  auto engine = OpenRocksDbEngine({.path = path});
  ASSERT_TRUE(engine.ok()) << engine.status().message();
  EXPECT_EQ(*(*engine)->Get("k"), "v");
}

}  // namespace monotable::engine
