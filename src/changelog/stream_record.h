// Stream records: the records a table's stream is made of, derived from an item change (by the
// write path's change applier, changelog/change_applier.h), their layout and their codec.
//
// Layout: a stream owns one key space (one partition, id ""); record `seq` lives at
// [key_prefix u32][seq u64 BE], i.e. sort key [seq u64 BE]. Key [key_prefix][0] holds the trim
// horizon (first sequence number not yet trimmed); sequence numbers start far above 0.
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
