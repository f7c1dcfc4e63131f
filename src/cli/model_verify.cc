// `monotable model verify` (model_server.h): every access pattern run against live data, then drift.
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <random>

#include "cli/model_server.h"
#include "model/json_writer.h"
#include "workbench/check.h"
#include "workbench/checks.h"
#include "workbench/language.h"
#include "workbench/sampler.h"

namespace monotable::cli {
namespace {

using namespace workbench;
using Writer = model::JsonWriter;

struct Measure {
  bool explained = false;  // items read came from monotable's explain header
  int calls = 0;
  int pages = 0;
  double read = 0;
  double expected = 0;
  double other = 0;
  double capacity = 0;
};

char KeyType(const TableDef& t, const std::string& name) {
  if (t.partition_key.name == name) return t.partition_key.type;
  if (t.sort_key && t.sort_key->name == name) return t.sort_key->type;
  for (const auto& i : t.indexes) {
    if (i.partition_key.name == name) return i.partition_key.type;
    if (i.sort_key && i.sort_key->name == name) return i.sort_key->type;
  }
  return 'S';
}

std::string KeyValueText(const rapidjson::Value& v) {
  if (v.IsObject() && v.MemberCount() == 1 && v.MemberBegin()->value.IsString())
    return v.MemberBegin()->value.GetString();
  return "";
}

// Does the item belong to one of `entities` as seen through the table or index?
bool BelongsTo(const Model& m, const TableDef& t, const IndexDef* index, const rapidjson::Value& item,
               const std::vector<std::string>* entities) {
  IndexKeyNames names = KeyNamesOf(t, index);
  for (const auto& e : m.entities) {
    if (&m.tables[e.table] != &t) continue;
    if (entities && std::find(entities->begin(), entities->end(), e.name) == entities->end()) continue;
    EntityKeys k = KeysOn(e, t, index);
    if (!k.indexed || !item.HasMember(names.partition->name.c_str())) continue;
    if (!TemplateMatches(*k.partition, e, KeyValueText(item[names.partition->name.c_str()]))) continue;
    if (names.sort && (!item.HasMember(names.sort->name.c_str()) ||
                       !TemplateMatches(*k.sort, e, KeyValueText(item[names.sort->name.c_str()])))) {
      continue;
    }
    return true;
  }
  return false;
}

void Value(Writer& w, char type, const std::string& v) {
  w.StartObject();
  w.Key(type == 'N' ? "N" : "S");
  w.String(v.c_str());
  w.EndObject();
}

void Count(const Model& m, const AccessPattern& p, const TableDef& t, const IndexDef* index,
           const rapidjson::Value& items, Measure& out) {
  for (const auto& item : items.GetArray()) {
    if (BelongsTo(m, t, index, item, &p.entities))
      out.expected += 1;
    else
      out.other += 1;
  }
}

void RunPattern(const Model& m, const AccessPattern& p, const PatternPlan& plan, Sampler& sampler,
                std::mt19937_64& pick, const DynamoClient& client, Measure& out, std::string& error) {
  const TableDef& t = m.tables[p.table];
  const IndexDef* index = p.index.empty() ? nullptr : t.FindIndex(p.index);
  const EntityDef& context = *m.FindEntity(p.entities[0]);
  // Inputs from a seeded item of the first expected entity, so the pattern has something to find;
  // inputs that item does not carry are drawn from their pools.
  int64_t item = std::uniform_int_distribution<int64_t>(0, sampler.Items(context) - 1)(pick);
  PoolIndexes seeded = sampler.ItemIndexes(context, item);
  PoolIndexes inputs;
  for (const auto& in : p.inputs) inputs[in] = seeded.count(in) ? seeded[in] : sampler.RandomIndex(context, in);
  IndexKeyNames names = KeyNamesOf(t, index);
  std::vector<int64_t> shard_values{0};
  int64_t shards = plan.fan_out;
  if (shards > 1) {
    shard_values.clear();
    for (int64_t s = 0; s < shards; ++s) shard_values.push_back(s);
  }
  for (int64_t shard : shard_values) {
    PoolIndexes values = inputs;
    for (const auto& v : plan.shard_variables) values[v] = shard;
    auto render = [&](const std::string& text, bool high) {
      auto tmpl = ParseKeyTemplate(text);
      PoolIndexes vals = values;
      if (tmpl.ok())
        for (const auto& v : tmpl->Variables())
          if (!vals.count(v)) vals[v] = high ? 1000000 : 0;
      return tmpl.ok() ? sampler.Render(*tmpl, context, vals) : text;
    };
    std::string start_key;
    int64_t returned = 0;
    for (int page = 0; page < 50; ++page) {
      rapidjson::StringBuffer b;
      Writer w(b);
      w.StartObject();
      w.Key("TableName");
      w.String(t.name.c_str());
      w.Key("ReturnConsumedCapacity");
      w.String("TOTAL");
      if (p.consistent_read) {
        w.Key("ConsistentRead");
        w.Bool(true);
      }
      std::string op = plan.operation;
      if (op == "GetItem") {
        w.Key("Key");
        w.StartObject();
        w.Key(names.partition->name.c_str());
        Value(w, names.partition->type, render(plan.values[0].second, false));
        if (names.sort) {
          w.Key(names.sort->name.c_str());
          Value(w, names.sort->type, render(plan.values[1].second, false));
        }
        w.EndObject();
      } else {
        if (index) {
          w.Key("IndexName");
          w.String(index->name.c_str());
        }
        if (op == "Query") {
          w.Key("KeyConditionExpression");
          w.String(plan.expression.c_str());
          w.Key("ExpressionAttributeNames");
          w.StartObject();
          for (const auto& [k, v] : plan.names) {
            w.Key(k.c_str());
            w.String(v.c_str());
          }
          w.EndObject();
          w.Key("ExpressionAttributeValues");
          w.StartObject();
          std::vector<std::string> rendered;
          for (const auto& [k, v] : plan.values) rendered.push_back(render(v, k == ":sk2"));
          if (rendered.size() == 3 && rendered[1] > rendered[2]) std::swap(rendered[1], rendered[2]);  // BETWEEN lo, hi
          for (size_t j = 0; j < plan.values.size(); ++j) {
            const std::string& k = plan.values[j].first;
            w.Key(k.c_str());
            Value(w, KeyType(t, k == ":pk" ? names.partition->name : names.sort->name), rendered[j]);
          }
          w.EndObject();
          if (p.order == "desc") {
            w.Key("ScanIndexForward");
            w.Bool(false);
          }
        }
        if (p.limit) {
          w.Key("Limit");
          w.Int64(*p.limit - returned);
        }
        if (!start_key.empty()) {
          w.Key("ExclusiveStartKey");
          w.RawValue(start_key.c_str(), start_key.size(), rapidjson::kObjectType);
        }
      }
      w.EndObject();
      std::string explain;
      auto r = client.Call(op, b.GetString(), nullptr, &explain);
      if (!r.ok()) {
        error = r.status().message();
        return;
      }
      const auto& doc = *r;
      ++out.pages;
      if (doc.HasMember("ConsumedCapacity") && doc["ConsumedCapacity"].HasMember("CapacityUnits")) {
        out.capacity += doc["ConsumedCapacity"]["CapacityUnits"].GetDouble();
      }
      if (op == "GetItem") {
        out.read += 1;
        if (doc.HasMember("Item")) {
          if (BelongsTo(m, t, nullptr, doc["Item"], &p.entities))
            out.expected += 1;
          else
            out.other += 1;
        }
        break;
      }
      // Items read: monotable's explain header when the endpoint sends one, else ScannedCount.
      rapidjson::Document e;
      if (!explain.empty()) e.Parse(explain.c_str());
      if (!explain.empty() && !e.HasParseError() && e.IsObject() && e.HasMember("itemsRead")) {
        out.read += e["itemsRead"].GetDouble();
        out.explained = true;
      } else {
        out.read += doc.HasMember("ScannedCount") ? doc["ScannedCount"].GetDouble() : 0;
      }
      if (doc.HasMember("Items")) {
        Count(m, p, t, index, doc["Items"], out);
        returned += doc["Items"].Size();
      }
      if (!doc.HasMember("LastEvaluatedKey") || (p.limit && returned >= *p.limit)) break;
      rapidjson::StringBuffer kb;
      Writer kw(kb);
      doc["LastEvaluatedKey"].Accept(kw);
      start_key = kb.GetString();
    }
  }
  ++out.calls;
}

int Drift(const Model& m, const DynamoClient& client) {
  int drifted = 0;
  for (const auto& t : m.tables) {
    std::string start_key;
    int64_t items = 0, unmatched = 0;
    std::vector<std::string> examples;
    for (int page = 0; page < 1000; ++page) {
      std::string body =
          "{\"TableName\":\"" + t.name + "\"" + (start_key.empty() ? "" : ",\"ExclusiveStartKey\":" + start_key) + "}";
      auto r = client.Call("Scan", body);
      if (!r.ok()) {
        std::fprintf(stderr, "%s: Scan failed: %s\n", t.name.c_str(), r.status().message().c_str());
        return 1;
      }
      for (const auto& item : (*r)["Items"].GetArray()) {
        ++items;
        if (BelongsTo(m, t, nullptr, item, nullptr)) continue;
        ++unmatched;
        if (examples.size() < 3) {
          std::string key = KeyValueText(item[t.partition_key.name.c_str()]);
          if (t.sort_key && item.HasMember(t.sort_key->name.c_str()))
            key += " / " + KeyValueText(item[t.sort_key->name.c_str()]);
          examples.push_back(key);
        }
      }
      if (!r->HasMember("LastEvaluatedKey")) break;
      rapidjson::StringBuffer kb;
      Writer kw(kb);
      (*r)["LastEvaluatedKey"].Accept(kw);
      start_key = kb.GetString();
    }
    std::printf("drift %s: %lld items, %lld match no entity template", t.name.c_str(), static_cast<long long>(items),
                static_cast<long long>(unmatched));
    for (const auto& e : examples) std::printf("%s %s", e == examples.front() ? " (e.g." : ",", e.c_str());
    std::printf("%s\n", examples.empty() ? "" : ")");
    if (unmatched) ++drifted;
  }
  return drifted;
}

}  // namespace

Result<std::map<std::string, int64_t>> CountItemsByEntity(const Model& m, const DynamoClient& client) {
  std::map<std::string, int64_t> counts;
  for (const auto& e : m.entities) counts[e.name] = 0;
  for (const auto& t : m.tables) {
    std::string start_key;
    for (int page = 0; page < 100000; ++page) {
      std::string body =
          "{\"TableName\":\"" + t.name + "\"" + (start_key.empty() ? "" : ",\"ExclusiveStartKey\":" + start_key) + "}";
      auto r = client.Call("Scan", body);
      if (!r.ok()) return Status::Io(t.name + ": Scan failed: " + r.status().message());
      for (const auto& item : (*r)["Items"].GetArray()) {
        for (const auto& e : m.entities) {
          std::vector<std::string> one{e.name};
          if (&m.tables[e.table] == &t && BelongsTo(m, t, nullptr, item, &one)) {
            ++counts[e.name];
            break;
          }
        }
      }
      if (!r->HasMember("LastEvaluatedKey")) break;
      rapidjson::StringBuffer kb;
      Writer kw(kb);
      (*r)["LastEvaluatedKey"].Accept(kw);
      start_key = kb.GetString();
    }
  }
  return counts;
}

int ModelVerify(const Model& model, const DynamoClient& client, const ServerOptions& options) {
  CheckReport report = RunChecks(model);
  Sampler sampler(model, options.items, options.skew, options.seed);  // as `seed` drew them
  std::mt19937_64 pick(options.seed + 1);
  int failed = 0;
  bool any_explained = false;
  std::printf("%-28s %-8s %5s %5s %8s %8s %6s %9s  %s\n", "pattern", "op", "calls", "pages", "read", "expected",
              "ampl.", "RCU/call", "result");
  for (size_t i = 0; i < model.patterns.size(); ++i) {
    const AccessPattern& p = model.patterns[i];
    const PatternPlan& plan = report.patterns[i];
    if (!plan.served) {
      std::printf("%-28s %-8s %s\n", p.name.c_str(), plan.operation.c_str(), "not served (see model check)  FAIL");
      ++failed;
      continue;
    }
    Measure m;
    std::string error;
    for (int s = 0; s < options.samples && error.empty(); ++s)
      RunPattern(model, p, plan, sampler, pick, client, m, error);
    if (!error.empty()) {
      std::printf("%-28s %-8s error: %s  FAIL\n", p.name.c_str(), plan.operation.c_str(), error.c_str());
      ++failed;
      continue;
    }
    any_explained = any_explained || m.explained;
    // GetItem misses and empty Queries read nothing to amplify; other items returned do count.
    double amplification = m.expected > 0 ? m.read / m.expected : (m.other > 0 ? m.read : 1);
    std::string result = "ok";
    if (plan.operation == "Scan")
      result = "FAIL: scans";
    else if ((m.expected > 0 || m.other > 0) && amplification > options.max_amplification) {
      std::string expected;
      for (const auto& e : p.entities) expected += (expected.empty() ? "" : ", ") + e;
      result = "FAIL: reads " + Figure(amplification) + "x the " + expected + " items it returns" +
               (m.other > 0 ? " (" + Figure(m.other) + " items of other entities came back)" : "");
    } else if (m.expected == 0) {
      result = "ok (sampled inputs found nothing)";
    }
    if (result.rfind("FAIL", 0) == 0) ++failed;
    std::printf("%-28s %-8s %5d %5d %8s %8s %6s %9s  %s\n", p.name.c_str(), plan.operation.c_str(), m.calls, m.pages,
                Figure(m.read).c_str(), Figure(m.expected).c_str(), Figure(amplification).c_str(),
                Figure(m.calls ? m.capacity / m.calls : 0).c_str(), result.c_str());
  }
  std::printf("(items read: %s)\n", any_explained ? "monotable's explain header"
                                                  : "the responses' ScannedCount; the endpoint sent no explain header");
  int drifted = Drift(model, client);
  std::printf("\n%d pattern%s failed, %d table%s with drift: %s\n", failed, failed == 1 ? "" : "s", drifted,
              drifted == 1 ? "" : "s", failed || drifted ? "FAILED" : "OK");
  return failed || drifted ? 1 : 0;
}

}  // namespace monotable::cli
