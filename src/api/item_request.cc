#include "api/item_request.h"

#include "api/request_fields.h"

namespace monotable::api {

const char* const kReturnConsumedCapacityShape = R"({"type": "String", "enum": ["INDEXES", "TOTAL", "NONE"]})";
const char* const kTableNameShape = R"({"type": "String", "notNull": true, "regex": "[a-zA-Z0-9_.-]+",
    "lengthGreaterThanOrEqual": 3, "lengthLessThanOrEqual": 255})";
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

Status CheckExpressionParams(const rapidjson::Value& request, std::initializer_list<const char*> expressions,
                             std::initializer_list<const char*> legacy) {
  std::vector<std::string> used_expressions, used_legacy;
  for (const char* e : expressions) if (Member(request, e)) used_expressions.emplace_back(e);
  if (used_expressions.empty()) return Status::Ok();
  bool key_conditions_alone = Member(request, "KeyConditions") && !Member(request, "KeyConditionExpression");
  for (const char* l : legacy) {
    if (key_conditions_alone && std::string_view(l) == "KeyConditions") continue;
    if (Member(request, l)) used_legacy.emplace_back(l);
  }
  if (used_legacy.empty()) return Status::Ok();
  auto join = [](const std::vector<std::string>& v) {
    std::string out;
    for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + v[i];
    return out;
  };
  return Status::Validation(
      "Can not use both expression and non-expression parameters in the same request: Non-expression parameters: {" +
      join(used_legacy) + "} Expression parameters: {" + join(used_expressions) + "}");
}

void WriteReturnedAttributes(JsonWriter& w, std::string_view return_values, const std::optional<Item>& old_item) {
  if (return_values != "ALL_OLD" || !old_item) return;
  w.Key("Attributes");
  WriteItem(w, *old_item);
}

}  // namespace monotable::api
