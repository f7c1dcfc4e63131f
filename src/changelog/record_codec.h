// Byte-level helpers shared by the change-log record codecs (item_change.cc, stream_record.cc):
// blobs are a 4-byte big-endian length and the bytes; readers consume from the front of `in` and
// answer kCorruption, naming `what`, when the input ends early.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/status.h"
#include "model/attribute_value.h"
#include "model/item_codec.h"

namespace monotable::changelog::codec {

inline void AppendBlob(std::string_view bytes, std::string& out) {
  AppendBigEndian32(static_cast<uint32_t>(bytes.size()), out);
  out.append(bytes);
}

inline Result<std::string_view> Take(std::string_view& in, size_t n, const char* what) {
  if (in.size() < n) return Status(ErrorCode::kCorruption, std::string("truncated ") + what);
  std::string_view out = in.substr(0, n);
  in.remove_prefix(n);
  return out;
}

inline Result<uint32_t> Take32(std::string_view& in, const char* what) {
  MT_ASSIGN_OR_RETURN(std::string_view bytes, Take(in, 4, what));
  return static_cast<uint32_t>(ReadBigEndian(bytes));
}

inline Result<std::string_view> TakeBlob(std::string_view& in, const char* what) {
  MT_ASSIGN_OR_RETURN(uint32_t n, Take32(in, what));
  return Take(in, n, what);
}

// An encoded item stored as a blob when `present` (a flag of the record's header); nullopt otherwise.
inline Result<std::optional<Item>> TakeOptionalItem(std::string_view& in, bool present, const char* what) {
  if (!present) return std::optional<Item>();
  MT_ASSIGN_OR_RETURN(std::string_view bytes, TakeBlob(in, what));
  MT_ASSIGN_OR_RETURN(Item item, DecodeItem(bytes));
  return std::optional<Item>(std::move(item));
}

}  // namespace monotable::changelog::codec
