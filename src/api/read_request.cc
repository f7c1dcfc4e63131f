#include "api/read_request.h"

#include <algorithm>

#include "api/capacity.h"
#include "api/item_request.h"
#include "api/request_fields.h"
#include "expr/legacy.h"
#include "model/capacity.h"
#include "changelog/index_entries.h"
#include "changelog/keys.h"

namespace monotable::api {
namespace {

constexpr std::string_view kTooManyConditions = "Conditions can be of length 1 or 2 only";

Status InvalidStart(const std::string& why) {
  return Status::Validation("The provided starting key is invalid: " + why);
}

std::string_view View(const rapidjson::Value& v) { return {v.GetString(), v.GetStringLength()}; }

// Select against the projection parameters (no table needed).
Status CheckSelect(const rapidjson::Value& req, bool is_query) {
  auto select = StringMember(req, "Select");
  if (!select) return Status::Ok();
  const bool expression = Member(req, "ProjectionExpression") != nullptr;
  const bool legacy = Member(req, "AttributesToGet") != nullptr;
  const std::string prefix = is_query ? "1 validation error detected: " : "";
  if (*select != "SPECIFIC_ATTRIBUTES" && (expression || legacy)) {
    std::string what = *select == "COUNT" ? std::string("only the Count") : std::string(*select);
    const char* member = expression ? "ProjectionExpression" : "AttributesToGet";
    return Status::Validation(prefix + "Cannot specify the " + member + " when choosing to get " + what);
  }
  if (*select == "SPECIFIC_ATTRIBUTES" && !expression && !legacy) {
    return Status::Validation(
        prefix + "Must specify the AttributesToGet or ProjectionExpression when choosing to get SPECIFIC_ATTRIBUTES");
  }
  if (*select == "ALL_PROJECTED_ATTRIBUTES" && !Member(req, "IndexName")) {
    return Status::Validation(prefix + "ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName");
  }
  return Status::Ok();
}

// The key attributes an ExclusiveStartKey must hold: the table's keys, then the index's.
std::vector<const KeyElement*> StartKeyElements(const ReadPlan& plan) {
  const TableDescription& table = *plan.table->description;
  std::vector<const KeyElement*> expected;
  for (const auto& k : table.key_schema) expected.push_back(&k);
  if (plan.index) {
    for (const auto& k : plan.index->key_schema) {
      bool dup = std::any_of(expected.begin(), expected.end(), [&](const KeyElement* e) { return e->name == k.name; });
      if (!dup) expected.push_back(&k);
    }
  }
  return expected;
}

// Query reports a start key of the wrong shape as bare "The provided starting key is invalid";
// Scan names the schema mismatch for a table read.
Status CheckStartKey(const ReadPlan& plan, const Item& start) {
  const TableDescription& table = *plan.table->description;
  std::vector<const KeyElement*> expected = StartKeyElements(plan);
  auto shape_error = [&] {
    if (plan.is_query || plan.index) return Status::Validation("The provided starting key is invalid");
    return InvalidStart("The provided key element does not match the schema");
  };
  if (start.size() != expected.size()) return shape_error();
  for (const KeyElement* k : expected) {
    if (start.find(k->name) == start.end()) return shape_error();
  }
  for (const KeyElement* k : expected) {
    const AttributeValue& value = start.at(k->name);
    AttrType type = *table.AttributeType(k->name);
    if (value.type() != type) {
      if (plan.is_query) return Status::Validation("The provided key element does not match the schema");
      return shape_error();
    }
    if ((type == AttrType::kS || type == AttrType::kB) && value.s().empty()) {
      return InvalidStart(
          "One or more parameter values were invalid: The AttributeValue for a key attribute cannot contain an empty " +
          std::string(type == AttrType::kS ? "string" : "binary") + " value. Key: " + k->name);
    }
  }
  return Status::Ok();
}

// The index a Query names, when it has multi-attribute keys (nullptr otherwise or when absent).
const IndexDescription* MultiAttributeIndexOf(OperationContext& ctx,
                                              std::shared_ptr<const table::TableHandle>& handle) {
  auto index_name = StringMember(ctx.request, "IndexName");
  if (!index_name) return nullptr;
  handle = ctx.db.catalog().Find(TableNameOf(ctx.request));
  if (!handle) return nullptr;
  const IndexDescription* index = handle->description->FindIndex(*index_name);
  return index && table::IsMultiAttributeIndex(*index) ? index : nullptr;
}

// Each condition of an AND tree, left to right.
void CollectLeaves(const expr::Condition& c, std::vector<const expr::Condition*>& leaves) {
  if (c.kind == expr::ConditionKind::kAnd) {
    for (const auto& child : c.children) CollectLeaves(child, leaves);
    return;
  }
  leaves.push_back(&c);
}

// A Query of a multi-attribute index: the same parse as ParseRequestExpressions (which already
// accepted everything but the number of key conditions), keeping up to 8 key conditions.
Result<RequestExpressions> ParseWideKeyCondition(const rapidjson::Value& req, unsigned kinds) {
  const unsigned other_kinds = kinds & ~static_cast<unsigned>(kKeyConditionKind);
  if (!Member(req, "KeyConditionExpression")) {
    // Legacy KeyConditions: every other parameter parses as usual; the conditions one by one.
    MT_ASSIGN_OR_RETURN(RequestExpressions out, ParseRequestExpressions(req, other_kinds));
    expr::KeyConditionParts parts;
    const rapidjson::Value& map = *Member(req, "KeyConditions");
    for (auto it = map.MemberBegin(); it != map.MemberEnd(); ++it) {
      expr::FilterCondition c;
      c.attribute = std::string(View(it->name));
      c.comparison_operator = std::string(StringOr(it->value, "ComparisonOperator", ""));
      if (const auto* list = Member(it->value, "AttributeValueList")) {
        for (const auto& v : list->GetArray()) {
          MT_ASSIGN_OR_RETURN(AttributeValue value, DecodeAttributeValue(v));
          c.attribute_value_list.push_back(std::move(value));
        }
      }
      MT_ASSIGN_OR_RETURN(auto one, expr::ConvertKeyConditions({c}));
      parts.push_back(std::move(one.at(0)));
    }
    out.key_condition = std::move(parts);
    out.legacy_key_conditions = true;
    return out;
  }
  // KeyConditionExpression: Query mixes no legacy parameter with it, so every expression is bound
  // here with one shared tracker, in DynamoDB's order, as ParseRequestExpressions does.
  RequestExpressions out;
  std::optional<expr::NameMap> names;
  std::optional<expr::ValueMap> values;
  if (const auto* n = Member(req, "ExpressionAttributeNames")) {
    names.emplace();
    for (auto it = n->MemberBegin(); it != n->MemberEnd(); ++it) names->emplace(View(it->name), View(it->value));
  }
  if (const auto* v = Member(req, "ExpressionAttributeValues")) {
    values.emplace();
    for (auto it = v->MemberBegin(); it != v->MemberEnd(); ++it) {
      MT_ASSIGN_OR_RETURN(AttributeValue value, DecodeAttributeValue(it->value));
      values->emplace(View(it->name), std::move(value));
    }
  }
  expr::UsageTracker tracker;
  expr::ExpressionInputs in{names ? &*names : nullptr, values ? &*values : nullptr, &tracker, nullptr};
  MT_ASSIGN_OR_RETURN(expr::ConditionExpression key_condition,
                      expr::ParseKeyConditionExpression(*StringMember(req, "KeyConditionExpression"), in));
  if (auto text = StringMember(req, "FilterExpression"); text && (kinds & kFilterKind)) {
    MT_ASSIGN_OR_RETURN(out.filter, expr::ParseFilterExpression(*text, in));
  }
  if (auto text = StringMember(req, "ProjectionExpression"); text && (kinds & kProjectionKind)) {
    MT_ASSIGN_OR_RETURN(auto projection, expr::ParseProjectionExpression(*text, in));
    out.projection = std::move(projection);
  }
  MT_RETURN_IF_ERROR(expr::CheckAllUsed(in));
  // The expression layer extracts one condition per leaf; the leaves were all accepted already.
  const expr::ParsedExpression& parsed = *key_condition.parsed();
  std::vector<const expr::Condition*> leaves;
  if (parsed.condition) CollectLeaves(*parsed.condition, leaves);
  expr::KeyConditionParts parts;
  for (const expr::Condition* leaf : leaves) {
    expr::ParsedExpression one = parsed;
    one.condition = *leaf;
    MT_ASSIGN_OR_RETURN(auto extracted, expr::ExtractKeyConditionParts(one, key_condition.bindings()));
    for (auto& part : extracted) {
      if (std::any_of(parts.begin(), parts.end(), [&](const auto& p) { return p.attribute == part.attribute; })) {
        return Status::Validation("KeyConditionExpressions must only contain one condition per key");
      }
      parts.push_back(std::move(part));
    }
  }
  out.key_condition = std::move(parts);
  return out;
}

std::string JoinNames(const std::vector<std::string>& names) {
  std::string listed;
  for (const auto& name : names) listed += (listed.empty() ? "" : ", ") + name;
  return listed;
}

}  // namespace

std::vector<std::string> ReadPlan::ReadKeyNames() const {
  std::vector<std::string> names;
  const auto& keys = index ? index->key_schema : table->description->key_schema;
  for (const auto& k : keys) names.push_back(k.name);
  return names;
}

Status PrepareRead(OperationContext& ctx, ReadPlan& plan, unsigned kinds) {
  const auto& req = ctx.request;
  plan.is_query = (kinds & kKeyConditionKind) != 0;
  MT_RETURN_IF_ERROR(CheckSelect(req, plan.is_query));
  std::optional<Item> start;
  if (const auto* member = Member(req, "ExclusiveStartKey")) {
    auto decoded = DecodeItem(*member);
    if (!decoded.ok()) return InvalidStart(decoded.status().message());
    start = std::move(decoded).value();
  }

  auto parsed = ParseRequestExpressions(req, kinds);
  if (!parsed.ok()) {
    // Multi-attribute GSI keys take up to 4 + 4 key conditions.
    std::shared_ptr<const table::TableHandle> handle;
    if (!plan.is_query || parsed.status().message() != kTooManyConditions || !MultiAttributeIndexOf(ctx, handle)) {
      return parsed.status();
    }
    parsed = ParseWideKeyCondition(req, kinds);
    if (!parsed.ok()) return parsed.status();
  }
  plan.expressions = std::move(parsed).value();

  MT_ASSIGN_OR_RETURN(plan.table, RequestTable(ctx));
  const TableDescription& table = *plan.table->description;
  plan.consistent = BoolMember(req, "ConsistentRead").value_or(false);
  if (auto index_name = StringMember(req, "IndexName")) {
    plan.index = table.FindIndex(*index_name);
    if (!plan.index) {
      return Status::Validation("The table does not have the specified index: " + std::string(*index_name));
    }
    if (plan.index->global && plan.consistent) {
      return Status::Validation("Consistent reads are not supported on global secondary indexes");
    }
  }
  bool has_projection = Member(req, "ProjectionExpression") || Member(req, "AttributesToGet");
  plan.select = std::string(StringOr(req, "Select", has_projection ? "SPECIFIC_ATTRIBUTES"
                                                   : plan.index ? "ALL_PROJECTED_ATTRIBUTES" : "ALL_ATTRIBUTES"));
  if (start) {
    MT_RETURN_IF_ERROR(CheckStartKey(plan, *start));
    plan.exclusive_start = std::move(start);
  }
  if (auto limit = IntMember(req, "Limit")) plan.page.limit = *limit;
  plan.page.exclusive_start = plan.exclusive_start ? &*plan.exclusive_start : nullptr;
  return Status::Ok();
}

Status FinishRead(ReadPlan& plan) {
  const TableDescription& table = *plan.table->description;
  MT_RETURN_IF_ERROR(CheckProjectionKeys(plan.expressions, table));
  if (!plan.is_query) MT_RETURN_IF_ERROR(CheckFilterKeys(plan.expressions, table));
  if (plan.is_query && !plan.expressions.filter.empty()) {
    // A Query filter may not use the key attributes of what it reads (the index's, for an index).
    std::vector<std::string> heads = plan.expressions.filter.PathHeads();
    for (const auto& name : plan.ReadKeyNames()) {
      if (std::find(heads.begin(), heads.end(), name) != heads.end()) {
        return Status::Validation(std::string(plan.expressions.legacy_filter ? "QueryFilter" : "Filter Expression") +
                                  " can only contain non-primary key attributes: Primary key attribute: " + name);
      }
    }
  }
  const IndexDescription* index = plan.index;
  if (!index || index->projection.type == ProjectionType::kAll) return Status::Ok();
  // A Query's filter may name only what the index projects, GSI or LSI alike (sorted, each once).
  // A Scan's filter is evaluated on the index entries as they are: an attribute the index does not
  // project is absent there.
  if (plan.is_query && !plan.expressions.filter.empty()) {
    std::vector<std::string> missing;
    for (const auto& head : plan.expressions.filter.PathHeads()) {
      if (!table::IndexProjects(table, *index, head)) missing.push_back(head);
    }
    std::sort(missing.begin(), missing.end());
    missing.erase(std::unique(missing.begin(), missing.end()), missing.end());
    if (!missing.empty()) {
      return Status::Validation("One or more parameter values were invalid: Secondary index " + index->name +
                                " does not project one or more filter attributes: [" + JoinNames(missing) + "]");
    }
  }
  if (plan.select == "ALL_ATTRIBUTES") {
    if (index->global) {
      return Status::Validation(
          "One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not supported for global "
          "secondary index " + index->name + " because its projection type is not ALL");
    }
    plan.fetch_from_table = true;
    return Status::Ok();
  }
  if (plan.select != "SPECIFIC_ATTRIBUTES" || !plan.expressions.projection) return Status::Ok();
  std::vector<std::string> missing;
  for (const auto& head : plan.expressions.projection->PathHeads()) {
    if (!table::IndexProjects(table, *index, head) &&
        std::find(missing.begin(), missing.end(), head) == missing.end()) {
      missing.push_back(head);
    }
  }
  if (missing.empty()) return Status::Ok();
  // A GSI cannot fetch from the table: asking for what it does not project is refused. An LSI
  // fetches the whole item from the table.
  if (index->global) {
    return Status::Validation("One or more parameter values were invalid: Global secondary index " + index->name +
                              " does not project [" + JoinNames(missing) + "]");
  }
  plan.fetch_from_table = true;
  return Status::Ok();
}

Status WriteReadResponse(OperationContext& ctx, const ReadPlan& plan, table::Page page) {
  auto& out = ctx.out;
  uint64_t bytes = page.bytes_read;
  size_t count = 0;
  ReadMode mode = plan.consistent ? ReadMode::kStrong : ReadMode::kEventual;
  double fetch_units = 0;  // each item an LSI read fetches from the table: a whole-item read of its own
  out.StartObject();
  if (plan.select != "COUNT") {
    out.Key("Items");
    out.StartArray();
  }
  // Without filter, projection or table fetch, stored records go straight to JSON (no Items built).
  const bool pass_through = !plan.fetch_from_table && plan.expressions.filter.empty() && !plan.expressions.projection;
  for (size_t i = 0; i < page.records.size(); ++i) {
    if (pass_through) {
      ++count;
      if (plan.select != "COUNT") MT_RETURN_IF_ERROR(WriteEncodedItem(out, page.records[i]));
      continue;
    }
    MT_ASSIGN_OR_RETURN(Item item, page.Decode(i));
    // The filter sees the index entry (a Query's filter names only what it projects); a fetch
    // is charged for every item read, matched or not.
    const bool matches = plan.expressions.filter.empty() || plan.expressions.filter.Evaluate(&item);
    if (plan.fetch_from_table) {
      MT_ASSIGN_OR_RETURN(auto full, ctx.db.GetItem(*plan.table, table::ExtractKey(*plan.table->description, item)));
      if (!full) continue;
      bytes += ItemSize(*full);
      fetch_units += ReadUnits(ItemSize(*full), mode);
      item = std::move(*full);
    }
    if (!matches) continue;
    ++count;
    if (plan.select == "COUNT") continue;
    if (plan.expressions.projection) {
      WriteItem(out, plan.expressions.projection->Apply(item));
    } else {
      WriteItem(out, item);
    }
  }
  ctx.read_work = {page.records.size(), bytes};
  if (plan.select != "COUNT") out.EndArray();
  out.Key("Count");
  out.Uint64(count);
  out.Key("ScannedCount");
  out.Uint64(page.records.size());
  if (page.last_evaluated_key) {
    out.Key("LastEvaluatedKey");
    WriteItem(out, *page.last_evaluated_key);
  }
  // Query/Scan sum the sizes of what they read and round up once (minimum one unit); an LSI read
  // is charged besides for every table item it fetched, each rounded up on its own.
  double units = SummedReadUnits(page.bytes_read, mode) + fetch_units;
  MT_RETURN_IF_ERROR(ctx.db.throughput().Consume(*plan.table->description, plan.index,
                                                 plan.partition_key ? &*plan.partition_key : nullptr, units,
                                                 /*write=*/false, plan.table->stats->size_bytes.load()));
  // An index read is charged to the index; what an LSI read fetched from the table, to the table.
  Consumption consumed;
  if (plan.index) {
    double index_units = SummedReadUnits(page.bytes_read, mode);
    (plan.index->global ? consumed.global_indexes : consumed.local_indexes).emplace_back(plan.index->name, index_units);
    if (plan.fetch_from_table) consumed.table = fetch_units;
  } else {
    consumed.table = units;
  }
  WriteConsumedCapacity(out, StringOr(ctx.request, "ReturnConsumedCapacity", "NONE"), plan.table->description->name,
                        consumed, true);
  out.EndObject();
  return Status::Ok();
}

}  // namespace monotable::api
