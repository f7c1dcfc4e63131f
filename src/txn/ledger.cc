#include "txn/ledger.h"

#include <openssl/sha.h>

#include <utility>

#include "changelog/record_codec.h"

namespace monotable::txn {
namespace {

using changelog::codec::AppendBlob;
using changelog::codec::Take;
using changelog::codec::Take32;
using changelog::codec::TakeBlob;

constexpr char kRecordSortKey[] = "r";
constexpr uint8_t kFormat = 1;
constexpr size_t kPartitionIdBytes = SHA256_DIGEST_LENGTH;

// Write flags.
constexpr uint8_t kHasExpected = 1;
constexpr uint8_t kCheckOnly = 2;
constexpr uint8_t kHasNewValue = 4;

std::string LedgerPartition(std::string_view id) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(id.data()), id.size(), digest);
  return std::string(reinterpret_cast<const char*>(digest), sizeof digest);
}

Result<uint64_t> Take64(std::string_view& in, const char* what) {
  MT_ASSIGN_OR_RETURN(std::string_view bytes, Take(in, 8, what));
  return ReadBigEndian(bytes);
}

Result<uint8_t> Take8(std::string_view& in, const char* what) {
  MT_ASSIGN_OR_RETURN(std::string_view bytes, Take(in, 1, what));
  return static_cast<uint8_t>(bytes[0]);
}

Result<TxnWrite> TakeWrite(std::string_view& in) {
  TxnWrite w;
  MT_ASSIGN_OR_RETURN(uint8_t flags, Take8(in, "ledger write flags"));
  MT_ASSIGN_OR_RETURN(w.keyspace, Take32(in, "ledger write keyspace"));
  MT_ASSIGN_OR_RETURN(std::string_view partition, TakeBlob(in, "ledger write partition"));
  MT_ASSIGN_OR_RETURN(std::string_view sort_key, TakeBlob(in, "ledger write sort key"));
  w.partition_id.assign(partition);
  w.sort_key.assign(sort_key);
  if (flags & kHasExpected) {
    MT_ASSIGN_OR_RETURN(std::string_view expected, TakeBlob(in, "ledger write expected value"));
    w.expected.emplace(expected);
  }
  w.check_only = (flags & kCheckOnly) != 0;
  if (flags & kHasNewValue) {
    MT_ASSIGN_OR_RETURN(std::string_view value, TakeBlob(in, "ledger write new value"));
    w.new_value.emplace(value);
  }
  MT_ASSIGN_OR_RETURN(std::string_view change, TakeBlob(in, "ledger write change"));
  w.change.assign(change);
  return w;
}

}  // namespace

std::string EncodeLedgerRecord(const LedgerRecord& record) {
  std::string out;
  out.push_back(static_cast<char>(kFormat));
  out.push_back(static_cast<char>(record.state));
  AppendBigEndian64(static_cast<uint64_t>(record.created_ms), out);
  AppendBigEndian64(static_cast<uint64_t>(record.finished_ms), out);
  AppendBlob(record.id, out);
  AppendBlob(record.attempt, out);
  AppendBlob(record.result, out);
  AppendBigEndian32(static_cast<uint32_t>(record.writes.size()), out);
  for (const TxnWrite& w : record.writes) {
    uint8_t flags = (w.expected ? kHasExpected : 0) | (w.check_only ? kCheckOnly : 0) |
                    (w.new_value ? kHasNewValue : 0);
    out.push_back(static_cast<char>(flags));
    AppendBigEndian32(w.keyspace, out);
    AppendBlob(w.partition_id, out);
    AppendBlob(w.sort_key, out);
    if (w.expected) AppendBlob(*w.expected, out);
    if (w.new_value) AppendBlob(*w.new_value, out);
    AppendBlob(w.change, out);
  }
  return out;
}

Result<LedgerRecord> DecodeLedgerRecord(std::string_view in) {
  LedgerRecord record;
  MT_ASSIGN_OR_RETURN(uint8_t format, Take8(in, "ledger record format"));
  if (format != kFormat) return Status(ErrorCode::kCorruption, "ledger record: unknown format");
  MT_ASSIGN_OR_RETURN(uint8_t state, Take8(in, "ledger record state"));
  if (state < static_cast<uint8_t>(LedgerState::kPending) || state > static_cast<uint8_t>(LedgerState::kAborted)) {
    return Status(ErrorCode::kCorruption, "ledger record: unknown state");
  }
  record.state = static_cast<LedgerState>(state);
  MT_ASSIGN_OR_RETURN(uint64_t created, Take64(in, "ledger record creation time"));
  MT_ASSIGN_OR_RETURN(uint64_t finished, Take64(in, "ledger record finish time"));
  record.created_ms = static_cast<int64_t>(created);
  record.finished_ms = static_cast<int64_t>(finished);
  MT_ASSIGN_OR_RETURN(std::string_view id, TakeBlob(in, "ledger record id"));
  MT_ASSIGN_OR_RETURN(std::string_view attempt, TakeBlob(in, "ledger record attempt"));
  MT_ASSIGN_OR_RETURN(std::string_view result, TakeBlob(in, "ledger record result"));
  record.id.assign(id);
  record.attempt.assign(attempt);
  record.result.assign(result);
  MT_ASSIGN_OR_RETURN(uint32_t count, Take32(in, "ledger record write count"));
  if (count > in.size()) return Status(ErrorCode::kCorruption, "ledger record: write count exceeds the record");
  record.writes.reserve(count);
  for (uint32_t i = 0; i < count; ++i) {
    MT_ASSIGN_OR_RETURN(TxnWrite w, TakeWrite(in));
    record.writes.push_back(std::move(w));
  }
  if (!in.empty()) return Status(ErrorCode::kCorruption, "ledger record: trailing bytes");
  return record;
}

Result<StoredRecord> Ledger::Create(const LedgerRecord& record) {
  std::string partition = LedgerPartition(record.id);
  StoredRecord stored{record, EncodeLedgerRecord(record)};
  engine::PartitionWrite write;
  write.guards.push_back({kRecordSortKey, std::nullopt});
  write.mutations.push_back({kRecordSortKey, stored.bytes});
  MT_RETURN_IF_ERROR(store_.Commit({kLedgerKeyspace, partition}, std::move(write)).status());
  return stored;
}

Result<StoredRecord> Ledger::Move(const StoredRecord& from, const LedgerRecord& to) {
  std::string partition = LedgerPartition(from.record.id);
  StoredRecord stored{to, EncodeLedgerRecord(to)};
  engine::PartitionWrite write;
  write.guards.push_back({kRecordSortKey, from.bytes});
  write.mutations.push_back({kRecordSortKey, stored.bytes});
  MT_RETURN_IF_ERROR(store_.Commit({kLedgerKeyspace, partition}, std::move(write)).status());
  return stored;
}

Status Ledger::Remove(const StoredRecord& from) {
  std::string partition = LedgerPartition(from.record.id);
  engine::PartitionWrite write;
  write.guards.push_back({kRecordSortKey, from.bytes});
  write.mutations.push_back({kRecordSortKey, std::nullopt});
  return store_.Commit({kLedgerKeyspace, partition}, std::move(write)).status();
}

Result<std::optional<StoredRecord>> Ledger::Find(std::string_view id) {
  std::string partition = LedgerPartition(id);
  MT_ASSIGN_OR_RETURN(auto bytes, store_.Get({kLedgerKeyspace, partition}, kRecordSortKey));
  if (!bytes) return std::optional<StoredRecord>();
  MT_ASSIGN_OR_RETURN(LedgerRecord record, DecodeLedgerRecord(*bytes));
  return std::optional<StoredRecord>(StoredRecord{std::move(record), std::move(*bytes)});
}

Status Ledger::ForEach(const std::function<Status(StoredRecord)>& visit) {
  // Collected first: the visitor commits to the ledger, and a scan's view is per partition anyway.
  std::vector<std::string> all;
  MT_RETURN_IF_ERROR(store_.ScanKeyspace(kLedgerKeyspace, "", "", [&](std::string_view key, std::string_view value) {
    if (key.size() == kPartitionIdBytes + 1 && key.substr(kPartitionIdBytes) == kRecordSortKey) all.emplace_back(value);
    return true;
  }));
  for (std::string& bytes : all) {
    MT_ASSIGN_OR_RETURN(LedgerRecord record, DecodeLedgerRecord(bytes));
    MT_RETURN_IF_ERROR(visit(StoredRecord{std::move(record), std::move(bytes)}));
  }
  return Status::Ok();
}

}  // namespace monotable::txn
