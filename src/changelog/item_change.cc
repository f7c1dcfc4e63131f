#include "changelog/item_change.h"

#include "model/item_codec.h"

namespace monotable::changelog {
namespace {

constexpr uint8_t kFormat = 1;
constexpr uint8_t kByService = 1, kHasOld = 2, kHasNew = 4;

void AppendBlob(std::string_view bytes, std::string& out) {
  AppendBigEndian32(static_cast<uint32_t>(bytes.size()), out);
  out.append(bytes);
}

Result<std::string_view> Take(std::string_view& in, size_t n) {
  if (in.size() < n) return Status(ErrorCode::kCorruption, "truncated item change");
  std::string_view out = in.substr(0, n);
  in.remove_prefix(n);
  return out;
}

Result<uint32_t> Take32(std::string_view& in) {
  MT_ASSIGN_OR_RETURN(std::string_view bytes, Take(in, 4));
  return static_cast<uint32_t>(ReadBigEndian(bytes));
}

Result<std::string_view> TakeBlob(std::string_view& in) {
  MT_ASSIGN_OR_RETURN(uint32_t n, Take32(in));
  return Take(in, n);
}

}  // namespace

std::string EncodeItemChange(const ItemChange& change) {
  std::string out;
  out.push_back(static_cast<char>(kFormat));
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
  return out;
}

Result<ItemChange> DecodeItemChange(std::string_view in) {
  MT_ASSIGN_OR_RETURN(std::string_view head, Take(in, 2));
  if (static_cast<uint8_t>(head[0]) != kFormat) return Status(ErrorCode::kCorruption, "bad item change");
  const auto flags = static_cast<uint8_t>(head[1]);
  ItemChange change;
  change.by_service = flags & kByService;
  MT_ASSIGN_OR_RETURN(change.table_keyspace, Take32(in));
  if (flags & kHasOld) {
    MT_ASSIGN_OR_RETURN(std::string_view bytes, TakeBlob(in));
    MT_ASSIGN_OR_RETURN(Item item, DecodeItem(bytes));
    change.old_image = std::move(item);
  }
  if (flags & kHasNew) {
    MT_ASSIGN_OR_RETURN(std::string_view bytes, TakeBlob(in));
    MT_ASSIGN_OR_RETURN(Item item, DecodeItem(bytes));
    change.new_image = std::move(item);
  }
  MT_ASSIGN_OR_RETURN(uint32_t count, Take32(in));
  for (uint32_t i = 0; i < count; ++i) {
    AddressedMutation m;
    MT_ASSIGN_OR_RETURN(std::string_view key, TakeBlob(in));
    m.key = std::string(key);
    MT_ASSIGN_OR_RETURN(m.sort_offset, Take32(in));
    if (m.sort_offset < 4 || m.sort_offset > m.key.size()) return Status(ErrorCode::kCorruption, "bad item change key");
    MT_ASSIGN_OR_RETURN(std::string_view has_value, Take(in, 1));
    if (has_value[0]) {
      MT_ASSIGN_OR_RETURN(std::string_view value, TakeBlob(in));
      m.value = std::string(value);
    }
    change.extra.push_back(std::move(m));
  }
  if (!in.empty()) return Status(ErrorCode::kCorruption, "trailing bytes in item change");
  return change;
}

}  // namespace monotable::changelog
