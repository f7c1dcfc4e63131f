#include "api/capacity.h"

#include <algorithm>

#include "model/capacity.h"

namespace monotable::api {

double ReadUnits(size_t item_size, bool consistent) {
  return monotable::ReadUnits(item_size, consistent ? ReadMode::kStrong : ReadMode::kEventual);
}

double WriteUnits(size_t old_size, size_t new_size) { return monotable::WriteUnits(std::max(old_size, new_size)); }

namespace {

void WriteCapacityObject(JsonWriter& w, std::string_view mode, std::string_view table_name, double units,
                         bool is_read) {
  w.StartObject();
  w.Key("TableName");
  w.String(table_name.data(), static_cast<rapidjson::SizeType>(table_name.size()));
  w.Key("CapacityUnits");
  w.Double(units);
  w.Key(is_read ? "ReadCapacityUnits" : "WriteCapacityUnits");
  w.Double(units);
  if (mode == "INDEXES") {
    w.Key("Table");
    w.StartObject();
    w.Key("CapacityUnits");
    w.Double(units);
    w.Key(is_read ? "ReadCapacityUnits" : "WriteCapacityUnits");
    w.Double(units);
    w.EndObject();
  }
  w.EndObject();
}

}  // namespace

void WriteConsumedCapacity(JsonWriter& w, std::string_view mode, std::string_view table_name, double units,
                           bool is_read) {
  if (mode != "TOTAL" && mode != "INDEXES") return;
  w.Key("ConsumedCapacity");
  WriteCapacityObject(w, mode, table_name, units, is_read);
}

void CapacityByTable::Add(const std::string& table, double units) {
  for (auto& [name, u] : units_) {
    if (name == table) {
      u += units;
      return;
    }
  }
  units_.emplace_back(table, units);
}

void CapacityByTable::Write(JsonWriter& w, std::string_view mode, bool is_read) const {
  if (mode != "TOTAL" && mode != "INDEXES") return;
  w.Key("ConsumedCapacity");
  w.StartArray();
  for (const auto& [name, units] : units_) WriteCapacityObject(w, mode, name, units, is_read);
  w.EndArray();
}

}  // namespace monotable::api
