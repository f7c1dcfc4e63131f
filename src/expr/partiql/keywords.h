// PartiQL reserved words: the SQL-92 reserved words plus PartiQL's own (MISSING, PIVOT, REMOVE,
// RETURNING, ...). DynamoDB's PartiQL refuses a reserved word used as a bare name ("WHERE pad = 1"
// is a syntax error; "WHERE \"pad\" = 1" is fine).
//
// Contract: IsReservedWord() is case-insensitive and allocation-free; the list is fixed.
#pragma once

#include <string_view>

namespace monotable::expr::partiql {

bool IsReservedWord(std::string_view word);

}  // namespace monotable::expr::partiql
