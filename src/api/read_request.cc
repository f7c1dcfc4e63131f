#include "api/read_request.h"

#include "api/capacity.h"
#include "api/item_request.h"
#include "api/request_fields.h"
#include "model/capacity.h"
#include "table/index_entries.h"
#include "table/keys.h"

namespace monotable::api {
namespace {

Status InvalidStart(const std::string& why) {
  return Status::Validation("The provided starting key is invalid: " + why);
}

Status CheckStartKey(const ReadPlan& plan, const Item& start) {
  const TableDescription& table = *plan.table->description;
  std::vector<const KeyElement*> expected;
  for (const auto& k : table.key_schema) expected.push_back(&k);
  if (plan.index) {
    for (const auto& k : plan.index->key_schema) {
      bool dup = false;
      for (const auto* e : expected) dup = dup || e->name == k.name;
      if (!dup) expected.push_back(&k);
    }
  }
  if (start.size() != expected.size()) {
    return plan.index ? Status::Validation("The provided starting key is invalid")
                      : InvalidStart("The provided key element does not match the schema");
  }
  for (const KeyElement* k : expected) {
    auto it = start.find(k->name);
    AttrType type = *table.AttributeType(k->name);
    if (it == start.end() || it->second.type() != type) {
      return plan.index ? Status::Validation("The provided starting key is invalid")
                        : InvalidStart("The provided key element does not match the schema");
    }
    if ((type == AttrType::kS || type == AttrType::kB) && it->second.s().empty()) {
      return InvalidStart(
          "One or more parameter values were invalid: The AttributeValue for a key attribute cannot contain an empty " +
          std::string(type == AttrType::kS ? "string" : "binary") + " value. Key: " + k->name);
    }
  }
  return Status::Ok();
}

}  // namespace

Status PrepareRead(OperationContext& ctx, ReadPlan& plan, unsigned kinds) {
  const auto& req = ctx.request;
  MT_ASSIGN_OR_RETURN(plan.expressions, ParseRequestExpressions(req, kinds));
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
  if (Member(req, "Select") && has_projection && plan.select != "SPECIFIC_ATTRIBUTES") {
    return Status::Validation(
        "Cannot specify the AttributesToGet when choosing to get ALL_ATTRIBUTES, ALL_PROJECTED_ATTRIBUTES or COUNT");
  }
  if (plan.select == "ALL_PROJECTED_ATTRIBUTES" && !plan.index) {
    return Status::Validation("ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName");
  }
  if (plan.index && plan.select == "ALL_ATTRIBUTES" && plan.index->projection.type != ProjectionType::kAll) {
    if (plan.index->global) {
      return Status::Validation(
          "One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not supported for global "
          "secondary index " + plan.index->name + " because its projection type is not ALL");
    }
    plan.fetch_from_table = true;
  }
  if (const auto* start = Member(req, "ExclusiveStartKey")) {
    auto decoded = DecodeItem(*start);
    if (!decoded.ok()) return InvalidStart(decoded.status().message());
    MT_RETURN_IF_ERROR(CheckStartKey(plan, *decoded));
    plan.exclusive_start = std::move(decoded).value();
  }
  if (auto limit = IntMember(req, "Limit")) plan.page.limit = *limit;
  plan.page.exclusive_start = plan.exclusive_start ? &*plan.exclusive_start : nullptr;
  return CheckProjectionKeys(plan.expressions, table);
}

Status WriteReadResponse(OperationContext& ctx, const ReadPlan& plan, table::Page page) {
  auto& out = ctx.out;
  uint64_t bytes = page.bytes_read;
  size_t count = 0;
  out.StartObject();
  if (plan.select != "COUNT") {
    out.Key("Items");
    out.StartArray();
  }
  for (Item& item : page.items) {
    if (plan.fetch_from_table) {
      MT_ASSIGN_OR_RETURN(auto full, ctx.db.GetItem(*plan.table, table::ExtractKey(*plan.table->description, item)));
      if (!full) continue;
      bytes += ItemSize(*full);
      item = std::move(*full);
    }
    if (!plan.expressions.filter.empty() && !plan.expressions.filter.Evaluate(&item)) continue;
    ++count;
    if (plan.select == "COUNT") continue;
    WriteItem(out, plan.expressions.projection ? plan.expressions.projection->Apply(item) : item);
  }
  if (plan.select != "COUNT") out.EndArray();
  out.Key("Count");
  out.Uint64(count);
  out.Key("ScannedCount");
  out.Uint64(page.items.size());
  if (page.last_evaluated_key) {
    out.Key("LastEvaluatedKey");
    WriteItem(out, *page.last_evaluated_key);
  }
  // Query/Scan sum the sizes of everything read and round up once (minimum one unit).
  double units = SummedReadUnits(bytes, plan.consistent ? ReadMode::kStrong : ReadMode::kEventual);
  WriteConsumedCapacity(out, StringOr(ctx.request, "ReturnConsumedCapacity", "NONE"),
                        plan.table->description->name, units, true);
  out.EndObject();
  return Status::Ok();
}

}  // namespace monotable::api
