// Binary codecs for storage: the item codec (values stored by the engine) and the
// order-preserving key-component codec (engine keys).
//
// Contract:
// - EncodeItem/DecodeItem round-trip every Item exactly. DecodeItem never crashes on bad bytes:
//   it returns kCorruption.
// - AppendKeyComponent writes a self-delimiting, order-preserving encoding of a key value
//   (S and B bytewise, N numerically): comparing two encodings with memcmp gives DynamoDB's key
//   order, and an encoding is never a prefix of another, so components can be concatenated.
// - VisitEncodedItem walks an encoded item in stored (name) order without building it, calling
//   the visitor for every name and value; EncodedItemSize gives ItemSize(DecodeItem(bytes)) the
//   same way. Both return kCorruption where DecodeItem would.
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

// Receives an encoded item's contents in order. Top-level attributes arrive as Name(), then the
// value; inside M, members likewise; inside L, SS, BS and NS, elements come without names.
class EncodedItemVisitor {
 public:
  virtual ~EncodedItemVisitor() = default;
  virtual void Name(std::string_view name) = 0;
  virtual void Bytes(AttrType type, std::string_view bytes) = 0;  // S or B (also SS/BS members)
  virtual void Num(const StoredNumber& number) = 0;                // N (also NS members)
  virtual void Boolean(bool value) = 0;
  virtual void Null() = 0;
  virtual void Begin(AttrType type, uint64_t count) = 0;  // L, M, SS, BS, NS
  virtual void End(AttrType type) = 0;
};

Status VisitEncodedItem(std::string_view bytes, EncodedItemVisitor& visitor);
Result<uint64_t> EncodedItemSize(std::string_view bytes);
// VisitEncodedItem that also measures the item (EncodedItemSize) in the same walk.
Result<uint64_t> VisitEncodedItemSized(std::string_view bytes, EncodedItemVisitor& visitor);

void AppendKeyComponent(const AttributeValue& key_value, std::string& out);
uint64_t PartitionHash(const AttributeValue& partition_key);

void AppendBigEndian32(uint32_t v, std::string& out);
void AppendBigEndian64(uint64_t v, std::string& out);
// The unsigned big-endian number in `bytes` (at most 8 of them; the caller checks the length).
uint64_t ReadBigEndian(std::string_view bytes);

}  // namespace monotable
