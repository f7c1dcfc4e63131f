#include "table/description_codec.h"

#include "model/json_writer.h"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

namespace monotable::table {
namespace {

using Writer = model::JsonWriter;

void WriteKeySchema(Writer& w, const std::vector<KeyElement>& keys) {
  w.StartArray();
  for (const auto& k : keys) {
    w.StartObject();
    w.Key("n");
    w.String(k.name.c_str(), k.name.size());
    w.Key("r");
    w.Bool(k.role == KeyRole::kRange);
    w.EndObject();
  }
  w.EndArray();
}

void WriteThroughput(Writer& w, const Throughput& t) {
  w.StartObject();
  w.Key("r"); w.Int64(t.read_units);
  w.Key("w"); w.Int64(t.write_units);
  w.Key("li"); w.Double(t.last_increase);
  w.Key("ld"); w.Double(t.last_decrease);
  w.Key("dt"); w.Int64(t.decreases_today);
  w.EndObject();
}

void WriteString(Writer& w, const char* key, const std::string& s) {
  w.Key(key);
  w.String(s.c_str(), s.size());
}

void WriteIndexes(Writer& w, const std::vector<IndexDescription>& indexes) {
  w.StartArray();
  for (const auto& i : indexes) {
    w.StartObject();
    WriteString(w, "name", i.name);
    w.Key("global"); w.Bool(i.global);
    w.Key("prefix"); w.Uint(i.key_prefix);
    w.Key("keys"); WriteKeySchema(w, i.key_schema);
    w.Key("projection"); w.Int(static_cast<int>(i.projection.type));
    w.Key("include");
    w.StartArray();
    for (const auto& a : i.projection.non_key_attributes) w.String(a.c_str(), a.size());
    w.EndArray();
    w.Key("throughput"); WriteThroughput(w, i.throughput);
    WriteString(w, "status", i.status);
    w.Key("backfilling"); w.Bool(i.backfilling);
    w.EndObject();
  }
  w.EndArray();
}

std::string Str(const rapidjson::Value& obj, const char* key) {
  auto it = obj.FindMember(key);
  return it != obj.MemberEnd() && it->value.IsString() ? std::string(it->value.GetString(), it->value.GetStringLength())
                                                        : std::string();
}
double Dbl(const rapidjson::Value& obj, const char* key) {
  auto it = obj.FindMember(key);
  return it != obj.MemberEnd() && it->value.IsNumber() ? it->value.GetDouble() : 0;
}
int64_t Int(const rapidjson::Value& obj, const char* key) {
  auto it = obj.FindMember(key);
  return it != obj.MemberEnd() && it->value.IsInt64() ? it->value.GetInt64() : 0;
}
bool Bool(const rapidjson::Value& obj, const char* key) {
  auto it = obj.FindMember(key);
  return it != obj.MemberEnd() && it->value.IsBool() && it->value.GetBool();
}

std::vector<KeyElement> ReadKeySchema(const rapidjson::Value& arr) {
  std::vector<KeyElement> keys;
  if (!arr.IsArray()) return keys;
  for (const auto& k : arr.GetArray()) keys.push_back({Str(k, "n"), Bool(k, "r") ? KeyRole::kRange : KeyRole::kHash});
  return keys;
}

Throughput ReadThroughput(const rapidjson::Value& t) {
  Throughput out;
  if (!t.IsObject()) return out;
  out.read_units = Int(t, "r");
  out.write_units = Int(t, "w");
  out.last_increase = Dbl(t, "li");
  out.last_decrease = Dbl(t, "ld");
  out.decreases_today = Int(t, "dt");
  return out;
}

std::vector<IndexDescription> ReadIndexes(const rapidjson::Value& arr) {
  std::vector<IndexDescription> out;
  if (!arr.IsArray()) return out;
  for (const auto& v : arr.GetArray()) {
    IndexDescription i;
    i.name = Str(v, "name");
    i.global = Bool(v, "global");
    i.key_prefix = static_cast<uint32_t>(Int(v, "prefix"));
    i.key_schema = ReadKeySchema(v["keys"]);
    i.projection.type = static_cast<ProjectionType>(Int(v, "projection"));
    for (const auto& a : v["include"].GetArray()) i.projection.non_key_attributes.emplace_back(a.GetString());
    i.throughput = ReadThroughput(v["throughput"]);
    i.status = Str(v, "status");
    i.backfilling = Bool(v, "backfilling");
    out.push_back(std::move(i));
  }
  return out;
}

}  // namespace

std::string EncodeDescription(const TableDescription& t) {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  WriteString(w, "name", t.name);
  WriteString(w, "id", t.table_id);
  w.Key("prefix"); w.Uint(t.key_prefix);
  w.Key("created"); w.Double(t.creation_time);
  w.Key("attributes");
  w.StartArray();
  for (const auto& d : t.attribute_definitions) {
    w.StartObject();
    WriteString(w, "n", d.name);
    w.Key("t"); w.Int(static_cast<int>(d.type));
    w.EndObject();
  }
  w.EndArray();
  w.Key("keys"); WriteKeySchema(w, t.key_schema);
  w.Key("ondemand"); w.Bool(t.billing_mode == BillingMode::kPayPerRequest);
  w.Key("billing_changed"); w.Double(t.billing_mode_changed);
  w.Key("billing_given"); w.Bool(t.billing_mode_given);
  w.Key("throughput"); WriteThroughput(w, t.throughput);
  WriteString(w, "class", t.table_class);
  w.Key("protected"); w.Bool(t.deletion_protection);
  w.Key("sse"); w.Bool(t.sse_enabled);
  WriteString(w, "sse_type", t.sse_type);
  WriteString(w, "kms", t.kms_master_key);
  w.Key("stream"); w.Bool(t.stream.enabled);
  WriteString(w, "stream_view", t.stream.view_type);
  WriteString(w, "stream_label", t.stream.label);
  w.Key("stream_prefix"); w.Uint(t.stream.key_prefix);
  w.Key("ttl");
  w.StartObject();
  w.Key("on"); w.Bool(t.ttl.enabled);
  WriteString(w, "attr", t.ttl.attribute);
  w.Key("prefix"); w.Uint(t.ttl.key_prefix);
  w.Key("backfilling"); w.Bool(t.ttl.backfilling);
  w.Key("changed"); w.Double(t.ttl.changed);
  w.EndObject();
  w.Key("gsi"); WriteIndexes(w, t.global_indexes);
  w.Key("lsi"); WriteIndexes(w, t.local_indexes);
  w.Key("tags");
  w.StartArray();
  for (const auto& [k, v] : t.tags) {
    w.StartArray();
    w.String(k.c_str(), k.size());
    w.String(v.c_str(), v.size());
    w.EndArray();
  }
  w.EndArray();
  WriteString(w, "status", t.status);
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

Result<TableDescription> DecodeDescription(std::string_view json) {
  rapidjson::Document doc;
  doc.Parse(json.data(), json.size());
  if (doc.HasParseError() || !doc.IsObject()) return Status(ErrorCode::kCorruption, "corrupt table record");
  TableDescription t;
  t.name = Str(doc, "name");
  t.table_id = Str(doc, "id");
  t.key_prefix = static_cast<uint32_t>(Int(doc, "prefix"));
  t.creation_time = Dbl(doc, "created");
  for (const auto& d : doc["attributes"].GetArray()) {
    t.attribute_definitions.push_back({Str(d, "n"), static_cast<AttrType>(Int(d, "t"))});
  }
  t.key_schema = ReadKeySchema(doc["keys"]);
  t.billing_mode = Bool(doc, "ondemand") ? BillingMode::kPayPerRequest : BillingMode::kProvisioned;
  t.billing_mode_changed = Dbl(doc, "billing_changed");
  t.billing_mode_given = !doc.HasMember("billing_given") || Bool(doc, "billing_given");
  t.throughput = ReadThroughput(doc["throughput"]);
  t.table_class = Str(doc, "class");
  t.deletion_protection = Bool(doc, "protected");
  t.sse_enabled = Bool(doc, "sse");
  t.sse_type = Str(doc, "sse_type");
  t.kms_master_key = Str(doc, "kms");
  t.stream.enabled = Bool(doc, "stream");
  t.stream.view_type = Str(doc, "stream_view");
  t.stream.label = Str(doc, "stream_label");
  t.stream.key_prefix = static_cast<uint32_t>(Int(doc, "stream_prefix"));
  // Through a const reference: RapidJSON's non-const member iterators compare ambiguously in C++20.
  const rapidjson::Value& fields = doc;
  if (auto ttl = fields.FindMember("ttl"); ttl != fields.MemberEnd() && ttl->value.IsObject()) {
    t.ttl.enabled = Bool(ttl->value, "on");
    t.ttl.attribute = Str(ttl->value, "attr");
    t.ttl.key_prefix = static_cast<uint32_t>(Int(ttl->value, "prefix"));
    t.ttl.backfilling = Bool(ttl->value, "backfilling");
    t.ttl.changed = Dbl(ttl->value, "changed");
  }
  t.global_indexes = ReadIndexes(doc["gsi"]);
  t.local_indexes = ReadIndexes(doc["lsi"]);
  for (const auto& pair : doc["tags"].GetArray()) t.tags.emplace_back(pair[0].GetString(), pair[1].GetString());
  t.status = Str(doc, "status");
  if (t.key_schema.empty() || t.name.empty()) return Status(ErrorCode::kCorruption, "corrupt table record");
  return t;
}

}  // namespace monotable::table
