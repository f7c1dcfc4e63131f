// Checkpoints persist across reopen; a corrupt file is an error, not a silent reset.
#include "triggers/checkpoint_store.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace monotable::triggers {
namespace {

TEST(CheckpointStoreTest, FileStoreSurvivesReopen) {
  auto dir = std::filesystem::temp_directory_path() / ("mt-cp-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  std::string path = CheckpointPath(dir.string());
  {
    auto store = FileCheckpointStore::Open(path);
    ASSERT_TRUE(store.ok());
    EXPECT_FALSE(store.value()->Load("t", "shardId-1"));
    ASSERT_TRUE(store.value()->Save("t", "shardId-1", 42).ok());
    ASSERT_TRUE(store.value()->Save("t", "shardId-1", 43).ok());
    ASSERT_TRUE(store.value()->Save("u", "shardId-2", 7).ok());
  }
  auto store = FileCheckpointStore::Open(path);
  ASSERT_TRUE(store.ok());
  EXPECT_EQ(store.value()->Load("t", "shardId-1"), 43u);
  EXPECT_EQ(store.value()->Load("u", "shardId-2"), 7u);
  EXPECT_EQ(store.value()->All().size(), 2u);
  std::ofstream(path) << "garbage";
  EXPECT_FALSE(FileCheckpointStore::Open(path).ok());
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace monotable::triggers
