// Shared pieces of the single-item operations (PutItem, GetItem, DeleteItem, UpdateItem):
// shape fragments, Key/Item decoding with DynamoDB's validation order, ReturnValues handling.
#pragma once

#include <string>

#include "api/operation.h"

namespace monotable::api {

// Shape fragments (JSON text) shared by the item operations.
extern const char* const kReturnConsumedCapacityShape;
extern const char* const kTableNameShape;
extern const char* const kExpectedShape;
extern const char* const kExpressionValuesShape;
extern const char* const kExpressionNamesShape;

// Decodes request[member] (Key or Item) with DynamoDB's value validation.
Result<Item> DecodeItemMember(const rapidjson::Value& request, std::string_view member);

// Writes "Attributes" when ReturnValues asks for the old item and it existed.
void WriteReturnedAttributes(JsonWriter& w, std::string_view return_values, const std::optional<Item>& old_item);

}  // namespace monotable::api
