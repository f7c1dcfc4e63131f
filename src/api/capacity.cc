#include "api/capacity.h"

#include <algorithm>

namespace monotable::api {

double ReadUnits(size_t item_size, bool consistent) {
  double units = static_cast<double>(std::max<size_t>(1, (item_size + 4095) / 4096));
  return consistent ? units : units / 2;
}

double WriteUnits(size_t old_size, size_t new_size) {
  size_t size = std::max(old_size, new_size);
  return static_cast<double>(std::max<size_t>(1, (size + 1023) / 1024));
}

void WriteConsumedCapacity(JsonWriter& w, std::string_view mode, std::string_view table_name, double units,
                           bool is_read) {
  if (mode != "TOTAL" && mode != "INDEXES") return;
  w.Key("ConsumedCapacity");
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

}  // namespace monotable::api
