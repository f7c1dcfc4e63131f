#include "table/change_log.h"

#include <chrono>

#include "model/item_codec.h"
#include "changelog/keys.h"
#include "table/stream_catalog.h"

namespace monotable::table {

int64_t SystemNowMs() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

std::optional<uint64_t> SequenceAllocator::Reserve(uint64_t count) {
  std::lock_guard lock(mu_);
  if (closed_ || count == 0) return std::nullopt;
  uint64_t first = next_;
  next_ += count;
  pending_.emplace(first, count);
  return first;
}

void SequenceAllocator::Settle(uint64_t first) {
  std::lock_guard lock(mu_);
  pending_.erase(first);
}

uint64_t SequenceAllocator::Watermark() const {
  std::lock_guard lock(mu_);
  return pending_.empty() ? next_ - 1 : pending_.begin()->first - 1;
}

uint64_t SequenceAllocator::Close() {
  std::lock_guard lock(mu_);
  closed_ = true;
  return next_ - 1;
}

bool SequenceAllocator::closed() const {
  std::lock_guard lock(mu_);
  return closed_;
}

uint64_t SequenceAllocator::next() const {
  std::lock_guard lock(mu_);
  return next_;
}

ChangeLogBatch::~ChangeLogBatch() { Settle(); }

void ChangeLogBatch::Add(const TableDescription& table, const Item* old_item, const Item* new_item,
                         bool by_service) {
  if (auto hook = streams_.change_hook()) {
    if (auto append = hook->Capture(table, old_item, new_item)) hooked_.push_back(std::move(append));
  }
  if (!table.stream.enabled) return;
  std::shared_ptr<StreamLog> log = streams_.Active(table);
  if (!log) return;
  auto record = MakeChangeRecord(table, log->view_type(), old_item, new_item, by_service);
  if (!record) return;
  for (auto& p : pending_) {
    if (p.log == log) {
      p.records.push_back(std::move(*record));
      return;
    }
  }
  pending_.push_back({std::move(log), {}, std::nullopt});
  pending_.back().records.push_back(std::move(*record));
}

void ChangeLogBatch::AppendTo(engine::WriteBatch& batch, std::vector<changelog::AddressedMutation>* addressed,
                              std::vector<changelog::StreamPart>* stream_parts) {
  if (!hooked_.empty()) {
    std::vector<changelog::AddressedMutation> hooked;
    for (auto& append : hooked_) append(addressed ? *addressed : hooked);
    for (auto& m : hooked) batch.mutations.push_back({std::move(m.key), std::move(m.value)});
  }
  hooked_.clear();
  if (pending_.empty()) return;
  int64_t now = streams_.NowMs();
  for (auto& p : pending_) {
    if (p.log->numbered_in_store()) {
      // Numbered by the applier in the stream's shard; a closed stream (as this server knows it)
      // takes nothing, and the shard's closed head refuses what another server still sends.
      if (!stream_parts || p.log->closed()) continue;
      StreamInfo info = p.log->info();
      for (auto& record : p.records) {
        record.created_ms = now;
        stream_parts->push_back({p.log->key_prefix(), info.start, p.log->shard_count(), EncodeChangeRecord(record)});
      }
      continue;
    }
    p.first = p.log->sequences().Reserve(p.records.size());
    if (!p.first) continue;  // the stream was closed meanwhile: the write is not part of it
    uint64_t seq = *p.first;
    for (auto& record : p.records) {
      record.created_ms = now;
      batch.mutations.push_back({ChangeRecordKey(p.log->key_prefix(), seq++), EncodeChangeRecord(record)});
    }
  }
}

void ChangeLogBatch::Settle() {
  for (auto& p : pending_) {
    if (p.first) p.log->sequences().Settle(*p.first);
    p.first.reset();
  }
}

}  // namespace monotable::table
