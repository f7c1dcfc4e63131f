// Comparison: DynamoDB's value-level rules shared by expressions, key conditions and the legacy
// ComparisonOperator parameters.
//
// Contract:
// - Values of different types are never equal and never ordered (comparisons are false, not errors).
// - Ordering exists only for S (UTF-8 bytes, unsigned), N (numeric) and B (bytes, unsigned).
// - Equality is deep; sets compare as sets (AttributeValue::operator==).
// - SizeOf: S -> length in UTF-16 code units (as DynamoDB counts: "é" is 1, "𝄞" is 2), B -> byte length, SS/NS/BS/L -> element count, M -> entry count,
//   other types -> nullopt (size() of them is "absent", so comparisons with it are false).
// - Contains: S in S (substring), B in B (byte substring), member of SS/NS/BS, element of L (deep
//   equality); anything else is false. BeginsWith: S prefix of S or B prefix of B only.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "model/attribute_value.h"

namespace monotable::expr {

// The legacy ComparisonOperator values (Expected, QueryFilter, ScanFilter, KeyConditions).
enum class ComparisonOperator : uint8_t {
  kEq, kNe, kLe, kLt, kGe, kGt, kNotNull, kNull, kContains, kNotContains, kBeginsWith, kIn, kBetween,
};

std::optional<ComparisonOperator> ParseComparisonOperator(std::string_view name);
std::string_view ComparisonOperatorName(ComparisonOperator op);

bool IsOrderedType(AttrType type);  // S, N, B

// <0, 0, >0 for same-typed S/N/B values; nullopt for any other pair.
std::optional<int> CompareOrdered(const AttributeValue& a, const AttributeValue& b);

std::optional<uint64_t> SizeOf(const AttributeValue& value);
bool Contains(const AttributeValue& haystack, const AttributeValue& needle);
bool BeginsWith(const AttributeValue& value, const AttributeValue& prefix);

// Applies a legacy ComparisonOperator to an attribute (nullptr = absent) and its argument list,
// with DynamoDB's semantics (NE and absent -> true; NOT_CONTAINS and absent -> false).
bool ApplyComparison(ComparisonOperator op, const AttributeValue* attribute,
                     const std::vector<AttributeValue>& arguments);

// Validates a legacy AttributeValueList for its operator, as DynamoDB does for QueryFilter,
// ScanFilter, KeyConditions and Expected (argument count, one type, allowed types, BETWEEN order).
// EQ / NE accept every type (AWS documents lists and maps too); the other operators S/N/B only,
// BEGINS_WITH S/B. Returns the message, or "" when valid.
std::string ValidateComparisonArguments(ComparisonOperator op, const std::vector<AttributeValue>& arguments);

}  // namespace monotable::expr
