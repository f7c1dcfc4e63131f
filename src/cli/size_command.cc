#include "cli/size_command.h"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "api/shape.h"
#include "api/wire_value.h"
#include "model/capacity.h"
#include "model/json_writer.h"
#include "model/table_description.h"

namespace monotable::cli {
namespace {

bool IsDynamoValue(const rapidjson::Value& v) {
  static const char* kTypes[] = {"S", "N", "B", "BOOL", "NULL", "L", "M", "SS", "NS", "BS"};
  if (!v.IsObject() || v.MemberCount() != 1) return false;
  std::string_view name = v.MemberBegin()->name.GetString();
  for (const char* t : kTypes) if (name == t) return true;
  return false;
}

bool IsDynamoItem(const rapidjson::Value& item) {
  for (auto it = item.MemberBegin(); it != item.MemberEnd(); ++it) {
    if (!IsDynamoValue(it->value)) return false;
  }
  return true;
}

// Plain JSON -> DynamoDB JSON, in place.
void ToDynamoJson(rapidjson::Value& v, rapidjson::Document::AllocatorType& a) {
  rapidjson::Value wrapped(rapidjson::kObjectType);
  if (v.IsString()) {
    wrapped.AddMember("S", v, a);
  } else if (v.IsNumber()) {
    rapidjson::StringBuffer b;
    model::JsonWriter w(b);
    v.Accept(w);
    wrapped.AddMember("N", rapidjson::Value(b.GetString(), a), a);
  } else if (v.IsBool()) {
    wrapped.AddMember("BOOL", v, a);
  } else if (v.IsNull()) {
    wrapped.AddMember("NULL", true, a);
  } else if (v.IsArray()) {
    for (auto& e : v.GetArray()) ToDynamoJson(e, a);
    wrapped.AddMember("L", v, a);
  } else {
    for (auto it = v.MemberBegin(); it != v.MemberEnd(); ++it) ToDynamoJson(it->value, a);
    wrapped.AddMember("M", v, a);
  }
  v = wrapped;
}

Result<Item> ParseItem(rapidjson::Value& json, rapidjson::Document::AllocatorType& a) {
  if (!json.IsObject()) return Status::Validation("an item must be a JSON object");
  if (!IsDynamoItem(json)) {
    for (auto it = json.MemberBegin(); it != json.MemberEnd(); ++it) ToDynamoJson(it->value, a);
  }
  static const auto kShape =
      api::ParseShape(R"({"Item": {"type": "Map<AttributeValue>", "children": "AttrStruct<ValueStruct>"}})");
  rapidjson::Value request(rapidjson::kObjectType);
  request.AddMember("Item", json, a);
  MT_RETURN_IF_ERROR(api::CheckRequest(*kShape, request, a));
  return api::DecodeItem(request["Item"]);
}

std::optional<TableDescription> ReadTable(const std::string& path, std::string& error) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  rapidjson::Document doc;
  doc.Parse(text.str().c_str());
  if (!in || doc.HasParseError() || !doc.IsObject()) {
    error = "cannot read table description " + path;
    return std::nullopt;
  }
  const rapidjson::Value& t = doc.HasMember("Table") ? doc["Table"] : doc;
  TableDescription table;
  auto keys = [](const rapidjson::Value& schema) {
    std::vector<KeyElement> out;
    for (const auto& k : schema.GetArray()) {
      out.push_back({k["AttributeName"].GetString(),
                     std::string_view(k["KeyType"].GetString()) == "HASH" ? KeyRole::kHash : KeyRole::kRange});
    }
    return out;
  };
  if (!t.HasMember("KeySchema")) {
    error = "table description has no KeySchema";
    return std::nullopt;
  }
  table.name = t.HasMember("TableName") ? t["TableName"].GetString() : "table";
  table.key_schema = keys(t["KeySchema"]);
  for (const char* kind : {"GlobalSecondaryIndexes", "LocalSecondaryIndexes"}) {
    if (!t.HasMember(kind)) continue;
    for (const auto& i : t[kind].GetArray()) {
      IndexDescription index;
      index.name = i["IndexName"].GetString();
      index.global = std::string_view(kind) == "GlobalSecondaryIndexes";
      index.key_schema = keys(i["KeySchema"]);
      std::string_view type = i["Projection"]["ProjectionType"].GetString();
      index.projection.type = type == "ALL" ? ProjectionType::kAll
                              : type == "KEYS_ONLY" ? ProjectionType::kKeysOnly : ProjectionType::kInclude;
      if (i["Projection"].HasMember("NonKeyAttributes")) {
        for (const auto& a : i["Projection"]["NonKeyAttributes"].GetArray()) {
          index.projection.non_key_attributes.emplace_back(a.GetString());
        }
      }
      (index.global ? table.global_indexes : table.local_indexes).push_back(std::move(index));
    }
  }
  return table;
}

size_t ProjectedSize(const TableDescription& table, const IndexDescription& index, const Item& item, bool& indexed) {
  indexed = true;
  for (const auto& k : index.key_schema) indexed = indexed && item.count(k.name);
  if (!indexed) return 0;
  if (index.projection.type == ProjectionType::kAll) return ItemSize(item);
  Item projected;
  auto copy = [&](const std::string& n) {
    if (auto it = item.find(n); it != item.end()) projected.insert_or_assign(n, it->second);
  };
  for (const auto& k : table.key_schema) copy(k.name);
  for (const auto& k : index.key_schema) copy(k.name);
  for (const auto& n : index.projection.non_key_attributes) copy(n);
  return ItemSize(projected);
}

void Report(size_t n, const Item& item, const std::optional<TableDescription>& table) {
  size_t size = ItemSize(item);
  std::printf("item %zu: %zu bytes%s\n", n, size, size > 409600 ? "  (over the 409,600-byte limit)" : "");
  std::printf("  read:  %.1f RCU strong, %.1f eventual, %.1f transactional\n", ReadUnits(size, ReadMode::kStrong),
              ReadUnits(size, ReadMode::kEventual), ReadUnits(size, ReadMode::kTransactional));
  std::printf("  write: %.0f WCU standard, %.0f transactional\n", WriteUnits(size), WriteUnits(size, true));
  if (!table) return;
  double total = WriteUnits(size);
  for (const auto* list : {&table->global_indexes, &table->local_indexes}) {
    for (const auto& index : *list) {
      bool indexed = false;
      size_t entry = ProjectedSize(*table, index, item, indexed);
      if (!indexed) {
        std::printf("  index %s: not indexed (a key attribute is missing)\n", index.name.c_str());
        continue;
      }
      double units = IndexWriteUnits({std::nullopt, entry, false, false});
      total += units;
      std::printf("  index %s: entry %zu bytes, insert %.0f WCU, read %.1f RCU eventual\n", index.name.c_str(),
                  entry, units, ReadUnits(entry, ReadMode::kEventual));
    }
  }
  std::printf("  insert with indexes: %.0f WCU\n", total);
}

int Process(const std::string& text, size_t& count, const std::optional<TableDescription>& table) {
  rapidjson::Document doc;
  doc.Parse<rapidjson::kParseIterativeFlag>(text.c_str());
  std::vector<rapidjson::Value*> items;
  if (doc.HasParseError()) {
    // One item per line.
    std::istringstream lines(text);
    std::string line;
    int failed = 0;
    while (std::getline(lines, line)) {
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
      failed |= Process(line, count, table);
    }
    return failed;
  }
  if (doc.IsArray()) {
    for (auto& v : doc.GetArray()) items.push_back(&v);
  } else {
    items.push_back(&doc);
  }
  int failed = 0;
  for (auto* v : items) {
    auto item = ParseItem(*v, doc.GetAllocator());
    ++count;
    if (!item.ok()) {
      std::fprintf(stderr, "item %zu: %s\n", count, item.status().message().c_str());
      failed = 1;
      continue;
    }
    Report(count, *item, table);
  }
  return failed;
}

}  // namespace

int RunSizeCommand(int argc, char** argv) {
  std::optional<TableDescription> table;
  std::vector<std::string> files;
  for (int i = 0; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "--table" && i + 1 < argc) {
      std::string error;
      table = ReadTable(argv[++i], error);
      if (!table) {
        std::fprintf(stderr, "monotable size: %s\n", error.c_str());
        return 2;
      }
    } else if (arg == "--help" || arg == "-h") {
      std::fprintf(stderr, "usage: monotable size [--table DESCRIBE_TABLE_JSON] [FILE ...]\n");
      return 0;
    } else {
      files.emplace_back(arg);
    }
  }
  size_t count = 0;
  int failed = 0;
  if (files.empty()) {
    std::stringstream text;
    text << std::cin.rdbuf();
    return Process(text.str(), count, table);
  }
  for (const auto& f : files) {
    std::ifstream in(f);
    if (!in) {
      std::fprintf(stderr, "monotable size: cannot read %s\n", f.c_str());
      failed = 1;
      continue;
    }
    std::stringstream text;
    text << in.rdbuf();
    failed |= Process(text.str(), count, table);
  }
  return failed;
}

}  // namespace monotable::cli
