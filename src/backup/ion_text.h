// Amazon Ion text for exports and imports in DynamoDB's Ion layout: one top-level struct per line,
// {Item:{name:value,...}}, with DynamoDB's type mapping: S string, N decimal, B blob, BOOL bool,
// NULL null, L list, M struct, SS / NS / BS lists annotated $dynamodb_SS / $dynamodb_NS /
// $dynamodb_BS. A file starts with the version marker $ion_1_0.
//
// Contract: IonItemFromLine(IonItemLine(item)) == item for every item. The reader takes the Ion text
// subset such files use (structs, lists, annotations, symbols plain or 'quoted', "strings" with
// escapes, decimals and integers (floats too, for N), blobs {{base64}}, true/false, null and
// null.<type>), refuses anything else with a message, never crashes, and nests at most 32 deep.
#pragma once

#include <string>
#include <string_view>

#include "model/attribute_value.h"

namespace monotable::backup {

constexpr std::string_view kIonVersionMarker = "$ion_1_0";

// {Item:{...}} without a trailing newline.
std::string IonItemLine(const Item& item);
// The item alone as an Ion struct: {name:value,...}.
std::string IonValue(const Item& item);
// One line of an Ion file: an {Item:...} struct, optionally after the version marker. A line that
// holds nothing else (only the marker, or blanks) is kResourceNotFound: callers skip it.
Result<Item> IonItemFromLine(std::string_view line);

}  // namespace monotable::backup
