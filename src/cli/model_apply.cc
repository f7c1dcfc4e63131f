// `monotable model apply` (model_server.h): CreateTable for each table of a model.
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <chrono>
#include <cstdio>
#include <set>
#include <thread>

#include "cli/model_server.h"
#include "model/json_writer.h"

namespace monotable::cli {
namespace {

using workbench::IndexDef;
using workbench::KeyAttribute;
using workbench::ProjectionKind;
using workbench::TableDef;

using Writer = model::JsonWriter;

void KeySchema(Writer& w, const KeyAttribute& hash, const std::optional<KeyAttribute>& range) {
  w.Key("KeySchema");
  w.StartArray();
  for (const KeyAttribute* k : {&hash, range ? &*range : nullptr}) {
    if (!k) continue;
    w.StartObject();
    w.Key("AttributeName");
    w.String(k->name.c_str());
    w.Key("KeyType");
    w.String(k == &hash ? "HASH" : "RANGE");
    w.EndObject();
  }
  w.EndArray();
}

void Index(Writer& w, const IndexDef& i) {
  w.StartObject();
  w.Key("IndexName");
  w.String(i.name.c_str());
  KeySchema(w, i.partition_key, i.sort_key);
  w.Key("Projection");
  w.StartObject();
  w.Key("ProjectionType");
  w.String(i.projection == ProjectionKind::kAll        ? "ALL"
           : i.projection == ProjectionKind::kKeysOnly ? "KEYS_ONLY"
                                                       : "INCLUDE");
  if (i.projection == ProjectionKind::kInclude) {
    w.Key("NonKeyAttributes");
    w.StartArray();
    for (const auto& a : i.include) w.String(a.c_str());
    w.EndArray();
  }
  w.EndObject();
  w.EndObject();
}

}  // namespace

std::string CreateTableJson(const TableDef& t) {
  rapidjson::StringBuffer b;
  Writer w(b);
  w.StartObject();
  w.Key("TableName");
  w.String(t.name.c_str());
  w.Key("BillingMode");
  w.String("PAY_PER_REQUEST");
  w.Key("AttributeDefinitions");
  w.StartArray();
  std::set<std::string> seen;
  auto define = [&](const KeyAttribute& k) {
    if (!seen.insert(k.name).second) return;
    w.StartObject();
    w.Key("AttributeName");
    w.String(k.name.c_str());
    w.Key("AttributeType");
    w.String(std::string(1, k.type).c_str());
    w.EndObject();
  };
  define(t.partition_key);
  if (t.sort_key) define(*t.sort_key);
  for (const auto& i : t.indexes) {
    define(i.partition_key);
    if (i.sort_key) define(*i.sort_key);
  }
  w.EndArray();
  KeySchema(w, t.partition_key, t.sort_key);
  for (bool global : {true, false}) {
    bool any = false;
    for (const auto& i : t.indexes) any = any || i.global == global;
    if (!any) continue;
    w.Key(global ? "GlobalSecondaryIndexes" : "LocalSecondaryIndexes");
    w.StartArray();
    for (const auto& i : t.indexes)
      if (i.global == global) Index(w, i);
    w.EndArray();
  }
  w.EndObject();
  return b.GetString();
}

int ModelApply(const workbench::Model& model, const DynamoClient& client) {
  int failures = 0;
  for (const auto& t : model.tables) {
    std::string type;
    auto created = client.Call("CreateTable", CreateTableJson(t), &type);
    if (!created.ok() && type == "ResourceInUseException") {
      std::printf("%s: exists, left as it is\n", t.name.c_str());
      continue;
    }
    if (!created.ok()) {
      std::fprintf(stderr, "%s: CreateTable failed: %s\n", t.name.c_str(), created.status().message().c_str());
      ++failures;
      continue;
    }
    std::string describe = "{\"TableName\":\"" + t.name + "\"}";
    for (int attempt = 0; attempt < 120; ++attempt) {
      auto d = client.Call("DescribeTable", describe);
      if (d.ok() && (*d)["Table"]["TableStatus"] == "ACTIVE") break;
      std::this_thread::sleep_for(std::chrono::milliseconds(500));
    }
    std::printf("%s: created (%zu indexes)\n", t.name.c_str(), t.indexes.size());
  }
  return failures ? 2 : 0;
}

}  // namespace monotable::cli
