#include "changelog/item_change.h"

#include "changelog/record_codec.h"
#include "model/item_codec.h"

namespace monotable::changelog {
namespace {

using codec::AppendBlob;
constexpr char kWhat[] = "item change";
constexpr uint8_t kFormat = 1;        // no stream parts
constexpr uint8_t kFormatStream = 2;  // stream parts follow the extra writes
constexpr uint8_t kByService = 1, kHasOld = 2, kHasNew = 4;

}  // namespace

std::string EncodeItemChange(const ItemChange& change) {
  std::string out;
  out.push_back(static_cast<char>(change.stream.empty() ? kFormat : kFormatStream));
  out.push_back(static_cast<char>((change.by_service ? kByService : 0) | (change.old_image ? kHasOld : 0) |
                                  (change.new_image ? kHasNew : 0)));
  AppendBigEndian32(change.table_keyspace, out);
  if (change.old_image) AppendBlob(EncodeItem(*change.old_image), out);
  if (change.new_image) AppendBlob(EncodeItem(*change.new_image), out);
  AppendBigEndian32(static_cast<uint32_t>(change.extra.size()), out);
  for (const AddressedMutation& m : change.extra) {
    AppendBlob(m.key, out);
    AppendBigEndian32(m.sort_offset, out);
    out.push_back(m.value ? 1 : 0);
    if (m.value) AppendBlob(*m.value, out);
  }
  if (change.stream.empty()) return out;
  AppendBigEndian32(static_cast<uint32_t>(change.stream.size()), out);
  for (const StreamPart& part : change.stream) {
    AppendBigEndian32(part.stream_keyspace, out);
    AppendBigEndian64(part.start, out);
    AppendBigEndian32(part.shard_count, out);
    AppendBlob(part.record, out);
  }
  return out;
}

Result<ItemChange> DecodeItemChange(std::string_view in) {
  MT_ASSIGN_OR_RETURN(std::string_view head, codec::Take(in, 2, kWhat));
  const auto format = static_cast<uint8_t>(head[0]);
  if (format != kFormat && format != kFormatStream) return Status(ErrorCode::kCorruption, "bad item change");
  const auto flags = static_cast<uint8_t>(head[1]);
  ItemChange change;
  change.by_service = flags & kByService;
  MT_ASSIGN_OR_RETURN(change.table_keyspace, codec::Take32(in, kWhat));
  MT_ASSIGN_OR_RETURN(change.old_image, codec::TakeOptionalItem(in, flags & kHasOld, kWhat));
  MT_ASSIGN_OR_RETURN(change.new_image, codec::TakeOptionalItem(in, flags & kHasNew, kWhat));
  MT_ASSIGN_OR_RETURN(uint32_t count, codec::Take32(in, kWhat));
  for (uint32_t i = 0; i < count; ++i) {
    AddressedMutation m;
    MT_ASSIGN_OR_RETURN(std::string_view key, codec::TakeBlob(in, kWhat));
    m.key = std::string(key);
    MT_ASSIGN_OR_RETURN(m.sort_offset, codec::Take32(in, kWhat));
    if (m.sort_offset < 4 || m.sort_offset > m.key.size()) return Status(ErrorCode::kCorruption, "bad item change key");
    MT_ASSIGN_OR_RETURN(std::string_view has_value, codec::Take(in, 1, kWhat));
    if (has_value[0]) {
      MT_ASSIGN_OR_RETURN(std::string_view value, codec::TakeBlob(in, kWhat));
      m.value = std::string(value);
    }
    change.extra.push_back(std::move(m));
  }
  if (format == kFormatStream) {
    MT_ASSIGN_OR_RETURN(uint32_t parts, codec::Take32(in, kWhat));
    for (uint32_t i = 0; i < parts; ++i) {
      StreamPart part;
      MT_ASSIGN_OR_RETURN(part.stream_keyspace, codec::Take32(in, kWhat));
      MT_ASSIGN_OR_RETURN(std::string_view start, codec::Take(in, 8, kWhat));
      part.start = ReadBigEndian(start);
      MT_ASSIGN_OR_RETURN(part.shard_count, codec::Take32(in, kWhat));
      if (part.shard_count == 0) return Status(ErrorCode::kCorruption, "bad item change stream part");
      MT_ASSIGN_OR_RETURN(std::string_view record, codec::TakeBlob(in, kWhat));
      part.record = std::string(record);
      change.stream.push_back(std::move(part));
    }
  }
  if (!in.empty()) return Status(ErrorCode::kCorruption, "trailing bytes in item change");
  return change;
}

}  // namespace monotable::changelog
