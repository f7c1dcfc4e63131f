#include "changelog/keys.h"

#include "model/item_codec.h"

namespace monotable::table {
namespace {

// A partition key value holds at most 2048 bytes, a sort key value 1024 (numbers are not
// counted). The same limits hold for the key attributes of every secondary index: an item whose
// index key value is too long is refused as a whole (AWS's developer guide, "Detecting and
// correcting index key violations"; the messages are the table key's).
Status CheckKeySize(const AttributeValue& value, AttrType type, bool is_hash) {
  if (type == AttrType::kN) return Status::Ok();
  if (is_hash && value.s().size() > 2048) {
    return Status::Validation(
        "One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit of2048 bytes");
  }
  if (!is_hash && value.s().size() > 1024) {
    return Status::Validation(
        "One or more parameter values were invalid: Aggregated size of all range keys has exceeded the size limit of 1024 bytes");
  }
  return Status::Ok();
}

Status CheckKeyValue(const AttributeValue& value, AttrType type, const std::string& name, bool is_hash,
                     const char* empty_prefix) {
  if ((type == AttrType::kS || type == AttrType::kB) && value.s().empty()) {
    return Status::Validation(std::string(empty_prefix) +
                              "The AttributeValue for a key attribute cannot contain an empty " +
                              (type == AttrType::kS ? "string" : "binary") + " value. Key: " + name);
  }
  return CheckKeySize(value, type, is_hash);
}

}  // namespace

std::string PrefixBytes(uint32_t key_prefix) {
  std::string out;
  AppendBigEndian32(key_prefix, out);
  return out;
}

std::pair<std::string, std::string> KeySpaceRange(uint32_t key_prefix) {
  return {PrefixBytes(key_prefix), PrefixBytes(key_prefix + 1)};
}

std::string EncodeItemKey(uint32_t key_prefix, const AttributeValue& hash, const AttributeValue* range) {
  std::string key;
  key.reserve(32);
  AppendBigEndian32(key_prefix, key);
  AppendBigEndian64(PartitionHash(hash), key);
  AppendKeyComponent(hash, key);
  if (range) AppendKeyComponent(*range, key);
  return key;
}

std::string PartitionIdOf(const AttributeValue& hash) {
  std::string id;
  AppendBigEndian64(PartitionHash(hash), id);
  AppendKeyComponent(hash, id);
  return id;
}

Item ExtractKey(const TableDescription& table, const Item& item) {
  Item key;
  for (const auto& element : table.key_schema) {
    auto it = item.find(element.name);
    if (it != item.end()) key.emplace(it->first, it->second);
  }
  return key;
}

Status ValidateItemKeys(const TableDescription& table, const Item& item, ItemSource source) {
  for (const auto& element : table.key_schema) {
    AttrType type = *table.AttributeType(element.name);
    auto it = item.find(element.name);
    if (it == item.end()) {
      return Status::Validation("One or more parameter values were invalid: Missing the key " + element.name +
                                " in the item");
    }
    if (it->second.type() != type) {
      return Status::Validation("One or more parameter values were invalid: Type mismatch for key " + element.name +
                                " expected: " + std::string(AttrTypeName(type)) +
                                " actual: " + std::string(AttrTypeName(it->second.type())));
    }
    MT_RETURN_IF_ERROR(CheckKeyValue(it->second, type, element.name, element.role == KeyRole::kHash,
                                     "One or more parameter values are not valid. "));
  }
  auto check_index = [&](const IndexDescription& index) -> Status {
    for (const auto& element : index.key_schema) {
      AttrType type = *table.AttributeType(element.name);
      auto it = item.find(element.name);
      if (it == item.end()) continue;
      if (it->second.type() != type) {
        return Status::Validation("One or more parameter values were invalid: Type mismatch for Index Key " +
                                  element.name + " Expected: " + std::string(AttrTypeName(type)) +
                                  " Actual: " + std::string(AttrTypeName(it->second.type())) +
                                  " IndexName: " + index.name);
      }
      if ((type == AttrType::kS || type == AttrType::kB) && it->second.s().empty()) {
        if (source == ItemSource::kUpdate) {
          return Status::Validation(
              "One or more parameter values are not valid. The update expression attempted to update a secondary "
              "index key to a value that is not supported. The AttributeValue for a key attribute cannot contain an "
              "empty " +
              std::string(type == AttrType::kS ? "string" : "binary") + " value.");
        }
        return Status::Validation(
            "One or more parameter values are not valid. A value specified for a secondary index key is not "
            "supported. The AttributeValue for a key attribute cannot contain an empty " +
            std::string(type == AttrType::kS ? "string" : "binary") + " value. IndexName: " + index.name +
            ", IndexKey: " + element.name);
      }
      MT_RETURN_IF_ERROR(CheckKeySize(it->second, type, element.role == KeyRole::kHash));
    }
    return Status::Ok();
  };
  for (const auto& index : table.global_indexes) MT_RETURN_IF_ERROR(check_index(index));
  for (const auto& index : table.local_indexes) MT_RETURN_IF_ERROR(check_index(index));
  return Status::Ok();
}

Status ValidateKey(const TableDescription& table, const Item& key) {
  if (key.size() != table.key_schema.size()) {
    return Status::Validation("The provided key element does not match the schema");
  }
  for (const auto& element : table.key_schema) {
    AttrType type = *table.AttributeType(element.name);
    auto it = key.find(element.name);
    if (it == key.end() || it->second.type() != type) {
      return Status::Validation("The provided key element does not match the schema");
    }
    MT_RETURN_IF_ERROR(CheckKeyValue(it->second, type, element.name, element.role == KeyRole::kHash,
                                     "One or more parameter values were invalid: "));
  }
  return Status::Ok();
}

std::string ItemKeyOf(const TableDescription& table, const Item& item) {
  const AttributeValue& hash = item.find(table.hash_key())->second;
  const AttributeValue* range = nullptr;
  if (const std::string* range_name = table.range_key()) range = &item.find(*range_name)->second;
  return EncodeItemKey(table.key_prefix, hash, range);
}

Result<size_t> ItemSortOffset(const TableDescription& table, std::string_view item_key) {
  constexpr size_t kComponentStart = 4 + 8;
  if (item_key.size() < kComponentStart) return Status(ErrorCode::kCorruption, "item key too short");
  std::string_view component = item_key.substr(kComponentStart);
  if (table.AttributeType(table.hash_key()) == AttrType::kN) {
    MT_RETURN_IF_ERROR(Number::OrderedKeyStorageSize(component).status());  // advances past it
    return item_key.size() - component.size();
  }
  // S and B: 0x00 is escaped as 0x00 0xFF; 0x00 0x01 ends the component.
  for (size_t i = 0; i + 1 < component.size(); ++i) {
    if (component[i] != '\0') continue;
    if (component[i + 1] == '\x01') return kComponentStart + i + 2;
    ++i;  // an escaped 0x00
  }
  return Status(ErrorCode::kCorruption, "item key without the end of its partition key");
}

}  // namespace monotable::table
