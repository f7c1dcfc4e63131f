#include "api/gsi_updates.h"

#include <set>

#include "api/request_fields.h"
#include "api/table_request.h"

namespace monotable::api {
namespace {

Status Invalid(const std::string& m) { return Status::Validation("One or more parameter values were invalid: " + m); }

std::string IndexNameOf(const rapidjson::Value& update) {
  for (const char* action : {"Update", "Create", "Delete"}) {
    if (const auto* a = Member(update, action)) return std::string(StringOr(*a, "IndexName", ""));
  }
  return "";
}

std::string SchemaText(const std::vector<KeyElement>& keys, const TableDescription& t,
                       const std::vector<AttributeDefinition>& defs) {
  std::string out = "Schema:[";
  for (size_t i = 0; i < keys.size(); ++i) {
    AttrType type = AttrType::kS;
    for (const auto& d : defs)
      if (d.name == keys[i].name) type = d.type;
    if (auto existing = t.AttributeType(keys[i].name)) type = *existing;
    out += std::string(i ? ", " : "") + "SchemaElement: key{" + keys[i].name + ":" + std::string(AttrTypeName(type)) +
           ":" + (keys[i].role == KeyRole::kHash ? "HASH" : "RANGE") + "}";
  }
  return out + "]";
}

// Drops attribute definitions that no key schema uses any more.
void PruneDefinitions(TableDescription& table) {
  std::set<std::string> used;
  for (const auto& k : table.key_schema) used.insert(k.name);
  for (const auto* list : {&table.global_indexes, &table.local_indexes}) {
    for (const auto& i : *list)
      for (const auto& k : i.key_schema) used.insert(k.name);
  }
  std::erase_if(table.attribute_definitions, [&](const AttributeDefinition& d) { return !used.count(d.name); });
}

}  // namespace

Status CheckGlobalIndexKeySchema(const std::vector<KeyElement>& keys) {
  for (size_t i = 0; i < keys.size(); ++i) {
    for (size_t j = i + 1; j < keys.size(); ++j) {
      if (keys[i].name != keys[j].name) continue;
      // AWS's two texts (ack-api-quirks DDB-TABLE-123 and -442, recorded 2026-10): a two-element key
      // keeps the sentence it had before multi-attribute keys (dynalite's recordings), a longer key
      // gets the general one.
      if (keys.size() == 2) {
        return Status::Validation("Both the Hash Key and the Range Key element in the KeySchema have the same name");
      }
      return Status::Validation("The KeySchema contains multiple key attributes with the same name");
    }
  }
  if (keys.empty() || keys[0].role != KeyRole::kHash) {
    return Status::Validation("Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
  }
  size_t hashes = 0, ranges = 0;
  for (const auto& k : keys) {
    if (k.role == KeyRole::kHash) {
      if (ranges > 0) {
        return Status::Validation(
            "One or more parameter values were invalid: All HASH key attributes must precede RANGE key attributes in "
            "the KeySchema");
      }
      ++hashes;
    } else {
      ++ranges;
    }
  }
  // AWS's words: ack-api-quirks DDB-TABLE-442 (ValidationException catalogue, verified 2026-10-09).
  const char* kTooMany =
      "One or more parameter values were invalid: The KeySchema exceeds the maximum allowed number of ";
  if (hashes > 4) return Status::Validation(std::string(kTooMany) + "HASH key attributes");
  if (ranges > 4) return Status::Validation(std::string(kTooMany) + "RANGE key attributes");
  return Status::Ok();
}

Status CheckProjection(const rapidjson::Value& projection) {
  // AWS's words: dynamodb-conformance's error-messages/createTable.test.ts (INCLUDE without
  // NonKeyAttributes) and ack-api-quirks' DynamoDB error catalogue (the others).
  auto type = StringMember(projection, "ProjectionType");
  if (!type) return Invalid("Unknown ProjectionType: null");
  const rapidjson::Value* attrs = Member(projection, "NonKeyAttributes");
  if (attrs && *type != "INCLUDE") {
    return Invalid("ProjectionType is " + std::string(*type) + ", but NonKeyAttributes is specified");
  }
  if (!attrs && *type == "INCLUDE") return Invalid("ProjectionType is INCLUDE, but NonKeyAttributes is not specified");
  if (attrs) {
    std::set<std::string_view> seen;
    for (const auto& a : attrs->GetArray()) {
      std::string_view name(a.GetString(), a.GetStringLength());
      if (!seen.insert(name).second) return Invalid("Duplicate element in NonKeyAttributes: " + std::string(name));
    }
  }
  return Status::Ok();
}

// The messages below are AWS's current ones for UpdateTable (ack-api-quirks' DynamoDB error
// catalogue, recorded against AWS in 2026), which differ from CreateTable's in places.
Status ValidateGsiUpdates(const rapidjson::Value& request) {
  const rapidjson::Value* updates = Member(request, "GlobalSecondaryIndexUpdates");
  if (!updates) return Status::Ok();
  std::set<std::string> names;
  for (const auto& update : updates->GetArray()) {
    int actions =
        (Member(update, "Update") ? 1 : 0) + (Member(update, "Create") ? 1 : 0) + (Member(update, "Delete") ? 1 : 0);
    if (actions == 0) {
      return Invalid(
          "One of GlobalSecondaryIndexUpdate.Update, GlobalSecondaryIndexUpdate.Create, "
          "GlobalSecondaryIndexUpdate.Delete must not be null");
    }
    if (actions > 1) {
      return Invalid("Only one global secondary index action is allowed per GlobalSecondaryIndexUpdate object");
    }
    std::string name = IndexNameOf(update);
    if (!names.insert(name).second) {
      return Invalid("Only one global secondary index update per index is allowed simultaneously. Index: " + name);
    }
    if (const auto* create = Member(update, "Create")) {
      if (!Member(*create, "KeySchema") || !Member(*create, "Projection")) {
        return Invalid("KeySchema and Projection must be specified for GlobalSecondaryIndexUpdate.Create");
      }
      MT_RETURN_IF_ERROR(CheckProjection(*Member(*create, "Projection")));
    }
  }
  return Status::Ok();
}

Status ApplyGsiUpdates(OperationContext& ctx, TableDescription& table, std::optional<uint32_t> new_index_prefix,
                       GsiChange& change) {
  const rapidjson::Value* updates = Member(ctx.request, "GlobalSecondaryIndexUpdates");
  if (!updates || updates->Empty()) return Status::Ok();
  int creates_or_deletes = 0;
  for (const auto& update : updates->GetArray()) {
    if (Member(update, "Create") || Member(update, "Delete")) ++creates_or_deletes;
  }
  bool building = false;
  for (const auto& i : table.global_indexes) building = building || i.status != "ACTIVE";
  if (creates_or_deletes > 1 || (creates_or_deletes == 1 && building)) {
    return Status(ErrorCode::kLimitExceeded,
                  "Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table");
  }

  std::vector<AttributeDefinition> defs;
  if (const auto* d = Member(ctx.request, "AttributeDefinitions")) {
    for (const auto& def : d->GetArray()) {
      std::string_view type = StringOr(def, "AttributeType", "S");
      defs.push_back({std::string(StringOr(def, "AttributeName", "")), type == "N"   ? AttrType::kN
                                                                       : type == "B" ? AttrType::kB
                                                                                     : AttrType::kS});
    }
  }
  bool on_demand = table.billing_mode == BillingMode::kPayPerRequest;

  for (const auto& update : updates->GetArray()) {
    if (const auto* u = Member(update, "Update")) {
      std::string name(StringOr(*u, "IndexName", ""));
      IndexDescription* index = nullptr;
      for (auto& i : table.global_indexes)
        if (i.name == name) index = &i;
      if (!index) return Status::NotFound("Requested resource not found: Index: " + name + " not found");
      if (const auto* t = Member(*u, "ProvisionedThroughput")) {
        if (on_demand) {
          return Invalid("Neither ReadCapacityUnits nor WriteCapacityUnits can be specified for index: " + name +
                         " when BillingMode is PAY_PER_REQUEST");
        }
        Throughput wanted = ReadThroughput(t);
        index->throughput.read_units = wanted.read_units;
        index->throughput.write_units = wanted.write_units;
      }
      continue;
    }
    if (const auto* d = Member(update, "Delete")) {
      std::string name(StringOr(*d, "IndexName", ""));
      bool global = false;
      for (const auto& i : table.global_indexes) global = global || i.name == name;
      if (!global) {
        if (table.FindIndex(name)) {
          return Status::Validation("Cannot delete an index that is not a GlobalSecondaryIndex: " + name);
        }
        return Status::NotFound("Requested resource not found: Index: " + name + " not found");
      }
      for (const auto& i : table.global_indexes) {
        if (i.name == name) change.dropped_prefix = i.key_prefix;
      }
      std::erase_if(table.global_indexes, [&](const IndexDescription& i) { return i.name == name; });
      PruneDefinitions(table);
      continue;
    }
    const rapidjson::Value& create = *Member(update, "Create");
    IndexDescription index = ReadIndex(create, true);
    if (table.FindIndex(index.name)) return Status::Validation("Attempting to create an index which already exists");
    if (!Member(ctx.request, "AttributeDefinitions")) {
      return Invalid("AttributeDefinitions is not specified for index: " + index.name);
    }
    for (const auto& k : index.key_schema) {
      auto given =
          std::find_if(defs.begin(), defs.end(), [&](const AttributeDefinition& d) { return d.name == k.name; });
      if (given == defs.end()) {
        return Invalid("Global Secondary Index key attribute " + k.name + " is not defined in AttributeDefinitions");
      }
      if (auto existing = table.AttributeType(k.name); existing && *existing != given->type) {
        return Invalid(
            "Attributes cannot be redefined. Please check that your attribute has the same type as previously "
            "defined. Existing schema: " +
            SchemaText({k}, table, {}) + " New schema: " + SchemaText({k}, TableDescription{}, defs));
      }
    }
    MT_RETURN_IF_ERROR(CheckGlobalIndexKeySchema(index.key_schema));
    if (on_demand && Member(create, "ProvisionedThroughput")) {
      return Invalid("Neither ReadCapacityUnits nor WriteCapacityUnits can be specified for index: " + index.name +
                     " when BillingMode is PAY_PER_REQUEST");
    }
    if (!on_demand && !Member(create, "ProvisionedThroughput")) {
      return Invalid("ProvisionedThroughput must be specified for index: " + index.name);
    }
    if (table.global_indexes.size() >= 20) {
      return Invalid("GlobalSecondaryIndex count exceeds the per-table limit of 20");
    }
    // The 100 projected attributes are counted over every index of the table, as at CreateTable.
    size_t projected = index.projection.non_key_attributes.size();
    for (const auto* indexes : {&table.global_indexes, &table.local_indexes}) {
      for (const auto& i : *indexes) projected += i.projection.non_key_attributes.size();
    }
    if (projected > 100) return Invalid("Number of projected attributes in all indexes exceeds limit of 100");
    for (const auto& k : index.key_schema) {
      if (!table.AttributeType(k.name)) {
        auto given =
            std::find_if(defs.begin(), defs.end(), [&](const AttributeDefinition& d) { return d.name == k.name; });
        table.attribute_definitions.push_back(*given);
      }
    }
    if (!new_index_prefix) return Status::Internal("no key space allocated for the new index");
    index.key_prefix = *new_index_prefix;
    index.status = "CREATING";
    index.backfilling = true;
    change.created = index.name;
    table.global_indexes.push_back(std::move(index));
  }
  return Status::Ok();
}

}  // namespace monotable::api
