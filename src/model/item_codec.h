// Binary codecs for storage: the item codec (values stored by the engine) and the
// order-preserving key-component codec (engine keys).
//
// Contract:
// - EncodeItem/DecodeItem round-trip every Item exactly. DecodeItem never crashes on bad bytes:
//   it returns kCorruption.
// - AppendKeyComponent writes a self-delimiting, order-preserving encoding of a key value
//   (S and B bytewise, N numerically): comparing two encodings with memcmp gives DynamoDB's key
//   order, and an encoding is never a prefix of another, so components can be concatenated.
// - PartitionHash is a stable 64-bit hash of a partition key value (type and bytes); it decides
//   the order in which Scan walks partitions and the parallel-scan segment of an item.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "model/attribute_value.h"

namespace monotable {

void EncodeItem(const Item& item, std::string& out);
std::string EncodeItem(const Item& item);
Result<Item> DecodeItem(std::string_view bytes);

void AppendKeyComponent(const AttributeValue& key_value, std::string& out);
uint64_t PartitionHash(const AttributeValue& partition_key);

void AppendBigEndian32(uint32_t v, std::string& out);
void AppendBigEndian64(uint64_t v, std::string& out);

}  // namespace monotable
