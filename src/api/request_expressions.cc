#include "api/request_expressions.h"

#include "api/request_fields.h"
#include "expr/legacy.h"

namespace monotable::api {
namespace {

std::string_view View(const rapidjson::Value& v) { return {v.GetString(), v.GetStringLength()}; }

// Whether params has any member the checks and parsers below look at (a parameter they learn to
// read belongs in this list too). Without one they have nothing to do; finding that out by their
// own ~40 member lookups cost a GetItem ~1,200 instructions more than this one pass.
bool HasExpressionParameter(const rapidjson::Value& params) {
  static constexpr std::string_view kNames[] = {
      "UpdateExpression", "ConditionExpression", "KeyConditionExpression", "FilterExpression",
      "ProjectionExpression", "ExpressionAttributeNames", "ExpressionAttributeValues", "AttributeUpdates",
      "Expected", "AttributesToGet", "QueryFilter", "ScanFilter", "ConditionalOperator", "KeyConditions"};
  if (!params.IsObject()) return false;
  for (auto it = params.MemberBegin(); it != params.MemberEnd(); ++it) {
    const std::string_view name = View(it->name);
    for (std::string_view known : kNames) {
      if (name == known) return true;
    }
  }
  return false;
}

const char* ExpressionMembersOf(unsigned kinds, std::vector<const char*>& out) {
  if (kinds & kUpdateKind) out.push_back("UpdateExpression");
  if (kinds & kConditionKind) out.push_back("ConditionExpression");
  if (kinds & kKeyConditionKind) out.push_back("KeyConditionExpression");
  if (kinds & kFilterKind) out.push_back("FilterExpression");
  if (kinds & kProjectionKind) out.push_back("ProjectionExpression");
  return nullptr;
}

// "ExpressionAttributeNames can only be specified when using expressions" and its Values twin.
Status CheckMapsNeedExpressions(const rapidjson::Value& params, unsigned kinds) {
  std::vector<const char*> members;
  ExpressionMembersOf(kinds, members);
  for (const char* m : members) {
    if (Member(params, m)) return Status::Ok();
  }
  if (Member(params, "ExpressionAttributeNames")) {
    return Status::Validation("ExpressionAttributeNames can only be specified when using expressions");
  }
  if (Member(params, "ExpressionAttributeValues")) {
    // The value check names the expressions that could have used the values.
    std::vector<const char*> value_users;
    for (const char* m : members) {
      if (std::string_view(m) != "ProjectionExpression") value_users.push_back(m);
    }
    std::string list;
    for (size_t i = 0; i < value_users.size(); ++i) {
      list += (i == 0 ? "" : i + 1 == value_users.size() ? " and " : ", ") + std::string(value_users[i]);
    }
    return Status::Validation("ExpressionAttributeValues can only be specified when using expressions: " + list +
                              (value_users.size() > 1 ? " are null" : " is null"));
  }
  return Status::Ok();
}

// "Can not use both expression and non-expression parameters in the same request: ...". Each side
// lists the parameters present in DynamoDB's order: UpdateExpression, ConditionExpression (writes),
// ProjectionExpression, FilterExpression, KeyConditionExpression (reads); AttributeUpdates, Expected,
// AttributesToGet, QueryFilter / ScanFilter, ConditionalOperator, KeyConditions. KeyConditions only
// counts when KeyConditionExpression is there too (legacy KeyConditions mix freely with the rest).
Status CheckMixedParameters(const rapidjson::Value& params, unsigned kinds) {
  std::vector<const char*> expressions, legacy;
  if (kinds & kUpdateKind) expressions.push_back("UpdateExpression");
  if (kinds & kConditionKind) expressions.push_back("ConditionExpression");
  if (kinds & kProjectionKind) expressions.push_back("ProjectionExpression");
  if (kinds & kFilterKind) expressions.push_back("FilterExpression");
  if (kinds & kKeyConditionKind) expressions.push_back("KeyConditionExpression");
  if (kinds & kUpdateKind) legacy.push_back("AttributeUpdates");
  if (kinds & kConditionKind) legacy.push_back("Expected");
  if (kinds & kProjectionKind) legacy.push_back("AttributesToGet");
  if (kinds & kFilterKind) legacy.push_back(Member(params, "QueryFilter") ? "QueryFilter" : "ScanFilter");
  if (kinds & (kConditionKind | kFilterKind)) legacy.push_back("ConditionalOperator");
  if (kinds & kKeyConditionKind) legacy.push_back("KeyConditions");
  std::vector<std::string> used_expressions, used_legacy;
  for (const char* e : expressions) {
    if (Member(params, e)) used_expressions.emplace_back(e);
  }
  if (used_expressions.empty()) return Status::Ok();
  bool key_conditions_alone = Member(params, "KeyConditions") && !Member(params, "KeyConditionExpression");
  for (const char* l : legacy) {
    if (key_conditions_alone && std::string_view(l) == "KeyConditions") continue;
    if (Member(params, l)) used_legacy.emplace_back(l);
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

// ConditionalOperator combines the conditions of Expected / QueryFilter / ScanFilter, so it needs
// at least two of them (an empty map counts as none).
Status CheckConditionalOperator(const rapidjson::Value& params, unsigned kinds) {
  if (!(kinds & (kConditionKind | kFilterKind)) || !Member(params, "ConditionalOperator")) return Status::Ok();
  size_t conditions = 0;
  auto count = [&](const char* member) {
    const rapidjson::Value* map = Member(params, member);
    if (map && map->IsObject()) conditions += map->MemberCount();
  };
  if (kinds & kConditionKind) count("Expected");
  if (kinds & kFilterKind) {
    count("QueryFilter");
    count("ScanFilter");
  }
  if (conditions == 0) return Status::Validation("ConditionalOperator cannot be used without Filter or Expected");
  if (conditions == 1) {
    return Status::Validation("ConditionalOperator can only be used when Filter or Expected has two or more elements");
  }
  return Status::Ok();
}

Result<std::vector<AttributeValue>> DecodeValueList(const rapidjson::Value& condition) {
  std::vector<AttributeValue> values;
  if (const auto* list = Member(condition, "AttributeValueList")) {
    for (const auto& v : list->GetArray()) {
      MT_ASSIGN_OR_RETURN(AttributeValue value, DecodeAttributeValue(v));
      values.push_back(std::move(value));
    }
  }
  return values;
}

Result<std::vector<expr::FilterCondition>> DecodeFilterMap(const rapidjson::Value& map) {
  std::vector<expr::FilterCondition> out;
  for (auto it = map.MemberBegin(); it != map.MemberEnd(); ++it) {
    expr::FilterCondition c;
    c.attribute = std::string(View(it->name));
    c.comparison_operator = std::string(StringOr(it->value, "ComparisonOperator", ""));
    MT_ASSIGN_OR_RETURN(c.attribute_value_list, DecodeValueList(it->value));
    out.push_back(std::move(c));
  }
  return out;
}

Result<expr::ConditionExpression> DecodeExpected(const rapidjson::Value& params) {
  std::vector<expr::ExpectedCondition> expected;
  const rapidjson::Value& map = *Member(params, "Expected");
  for (auto it = map.MemberBegin(); it != map.MemberEnd(); ++it) {
    expr::ExpectedCondition c;
    c.attribute = std::string(View(it->name));
    if (const auto* v = Member(it->value, "Value")) {
      MT_ASSIGN_OR_RETURN(AttributeValue value, DecodeAttributeValue(*v));
      c.value = std::move(value);
    }
    c.exists = BoolMember(it->value, "Exists");
    if (auto op = StringMember(it->value, "ComparisonOperator")) c.comparison_operator = std::string(*op);
    if (Member(it->value, "AttributeValueList")) {
      MT_ASSIGN_OR_RETURN(auto list, DecodeValueList(it->value));
      c.attribute_value_list = std::move(list);
    }
    expected.push_back(std::move(c));
  }
  std::optional<std::string> op;
  if (auto o = StringMember(params, "ConditionalOperator")) op = std::string(*o);
  return expr::ConvertExpected(expected, op);
}

}  // namespace

Status CheckExpressionParameters(const rapidjson::Value& params, unsigned kinds) {
  if (!HasExpressionParameter(params)) return Status::Ok();
  MT_RETURN_IF_ERROR(CheckMixedParameters(params, kinds));
  MT_RETURN_IF_ERROR(CheckMapsNeedExpressions(params, kinds));
  return CheckConditionalOperator(params, kinds);
}

Result<RequestExpressions> ParseRequestExpressions(const rapidjson::Value& params, unsigned kinds) {
  RequestExpressions out;
  if (!HasExpressionParameter(params)) return out;
  std::optional<std::string> conditional_operator;
  if (auto o = StringMember(params, "ConditionalOperator")) conditional_operator = std::string(*o);

  // Legacy parameters first (they never share the maps with expressions).
  if ((kinds & kConditionKind) && Member(params, "Expected")) {
    MT_ASSIGN_OR_RETURN(out.condition, DecodeExpected(params));
  }
  if ((kinds & kUpdateKind) && Member(params, "AttributeUpdates")) {
    std::vector<expr::AttributeUpdate> updates;
    const rapidjson::Value& map = *Member(params, "AttributeUpdates");
    for (auto it = map.MemberBegin(); it != map.MemberEnd(); ++it) {
      expr::AttributeUpdate u;
      u.attribute = std::string(View(it->name));
      if (auto action = StringMember(it->value, "Action")) u.action = std::string(*action);
      if (const auto* v = Member(it->value, "Value")) {
        MT_ASSIGN_OR_RETURN(AttributeValue value, DecodeAttributeValue(*v));
        u.value = std::move(value);
      }
      updates.push_back(std::move(u));
    }
    MT_ASSIGN_OR_RETURN(auto update, expr::ConvertAttributeUpdates(updates));
    out.update = std::move(update);
  }
  if ((kinds & kKeyConditionKind) && Member(params, "KeyConditions") && !Member(params, "KeyConditionExpression")) {
    MT_ASSIGN_OR_RETURN(auto conditions, DecodeFilterMap(*Member(params, "KeyConditions")));
    MT_ASSIGN_OR_RETURN(auto parts, expr::ConvertKeyConditions(conditions));
    out.key_condition = std::move(parts);
    out.legacy_key_conditions = true;
  }
  if (kinds & kFilterKind) {
    for (const char* legacy : {"QueryFilter", "ScanFilter"}) {
      if (const auto* map = Member(params, legacy)) {
        MT_ASSIGN_OR_RETURN(auto conditions, DecodeFilterMap(*map));
        MT_ASSIGN_OR_RETURN(out.filter, expr::ConvertFilter(conditions, conditional_operator));
        out.legacy_filter = true;
      }
    }
  }
  if ((kinds & kProjectionKind) && Member(params, "AttributesToGet")) {
    std::vector<std::string> attributes;
    for (const auto& a : Member(params, "AttributesToGet")->GetArray()) attributes.emplace_back(View(a));
    MT_ASSIGN_OR_RETURN(auto projection, expr::ConvertAttributesToGet(attributes));
    out.projection = std::move(projection);
  }

  // Expressions: the maps, then each kind in DynamoDB's order, then unused names/values.
  std::vector<const char*> members;
  ExpressionMembersOf(kinds, members);
  bool any = false;
  for (const char* m : members) any = any || Member(params, m);
  if (!any) return out;

  std::optional<expr::NameMap> names;
  std::optional<expr::ValueMap> values;
  if (const auto* n = Member(params, "ExpressionAttributeNames")) {
    names.emplace();
    for (auto it = n->MemberBegin(); it != n->MemberEnd(); ++it) names->emplace(View(it->name), View(it->value));
  }
  if (const auto* v = Member(params, "ExpressionAttributeValues")) {
    values.emplace();
    for (auto it = v->MemberBegin(); it != v->MemberEnd(); ++it) values->emplace(View(it->name), AttributeValue());
  }
  MT_RETURN_IF_ERROR(expr::ValidateAttributeMaps(names ? &*names : nullptr, values ? &*values : nullptr));
  if (const auto* v = Member(params, "ExpressionAttributeValues")) {
    for (auto it = v->MemberBegin(); it != v->MemberEnd(); ++it) {
      auto decoded = DecodeAttributeValue(it->value);
      if (!decoded.ok()) {
        return Status::Validation("ExpressionAttributeValues contains invalid value: " + decoded.status().message() +
                                  " for key " + std::string(View(it->name)));
      }
      (*values)[std::string(View(it->name))] = std::move(decoded).value();
    }
  }
  expr::UsageTracker tracker;
  expr::ExpressionInputs in{names ? &*names : nullptr, values ? &*values : nullptr, &tracker, nullptr};
  if (auto text = StringMember(params, "UpdateExpression"); text && (kinds & kUpdateKind)) {
    MT_ASSIGN_OR_RETURN(auto update, expr::ParseUpdateExpression(*text, in));
    out.update = std::move(update);
  }
  if (auto text = StringMember(params, "ConditionExpression"); text && (kinds & kConditionKind)) {
    MT_ASSIGN_OR_RETURN(out.condition, expr::ParseConditionExpression(*text, in));
  }
  std::optional<expr::ConditionExpression> key_condition;
  if (auto text = StringMember(params, "KeyConditionExpression"); text && (kinds & kKeyConditionKind)) {
    MT_ASSIGN_OR_RETURN(auto bound, expr::ParseKeyConditionExpression(*text, in));
    key_condition = std::move(bound);
  }
  if (auto text = StringMember(params, "FilterExpression"); text && (kinds & kFilterKind)) {
    MT_ASSIGN_OR_RETURN(out.filter, expr::ParseFilterExpression(*text, in));
  }
  if (auto text = StringMember(params, "ProjectionExpression"); text && (kinds & kProjectionKind)) {
    MT_ASSIGN_OR_RETURN(auto projection, expr::ParseProjectionExpression(*text, in));
    out.projection = std::move(projection);
  }
  MT_RETURN_IF_ERROR(expr::CheckAllUsed(in));
  if (key_condition) {
    MT_ASSIGN_OR_RETURN(auto parts, expr::ExtractKeyConditionParts(*key_condition));
    out.key_condition = std::move(parts);
  }
  return out;
}

Status CheckCondition(const RequestExpressions& e, const Item* existing) {
  if (e.condition.empty() || e.condition.Evaluate(existing)) return Status::Ok();
  return Status(ErrorCode::kConditionalCheckFailed, "The conditional request failed");
}

namespace {

std::vector<std::string> KeyNames(const TableDescription& table) {
  std::vector<std::string> names;
  for (const auto& k : table.key_schema) names.push_back(k.name);
  return names;
}

std::vector<std::string> IndexKeyNames(const TableDescription& table) {
  std::vector<std::string> names;
  for (const auto* list : {&table.global_indexes, &table.local_indexes}) {
    for (const auto& i : *list) {
      for (const auto& k : i.key_schema) {
        bool table_key = false;
        for (const auto& t : table.key_schema) table_key = table_key || t.name == k.name;
        if (!table_key && std::find(names.begin(), names.end(), k.name) == names.end()) names.push_back(k.name);
      }
    }
  }
  return names;
}

}  // namespace

Status CheckUpdateKeys(const RequestExpressions& e, const TableDescription& table) {
  if (!e.update) return Status::Ok();
  MT_RETURN_IF_ERROR(expr::CheckKeyAttributesNotUpdated(*e.update, KeyNames(table)));
  return expr::CheckKeyPathsScalar(e.update->PathHeads(true), KeyNames(table), IndexKeyNames(table));
}

Status CheckProjectionKeys(const RequestExpressions& e, const TableDescription& table) {
  if (!e.projection) return Status::Ok();
  return expr::CheckKeyPathsScalar(e.projection->PathHeads(true), KeyNames(table), IndexKeyNames(table));
}

Status CheckFilterKeys(const RequestExpressions& e, const TableDescription& table) {
  if (e.filter.empty()) return Status::Ok();
  return expr::CheckKeyPathsScalar(e.filter.PathHeads(true), KeyNames(table), IndexKeyNames(table));
}

}  // namespace monotable::api
