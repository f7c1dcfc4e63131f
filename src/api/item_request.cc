#include "api/item_request.h"

#include "api/request_fields.h"

namespace monotable::api {

const char* const kReturnConsumedCapacityShape = R"({"type": "String", "enum": ["INDEXES", "TOTAL", "NONE"]})";
// Item operations take a name or an ARN of 1 to 1024 characters (AWS's API model); a plain name
// keeps the 255-character ceiling (ARNs are let through in shape.cc).
const char* const kTableNameShape = R"({"type": "String", "notNull": true, "regex": "[a-zA-Z0-9_.-]+",
    "lengthGreaterThanOrEqual": 1, "lengthLessThanOrEqual": 255})";
const char* const kExpectedShape = R"({"type": "Map<ExpectedAttributeValue>", "children": {
    "type": "ValueStruct<ExpectedAttributeValue>", "children": {
      "AttributeValueList": {"type": "List", "children": "AttrStruct<ValueStruct>"},
      "ComparisonOperator": {"type": "String", "enum": ["IN", "NULL", "BETWEEN", "LT", "NOT_CONTAINS", "EQ", "GT",
                                                         "NOT_NULL", "NE", "LE", "BEGINS_WITH", "GE", "CONTAINS"]},
      "Exists": "Boolean",
      "Value": "AttrStruct<FieldStruct>"}}})";
const char* const kExpressionValuesShape = R"({"type": "Map<AttributeValue>", "children": "AttrStruct<ValueStruct>"})";
const char* const kExpressionNamesShape = R"({"type": "Map<java.lang.String>", "children": "String"})";

Result<Item> DecodeItemMember(const rapidjson::Value& request, std::string_view member) {
  const rapidjson::Value* json = Member(request, member);
  if (!json) return Item();
  return DecodeItem(*json);
}

void WriteReturnedAttributes(JsonWriter& w, std::string_view return_values, const std::optional<Item>& old_item) {
  if (return_values != "ALL_OLD" || !old_item) return;
  w.Key("Attributes");
  WriteItem(w, *old_item);
}

}  // namespace monotable::api
