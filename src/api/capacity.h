// ConsumedCapacity for single-item operations, with AWS's arithmetic (shared spec "Capacity").
//
// Contract: read units ceil(size/4 KB) (minimum 1 for a missing item) x0.5 when eventually
// consistent; write units ceil(max(old, new)/1 KB), minimum 1. WriteConsumedCapacity writes the
// ConsumedCapacity member when ReturnConsumedCapacity asks for TOTAL or INDEXES, nothing otherwise.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/wire_value.h"
#include "model/attribute_value.h"

namespace monotable::api {

double ReadUnits(size_t item_size, bool consistent);
double WriteUnits(size_t old_size, size_t new_size);

void WriteConsumedCapacity(JsonWriter& w, std::string_view return_consumed_capacity, std::string_view table_name,
                           double units, bool is_read);

// Batch and transaction responses: one ConsumedCapacity entry per table, in first-seen order.
class CapacityByTable {
 public:
  void Add(const std::string& table, double units);
  void Write(JsonWriter& w, std::string_view return_consumed_capacity, bool is_read) const;

 private:
  std::vector<std::pair<std::string, double>> units_;
};

}  // namespace monotable::api
