// ConsumedCapacity in responses, with AWS's arithmetic (shared spec "Capacity").
//
// Contract: read units ceil(size/4 KB) (minimum 1 for a missing item) x0.5 when eventually
// consistent; write units ceil(max(old, new)/1 KB), minimum 1; index arms per model/capacity.h.
// A Consumption holds the table arm and each index arm; with ReturnConsumedCapacity TOTAL the
// response carries their sum, with INDEXES also the split (Table, GlobalSecondaryIndexes,
// LocalSecondaryIndexes); with NONE (or absent) nothing.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/wire_value.h"
#include "model/attribute_value.h"
#include "table/database.h"

namespace monotable::api {

double ReadUnits(size_t item_size, bool consistent);
double WriteUnits(size_t old_size, size_t new_size);

struct Consumption {
  double table = 0;
  std::vector<std::pair<std::string, double>> global_indexes;
  std::vector<std::pair<std::string, double>> local_indexes;

  void AddIndexCosts(const std::vector<table::IndexWriteCost>& costs);
  void Add(const Consumption& other);
  double Total() const;
};

void WriteConsumedCapacity(JsonWriter& w, std::string_view return_consumed_capacity, std::string_view table_name,
                           const Consumption& consumption, bool is_read);
inline void WriteConsumedCapacity(JsonWriter& w, std::string_view mode, std::string_view table_name, double units,
                                  bool is_read) {
  WriteConsumedCapacity(w, mode, table_name, Consumption{units, {}, {}}, is_read);
}

// Batch and transaction responses: one ConsumedCapacity entry per table, in first-seen order.
class CapacityByTable {
 public:
  void Add(const std::string& table, double units);
  void Add(const std::string& table, const Consumption& consumption);
  void Write(JsonWriter& w, std::string_view return_consumed_capacity, bool is_read) const;

 private:
  std::vector<std::pair<std::string, Consumption>> tables_;
};

}  // namespace monotable::api
