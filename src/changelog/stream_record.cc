#include "changelog/stream_record.h"

#include <algorithm>

#include "changelog/keys.h"
#include "changelog/record_codec.h"
#include "model/item_codec.h"

namespace monotable::table {
namespace {

using changelog::codec::AppendBlob;
constexpr char kWhat[] = "change record";
constexpr uint8_t kFormat = 1;
constexpr uint8_t kByService = 1, kHasOld = 2, kHasNew = 4;

}  // namespace

std::string ChangeRecordKey(uint32_t key_prefix, uint64_t seq) {
  std::string key = PrefixBytes(key_prefix);
  AppendBigEndian64(seq, key);
  return key;
}

std::string TrimHorizonKey(uint32_t key_prefix) { return ChangeRecordKey(key_prefix, 0); }

uint64_t SequenceOfKey(std::string_view key) { return key.size() < 12 ? 0 : ReadBigEndian(key.substr(4, 8)); }

uint64_t ShardFirstSequence(uint64_t start, uint32_t shard) {
  return start + (static_cast<uint64_t>(shard) << kShardSequenceBits);
}

uint32_t ShardOfSequence(uint64_t start, uint64_t seq, uint32_t shard_count) {
  if (seq < start || shard_count <= 1) return 0;
  uint64_t shard = (seq - start) >> kShardSequenceBits;
  return static_cast<uint32_t>(std::min<uint64_t>(shard, shard_count - 1));
}

std::string StreamShardPartitionId(uint32_t shard, bool numbered_in_store) {
  std::string id;
  if (numbered_in_store) AppendBigEndian64(shard, id);
  return id;
}

uint32_t ShardOfPartition(std::string_view item_partition_id, uint32_t shard_count) {
  if (shard_count <= 1) return 0;
  uint64_t hash = item_partition_id.size() >= 8 ? ReadBigEndian(item_partition_id.substr(0, 8)) : 0;
  // The high bits order partitions (hash order): mix them so shards get an even share.
  hash ^= hash >> 33;
  hash *= 0xff51afd7ed558ccdULL;
  hash ^= hash >> 33;
  return static_cast<uint32_t>(hash % shard_count);
}

std::string StreamSequenceKey(uint64_t seq) {
  std::string key;
  AppendBigEndian64(seq, key);
  return key;
}

std::string StreamHeadKey() { return std::string(8, '\xFF'); }

std::string StreamAppliedKey(std::string_view source_partition_id) {
  return StreamHeadKey() + std::string(source_partition_id);
}

std::string EncodeShardHead(const ShardHead& head) {
  std::string out;
  AppendBigEndian64(head.last, out);
  out.push_back(head.closed ? 1 : 0);
  return out;
}

std::optional<ShardHead> DecodeShardHead(std::string_view bytes) {
  if (bytes.size() != 9) return std::nullopt;
  return ShardHead{ReadBigEndian(bytes.substr(0, 8)), bytes[8] != 0};
}

std::string EncodeAppliedPosition(const AppliedPosition& applied) {
  std::string out;
  AppendBigEndian64(applied.position, out);
  AppendBigEndian64(static_cast<uint64_t>(applied.applied_ms), out);
  AppendBigEndian32(applied.source_keyspace, out);
  return out;
}

std::optional<AppliedPosition> DecodeAppliedPosition(std::string_view bytes) {
  if (bytes.size() != 20) return std::nullopt;
  return AppliedPosition{ReadBigEndian(bytes.substr(0, 8)), static_cast<int64_t>(ReadBigEndian(bytes.substr(8, 8))),
                         static_cast<uint32_t>(ReadBigEndian(bytes.substr(16, 4)))};
}

size_t ChangeRecord::SizeBytes() const {
  return ItemSize(keys) + (old_image ? ItemSize(*old_image) : 0) + (new_image ? ItemSize(*new_image) : 0);
}

std::optional<ChangeRecord> MakeChangeRecord(const TableDescription& table, std::string_view view_type,
                                             const Item* old_item, const Item* new_item, bool by_service) {
  if (!old_item && !new_item) return std::nullopt;
  if (old_item && new_item && *old_item == *new_item) return std::nullopt;
  ChangeRecord record;
  record.kind = !old_item ? ChangeKind::kInsert : !new_item ? ChangeKind::kRemove : ChangeKind::kModify;
  record.by_service = by_service;
  record.keys = ExtractKey(table, new_item ? *new_item : *old_item);
  bool keep_old = view_type == "OLD_IMAGE" || view_type == "NEW_AND_OLD_IMAGES";
  bool keep_new = view_type == "NEW_IMAGE" || view_type == "NEW_AND_OLD_IMAGES";
  if (keep_old && old_item) record.old_image = *old_item;
  if (keep_new && new_item) record.new_image = *new_item;
  return record;
}

std::string EncodeChangeRecord(const ChangeRecord& record) {
  std::string out;
  out.push_back(static_cast<char>(kFormat));
  out.push_back(static_cast<char>(record.kind));
  uint8_t flags = (record.by_service ? kByService : 0) | (record.old_image ? kHasOld : 0) |
                  (record.new_image ? kHasNew : 0);
  out.push_back(static_cast<char>(flags));
  AppendBigEndian64(static_cast<uint64_t>(record.created_ms), out);
  AppendBlob(EncodeItem(record.keys), out);
  if (record.old_image) AppendBlob(EncodeItem(*record.old_image), out);
  if (record.new_image) AppendBlob(EncodeItem(*record.new_image), out);
  return out;
}

Result<ChangeRecord> DecodeChangeRecord(std::string_view in) {
  if (in.size() < 11 || static_cast<uint8_t>(in[0]) != kFormat) {
    return Status(ErrorCode::kCorruption, "bad change record");
  }
  ChangeRecord record;
  auto kind = static_cast<uint8_t>(in[1]);
  if (kind < 1 || kind > 3) return Status(ErrorCode::kCorruption, "bad change record kind");
  record.kind = static_cast<ChangeKind>(kind);
  auto flags = static_cast<uint8_t>(in[2]);
  record.by_service = flags & kByService;
  record.created_ms = static_cast<int64_t>(ReadBigEndian(in.substr(3, 8)));
  in.remove_prefix(11);
  MT_ASSIGN_OR_RETURN(std::string_view keys, changelog::codec::TakeBlob(in, kWhat));
  MT_ASSIGN_OR_RETURN(record.keys, DecodeItem(keys));
  MT_ASSIGN_OR_RETURN(record.old_image, changelog::codec::TakeOptionalItem(in, flags & kHasOld, kWhat));
  MT_ASSIGN_OR_RETURN(record.new_image, changelog::codec::TakeOptionalItem(in, flags & kHasNew, kWhat));
  return record;
}

}  // namespace monotable::table
