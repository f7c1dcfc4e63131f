// Stream records: the records a table's stream is made of, derived from an item change (by the
// write path's change applier, changelog/change_applier.h), their layout and their codec.
//
// Layout: a stream owns one key space, split in shards, each ONE partition of it. Record `seq` of a
// shard lives at sort key [seq u64 BE]; sort key [0 u64] holds the shard's trim horizon (first
// sequence number not yet trimmed); sequence numbers start far above 0.
// - Embedded engines (AppliesDerivedInCommit): one shard, partition id "", numbered by the
//   writing process (table/change_log.h's SequenceAllocator), i.e. engine key [key_prefix][seq].
// - Logged stores (the partitioned test engine, Ceph RADOS): kStoreStreamShards shards, partition
//   id [shard u64 BE], numbered IN the shard by the change applier (changelog/stream_append.h): the
//   head [0xFF x 8] -> ShardHead (last number given, closed), and per source item partition
//   [0xFF x 8][source partition id] -> the last change-log position applied (exactly once).
//   An item partition maps to one shard (ShardOfPartition), so an item's records stay in order.
// - Shard s numbers from ShardFirstSequence(start, s) = start + s * 2^58 (start: the stream's
//   first number, about the creation time << 16), so numbers are unique across the shards of a
//   stream, increasing in each, and stay below 10^21 (21 digits); ShardOfSequence inverts it.
//
// Contract:
// - MakeChangeRecord() returns nothing for a write that changes nothing (identical put, delete of
//   a missing item); otherwise an INSERT / MODIFY / REMOVE record carrying the keys and the images
//   the stream's view type asks for. Encode/Decode round-trip; Decode never crashes on bad bytes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/status.h"
#include "model/attribute_value.h"
#include "model/table_description.h"

namespace monotable::table {

std::string ChangeRecordKey(uint32_t key_prefix, uint64_t seq);
std::string TrimHorizonKey(uint32_t key_prefix);
// The sequence number of a record key (the caller passes keys of one stream key space).
uint64_t SequenceOfKey(std::string_view key);

// Shards (see the layout above).
constexpr uint32_t kStoreStreamShards = 4;
constexpr int kShardSequenceBits = 58;
uint64_t ShardFirstSequence(uint64_t start, uint32_t shard);
// The shard whose numbers contain `seq` (0 below `start`, the last shard past every range).
uint32_t ShardOfSequence(uint64_t start, uint64_t seq, uint32_t shard_count);
// The shard partition's id: "" for the single shard of an embedded engine, else [shard u64 BE].
std::string StreamShardPartitionId(uint32_t shard, bool numbered_in_store);
// The shard an item partition's records go to (its id starts with the partition hash).
uint32_t ShardOfPartition(std::string_view item_partition_id, uint32_t shard_count);
// Sort keys inside a shard partition.
std::string StreamSequenceKey(uint64_t seq);  // the record `seq`; 0: the trim horizon
std::string StreamHeadKey();                  // [0xFF x 8]
std::string StreamAppliedKey(std::string_view source_partition_id);

struct ShardHead {
  uint64_t last = 0;    // the last number given (the shard's first - 1 when none)
  bool closed = false;  // the stream was disabled: nothing is appended any more
};
std::string EncodeShardHead(const ShardHead& head);
std::optional<ShardHead> DecodeShardHead(std::string_view bytes);

// The applied position of a source partition: its last change-log position appended, when, and
// the source's key space (so a trim can check the source log).
struct AppliedPosition {
  uint64_t position = 0;
  int64_t applied_ms = 0;
  uint32_t source_keyspace = 0;
};
std::string EncodeAppliedPosition(const AppliedPosition& applied);
std::optional<AppliedPosition> DecodeAppliedPosition(std::string_view bytes);

enum class ChangeKind : uint8_t { kInsert = 1, kModify = 2, kRemove = 3 };

struct ChangeRecord {
  ChangeKind kind = ChangeKind::kInsert;
  bool by_service = false;  // a TTL deletion: userIdentity {Type: Service, PrincipalId: dynamodb.amazonaws.com}
  int64_t created_ms = 0;
  Item keys;
  std::optional<Item> old_image;
  std::optional<Item> new_image;

  // DynamoDB's SizeBytes: the keys plus the images the record carries.
  size_t SizeBytes() const;
};

std::optional<ChangeRecord> MakeChangeRecord(const TableDescription& table, std::string_view view_type,
                                             const Item* old_item, const Item* new_item, bool by_service);
std::string EncodeChangeRecord(const ChangeRecord& record);
Result<ChangeRecord> DecodeChangeRecord(std::string_view bytes);

}  // namespace monotable::table
