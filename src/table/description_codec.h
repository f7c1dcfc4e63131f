// Persistent form of a TableDescription (a JSON record in the system key space).
//
// Contract: DecodeDescription(EncodeDescription(d)) == d for every field; unknown JSON members are
// ignored so that older servers can read records of newer ones.
#pragma once

#include <string>
#include <string_view>

#include "model/table_description.h"

namespace monotable::table {

std::string EncodeDescription(const TableDescription& table);
Result<TableDescription> DecodeDescription(std::string_view json);

}  // namespace monotable::table
