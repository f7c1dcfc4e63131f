#include "api/capacity.h"

#include <algorithm>

#include "model/capacity.h"

namespace monotable::api {

double ReadUnits(size_t item_size, bool consistent) {
  return monotable::ReadUnits(item_size, consistent ? ReadMode::kStrong : ReadMode::kEventual);
}

double WriteUnits(size_t old_size, size_t new_size) { return monotable::WriteUnits(std::max(old_size, new_size)); }

namespace {

void AddNamed(std::vector<std::pair<std::string, double>>& list, const std::string& name, double units) {
  for (auto& [n, u] : list) {
    if (n == name) {
      u += units;
      return;
    }
  }
  list.emplace_back(name, units);
}

void WriteUnitsObject(JsonWriter& w, double units, bool is_read) {
  w.StartObject();
  w.Key("CapacityUnits");
  w.Double(units);
  w.Key(is_read ? "ReadCapacityUnits" : "WriteCapacityUnits");
  w.Double(units);
  w.EndObject();
}

void WriteIndexArms(JsonWriter& w, const char* key, const std::vector<std::pair<std::string, double>>& arms,
                    bool is_read) {
  if (arms.empty()) return;
  w.Key(key);
  w.StartObject();
  for (const auto& [name, units] : arms) {
    w.Key(name.data(), static_cast<rapidjson::SizeType>(name.size()));
    WriteUnitsObject(w, units, is_read);
  }
  w.EndObject();
}

void WriteCapacityObject(JsonWriter& w, std::string_view mode, std::string_view table_name, const Consumption& c,
                         bool is_read) {
  double total = c.Total();
  w.StartObject();
  w.Key("TableName");
  w.String(table_name.data(), static_cast<rapidjson::SizeType>(table_name.size()));
  w.Key("CapacityUnits");
  w.Double(total);
  w.Key(is_read ? "ReadCapacityUnits" : "WriteCapacityUnits");
  w.Double(total);
  if (mode == "INDEXES") {
    w.Key("Table");
    WriteUnitsObject(w, c.table, is_read);
    WriteIndexArms(w, "LocalSecondaryIndexes", c.local_indexes, is_read);
    WriteIndexArms(w, "GlobalSecondaryIndexes", c.global_indexes, is_read);
  }
  w.EndObject();
}

}  // namespace

void Consumption::AddIndexCosts(const std::vector<table::IndexWriteCost>& costs) {
  for (const auto& cost : costs) {
    AddNamed(cost.index->global ? global_indexes : local_indexes, cost.index->name, cost.units);
  }
}

void Consumption::Add(const Consumption& other) {
  table += other.table;
  for (const auto& [n, u] : other.global_indexes) AddNamed(global_indexes, n, u);
  for (const auto& [n, u] : other.local_indexes) AddNamed(local_indexes, n, u);
}

double Consumption::Total() const {
  double total = table;
  for (const auto& [n, u] : global_indexes) total += u;
  for (const auto& [n, u] : local_indexes) total += u;
  return total;
}

void WriteConsumedCapacity(JsonWriter& w, std::string_view mode, std::string_view table_name,
                           const Consumption& consumption, bool is_read) {
  if (mode != "TOTAL" && mode != "INDEXES") return;
  w.Key("ConsumedCapacity");
  WriteCapacityObject(w, mode, table_name, consumption, is_read);
}

void CapacityByTable::Add(const std::string& table, double units) { Add(table, Consumption{units, {}, {}}); }

void CapacityByTable::Add(const std::string& table, const Consumption& consumption) {
  for (auto& [name, c] : tables_) {
    if (name == table) {
      c.Add(consumption);
      return;
    }
  }
  tables_.emplace_back(table, consumption);
}

void CapacityByTable::Write(JsonWriter& w, std::string_view mode, bool is_read) const {
  if (mode != "TOTAL" && mode != "INDEXES") return;
  w.Key("ConsumedCapacity");
  w.StartArray();
  for (const auto& [name, c] : tables_) WriteCapacityObject(w, mode, name, c, is_read);
  w.EndArray();
}

}  // namespace monotable::api
