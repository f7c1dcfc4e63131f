// Where each trigger has got to in each shard: the sequence number of the first record not yet
// acknowledged (delivered successfully, filtered out, or sent to the on-failure destination).
//
// Contract:
// - Save() returns only once the checkpoint is durable (FileCheckpointStore: the whole map is
//   written to a temporary file, fsynced, renamed over `path`, and the directory fsynced), so a
//   crash right after never re-delivers an acknowledged batch.
// - Load() returns nullopt for a trigger/shard never saved. Checkpoints of triggers that are no
//   longer configured are kept (the trigger resumes if it comes back).
// - Thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "common/status.h"

namespace monotable::triggers {

class CheckpointStore {
 public:
  virtual ~CheckpointStore() = default;
  virtual std::optional<uint64_t> Load(const std::string& trigger, const std::string& shard) = 0;
  virtual Status Save(const std::string& trigger, const std::string& shard, uint64_t next) = 0;
  // Every checkpoint: "trigger/shard" -> next sequence number.
  virtual std::map<std::string, uint64_t> All() = 0;
};

class MemoryCheckpointStore : public CheckpointStore {
 public:
  std::optional<uint64_t> Load(const std::string& trigger, const std::string& shard) override;
  Status Save(const std::string& trigger, const std::string& shard, uint64_t next) override;
  std::map<std::string, uint64_t> All() override;

 protected:
  std::mutex mu_;
  std::map<std::string, uint64_t> map_;
};

class FileCheckpointStore : public MemoryCheckpointStore {
 public:
  // Reads `path` if it exists (a corrupt file is an error, never silently reset).
  static Result<std::unique_ptr<FileCheckpointStore>> Open(std::string path);
  Status Save(const std::string& trigger, const std::string& shard, uint64_t next) override;

 private:
  explicit FileCheckpointStore(std::string path) : path_(std::move(path)) {}
  std::string path_;
};

// The checkpoint file inside a data directory.
std::string CheckpointPath(const std::string& data_dir);
// Reads a checkpoint file (for `monotable triggers --data DIR`).
Result<std::map<std::string, uint64_t>> ReadCheckpointFile(const std::string& path);

}  // namespace monotable::triggers
