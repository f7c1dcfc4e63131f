#include "engine/rocksdb/idle_compactor.h"

#include <rocksdb/metadata.h>
#include <rocksdb/options.h>

#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

namespace monotable::engine {

int64_t IdleCompactor::ProcessCpuNanoseconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec;
}

IdleCompactor::IdleCompactor(rocksdb::DB* db, Options options)
    : db_(db), options_(options), thread_([this] { Run(); }) {}

IdleCompactor::~IdleCompactor() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  stop_signal_.notify_all();
  db_->DisableManualCompaction();  // a compaction in progress ends early (Status::Incomplete)
  thread_.join();
  db_->EnableManualCompaction();
}

void IdleCompactor::Run() {
  const double budget = static_cast<double>(std::chrono::nanoseconds(options_.poll).count()) * 2 * options_.idle_share;
  int64_t two_polls_ago = options_.cpu_nanoseconds();
  int64_t one_poll_ago = two_polls_ago;
  int polls = 0;
  std::unique_lock lock(mutex_);
  while (!stop_signal_.wait_for(lock, options_.poll, [this] { return stop_; })) {
    const int64_t now = options_.cpu_nanoseconds();
    const bool idle = polls >= 1 && static_cast<double>(now - two_polls_ago) < budget;
    two_polls_ago = one_poll_ago;
    one_poll_ago = now;
    ++polls;
    if (!idle) continue;
    lock.unlock();
    if (CompactLevelZero()) {
      // The compaction's own CPU: the next two polls start from after it.
      two_polls_ago = one_poll_ago = options_.cpu_nanoseconds();
      polls = 0;
    }
    lock.lock();
  }
}

bool IdleCompactor::CompactLevelZero() {
  // The count first, from a property: the metadata below lists every file of the database, and an
  // idle server polls four times a second.
  std::string level_zero_files;
  if (!db_->GetProperty("rocksdb.num-files-at-level0", &level_zero_files) ||
      std::strtol(level_zero_files.c_str(), nullptr, 10) < options_.min_files) {
    return false;
  }
  uint64_t pending = 0;
  uint64_t running = 0;
  if (!db_->GetIntProperty("rocksdb.compaction-pending", &pending) || pending != 0) return false;
  if (!db_->GetIntProperty("rocksdb.num-running-compactions", &running) || running != 0) return false;
  rocksdb::ColumnFamilyMetaData meta;
  db_->GetColumnFamilyMetaData(&meta);
  if (meta.levels.empty() || meta.levels[0].files.size() < static_cast<size_t>(options_.min_files)) return false;
  std::vector<std::string> inputs;
  for (const rocksdb::SstFileMetaData& file : meta.levels[0].files) {
    if (file.being_compacted) return false;
    inputs.push_back(file.name);
  }
  int output_level = static_cast<int>(meta.levels.size()) - 1;
  for (size_t level = 1; level < meta.levels.size(); ++level) {
    if (!meta.levels[level].files.empty()) {
      output_level = static_cast<int>(level);
      break;
    }
  }
  rocksdb::CompactionOptions compaction;
  compaction.compression = rocksdb::kDisableCompressionOption;  // the column family's, by level
  compaction.output_file_size_limit = uint64_t{64} << 20;        // target_file_size_base's default
  if (!db_->CompactFiles(compaction, inputs, output_level).ok()) return false;
  compactions_.fetch_add(1, std::memory_order_relaxed);
  return true;
}

}  // namespace monotable::engine
