// ItemChange: the change-log record of one item write, appended to the item's partition log in
// the same commit as the item (engine.h, PartitionStore::Commit), and its codec.
//
// Contract:
// - A record names the table (its keyspace) and carries the item's old and new images (either
//   may be absent: insert, delete), whether the service made it (a TTL deletion), and `extra`:
//   writes the writer fixed at write time that the applier copies as they are (the stream
//   record of an embedded-style stream, whose number the writer reserved, so a replay rewrites the
//   same key; point-in-time recovery's history), and `stream`: the stream records the applier
//   numbers in their stream's shard (changelog/stream_append.h), at most one per stream.
//   GSI, LSI and expiry entries are not stored: the applier derives them from the images
//   (change_applier.h).
// - Extra keys are full keys [keyspace u32][partition id][sort key] with the sort key's offset.
// - Encode/Decode round-trip; Decode never crashes on bad bytes (kCorruption).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "model/attribute_value.h"

namespace monotable::changelog {

struct AddressedMutation {
  std::string key;           // [keyspace u32][partition id][sort key]
  uint32_t sort_offset = 0;  // where the sort key starts in `key` (>= 4)
  std::optional<std::string> value;  // nullopt: delete
};

// A stream record to append to a stream whose shards number their records (stream_record.h).
struct StreamPart {
  uint32_t stream_keyspace = 0;
  uint64_t start = 0;        // the stream's first sequence number (shard s starts at ShardFirstSequence)
  uint32_t shard_count = 0;
  std::string record;        // table::EncodeChangeRecord
};

struct ItemChange {
  uint32_t table_keyspace = 0;
  bool by_service = false;
  std::optional<Item> old_image;
  std::optional<Item> new_image;
  std::vector<AddressedMutation> extra;
  std::vector<StreamPart> stream;
};

std::string EncodeItemChange(const ItemChange& change);
Result<ItemChange> DecodeItemChange(std::string_view bytes);

}  // namespace monotable::changelog
