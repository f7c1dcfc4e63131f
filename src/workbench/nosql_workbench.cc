#include "workbench/nosql_workbench.h"

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>

#include <algorithm>
#include <set>

#include "workbench/sampler.h"

namespace monotable::workbench {
namespace {

using Writer = rapidjson::PrettyWriter<rapidjson::StringBuffer>;

std::string Str(const rapidjson::Value& v, const char* field) {
  if (!v.IsObject() || !v.HasMember(field) || !v[field].IsString()) return "";
  return v[field].GetString();
}

std::string PlaceholderName(const std::string& alias, const std::string& fallback) {
  std::string out;
  for (char c : alias) {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') out += c;
  }
  if (out.empty()) out = fallback;
  if (std::isdigit(static_cast<unsigned char>(out[0]))) out = "v" + out;
  if (std::none_of(out.begin(), out.end(), [](char c) { return std::islower(static_cast<unsigned char>(c)); })) {
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));  // GSI1PK -> gsi1pk
  }
  out[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(out[0])));
  return out;
}

// The template behind sample key values (see the contract).
KeyTemplate Infer(const std::vector<std::string>& values, const std::string& alias, const std::string& fallback) {
  if (alias.find('{') != std::string::npos) {
    auto t = ParseKeyTemplate(alias);
    if (t.ok() && !t->IsStatic()) return *t;
  }
  std::string name = PlaceholderName(alias, fallback);
  KeyTemplate t;
  if (values.empty()) {
    t.segments.push_back({true, name, ""});
    return t;
  }
  bool all_equal = std::all_of(values.begin(), values.end(), [&](const std::string& v) { return v == values[0]; });
  if (all_equal && (values.size() > 1 || values[0].find('#') == std::string::npos)) {
    t.segments.push_back({false, values[0], ""});
    return t;
  }
  std::string common = values[0];
  for (const auto& v : values) {
    size_t n = 0;
    while (n < common.size() && n < v.size() && common[n] == v[n]) ++n;
    common.resize(n);
  }
  size_t cut = common.rfind('#');
  common = cut == std::string::npos ? "" : common.substr(0, cut + 1);
  if (!common.empty()) t.segments.push_back({false, common, ""});
  t.segments.push_back({true, name, ""});
  return t;
}

AttrKind KindOf(const std::string& type) {
  if (type == "N") return AttrKind::kNumber;
  if (type == "BOOL") return AttrKind::kBoolean;
  if (type == "L") return AttrKind::kList;
  if (type == "M") return AttrKind::kMap;
  if (type == "SS" || type == "NS" || type == "BS") return AttrKind::kSet;
  if (type == "B") return AttrKind::kBinary;
  return AttrKind::kString;
}

Result<KeyAttribute> KeyOf(const rapidjson::Value& v, const std::string& where) {
  KeyAttribute k;
  k.name = Str(v, "AttributeName");
  std::string type = Str(v, "AttributeType");
  if (k.name.empty()) return Status::Validation(where + ": AttributeName missing");
  if (!type.empty() && type != "S" && type != "N" && type != "B") {
    return Status::Validation(where + ": key type " + type + " (S, N or B)");
  }
  k.type = type.empty() ? 'S' : type[0];
  return k;
}

// Values of `attr` in the sample items (S or N).
std::vector<std::string> Samples(const rapidjson::Value* data, const std::string& attr) {
  std::vector<std::string> out;
  if (!data || !data->IsArray()) return out;
  for (const auto& item : data->GetArray()) {
    if (!item.IsObject() || !item.HasMember(attr.c_str())) continue;
    const auto& v = item[attr.c_str()];
    for (const char* t : {"S", "N"}) {
      if (v.IsObject() && v.HasMember(t) && v[t].IsString()) out.push_back(v[t].GetString());
    }
  }
  return out;
}

}  // namespace

Result<Model> ImportNoSqlWorkbench(std::string_view text) {
  rapidjson::Document doc;
  doc.Parse(text.data(), text.size());
  if (doc.HasParseError()) {
    return Status::Validation(std::string("JSON: ") + rapidjson::GetParseError_En(doc.GetParseError()) + " at offset " +
                              std::to_string(doc.GetErrorOffset()));
  }
  if (!doc.IsObject() || !doc.HasMember("DataModel") || !doc["DataModel"].IsArray()) {
    return Status::Validation("not a NoSQL Workbench model: no DataModel array");
  }
  Model m;
  m.name = PlaceholderName(Str(doc, "ModelName"), "imported");
  std::set<std::string> entity_names;
  for (const auto& t : doc["DataModel"].GetArray()) {
    std::string where = "DataModel[" + Str(t, "TableName") + "]";
    TableDef table;
    table.name = Str(t, "TableName");
    if (table.name.empty() || !t.HasMember("KeyAttributes") || !t["KeyAttributes"].IsObject() ||
        !t["KeyAttributes"].HasMember("PartitionKey")) {
      return Status::Validation(where + ": needs TableName and KeyAttributes.PartitionKey");
    }
    MT_ASSIGN_OR_RETURN(table.partition_key, KeyOf(t["KeyAttributes"]["PartitionKey"], where + ".PartitionKey"));
    if (t["KeyAttributes"].HasMember("SortKey")) {
      MT_ASSIGN_OR_RETURN(table.sort_key, KeyOf(t["KeyAttributes"]["SortKey"], where + ".SortKey"));
    }
    if (t.HasMember("GlobalSecondaryIndexes") && t["GlobalSecondaryIndexes"].IsArray()) {
      for (const auto& g : t["GlobalSecondaryIndexes"].GetArray()) {
        IndexDef index;
        index.name = Str(g, "IndexName");
        std::string gw = where + ".GlobalSecondaryIndexes[" + index.name + "]";
        if (index.name.empty() || !g.HasMember("KeyAttributes") || !g["KeyAttributes"].HasMember("PartitionKey")) {
          return Status::Validation(gw + ": needs IndexName and KeyAttributes.PartitionKey");
        }
        MT_ASSIGN_OR_RETURN(index.partition_key, KeyOf(g["KeyAttributes"]["PartitionKey"], gw));
        if (g["KeyAttributes"].HasMember("SortKey")) {
          MT_ASSIGN_OR_RETURN(index.sort_key, KeyOf(g["KeyAttributes"]["SortKey"], gw));
        }
        std::string projection = g.HasMember("Projection") ? Str(g["Projection"], "ProjectionType") : "ALL";
        if (projection == "KEYS_ONLY") index.projection = ProjectionKind::kKeysOnly;
        if (projection == "INCLUDE") {
          index.projection = ProjectionKind::kInclude;
          if (g["Projection"].HasMember("NonKeyAttributes") && g["Projection"]["NonKeyAttributes"].IsArray()) {
            for (const auto& a : g["Projection"]["NonKeyAttributes"].GetArray()) {
              if (a.IsString()) index.include.push_back(a.GetString());
            }
          }
        }
        table.indexes.push_back(std::move(index));
      }
    }
    std::map<std::string, std::string> types;
    if (t.HasMember("NonKeyAttributes") && t["NonKeyAttributes"].IsArray()) {
      for (const auto& a : t["NonKeyAttributes"].GetArray()) types[Str(a, "AttributeName")] = Str(a, "AttributeType");
    }
    m.tables.push_back(table);
    size_t table_index = m.tables.size() - 1;
    if (!t.HasMember("TableFacets") || !t["TableFacets"].IsArray()) continue;
    for (const auto& f : t["TableFacets"].GetArray()) {
      EntityDef e;
      e.name = Str(f, "FacetName");
      if (e.name.empty()) return Status::Validation(where + ".TableFacets: a facet needs a FacetName");
      std::string base = e.name;
      for (int n = 2; !entity_names.insert(e.name).second; ++n) e.name = base + std::to_string(n);
      e.table = table_index;
      const rapidjson::Value* data = f.HasMember("TableData") ? &f["TableData"] : nullptr;
      const rapidjson::Value& alias = f.HasMember("KeyAttributeAlias") ? f["KeyAttributeAlias"] : f;
      e.keys[table.partition_key.name] =
          Infer(Samples(data, table.partition_key.name), Str(alias, "PartitionKeyAlias"), table.partition_key.name);
      if (table.sort_key) {
        e.keys[table.sort_key->name] =
            Infer(Samples(data, table.sort_key->name), Str(alias, "SortKeyAlias"), table.sort_key->name);
      }
      for (const auto& index : table.indexes) {
        for (const KeyAttribute* k : {&index.partition_key, index.sort_key ? &*index.sort_key : nullptr}) {
          if (!k || e.keys.count(k->name)) continue;
          auto values = Samples(data, k->name);
          if (!values.empty()) e.keys[k->name] = Infer(values, k->name, k->name);
        }
      }
      if (f.HasMember("NonKeyAttributes") && f["NonKeyAttributes"].IsArray()) {
        for (const auto& a : f["NonKeyAttributes"].GetArray()) {
          if (!a.IsString() || e.keys.count(a.GetString())) continue;
          AttributeDef attr;
          attr.name = a.GetString();
          attr.kind = KindOf(types[attr.name]);
          if (attr.kind == AttrKind::kList || attr.kind == AttrKind::kSet) attr.items = 4;
          e.attributes.push_back(std::move(attr));
        }
      }
      m.entities.push_back(std::move(e));
    }
  }
  if (m.tables.empty()) return Status::Validation("DataModel holds no table");
  return m;
}

namespace {

const char* KindName(AttrKind k) {
  switch (k) {
    case AttrKind::kString:
      return "string";
    case AttrKind::kNumber:
      return "number";
    case AttrKind::kBinary:
      return "binary";
    case AttrKind::kBoolean:
      return "boolean";
    case AttrKind::kTimestamp:
      return "timestamp";
    case AttrKind::kList:
      return "list";
    case AttrKind::kMap:
      return "map";
    case AttrKind::kSet:
      return "set";
  }
  return "string";
}

const char* WireType(AttrKind k) {
  switch (k) {
    case AttrKind::kNumber:
      return "N";
    case AttrKind::kBinary:
      return "B";
    case AttrKind::kBoolean:
      return "BOOL";
    case AttrKind::kList:
      return "L";
    case AttrKind::kMap:
      return "M";
    case AttrKind::kSet:
      return "SS";
    default:
      return "S";
  }
}

void WbKey(Writer& w, const char* role, const KeyAttribute& k) {
  w.Key(role);
  w.StartObject();
  w.Key("AttributeName");
  w.String(k.name.c_str());
  w.Key("AttributeType");
  w.String(std::string(1, k.type).c_str());
  w.EndObject();
}

void ModelKey(Writer& w, const char* role, const KeyAttribute& k) {
  w.Key(role);
  w.StartObject();
  w.Key("name");
  w.String(k.name.c_str());
  w.Key("type");
  w.String(std::string(1, k.type).c_str());
  w.EndObject();
}

const char* ProjectionName(ProjectionKind p) {
  return p == ProjectionKind::kAll ? "ALL" : p == ProjectionKind::kKeysOnly ? "KEYS_ONLY" : "INCLUDE";
}

}  // namespace

std::string ExportNoSqlWorkbench(const Model& model) {
  Sampler sampler(model, 2000, 0, 1);
  rapidjson::StringBuffer b;
  Writer w(b);
  w.SetIndent(' ', 2);
  w.StartObject();
  w.Key("ModelName");
  w.String(model.name.empty() ? "monotable model" : model.name.c_str());
  w.Key("DataModel");
  w.StartArray();
  for (size_t ti = 0; ti < model.tables.size(); ++ti) {
    const TableDef& t = model.tables[ti];
    w.StartObject();
    w.Key("TableName");
    w.String(t.name.c_str());
    w.Key("KeyAttributes");
    w.StartObject();
    WbKey(w, "PartitionKey", t.partition_key);
    if (t.sort_key) WbKey(w, "SortKey", *t.sort_key);
    w.EndObject();
    std::set<std::string> keys{t.partition_key.name};
    if (t.sort_key) keys.insert(t.sort_key->name);
    std::map<std::string, std::string> non_key;  // name -> type, in name order
    for (const auto& i : t.indexes) {
      for (const KeyAttribute* k : {&i.partition_key, i.sort_key ? &*i.sort_key : nullptr}) {
        if (k && !keys.count(k->name)) non_key[k->name] = std::string(1, k->type);
      }
    }
    for (const auto& e : model.entities) {
      if (e.table != ti) continue;
      for (const auto& a : e.attributes) {
        if (!keys.count(a.name) && !non_key.count(a.name)) non_key[a.name] = WireType(a.kind);
      }
    }
    w.Key("NonKeyAttributes");
    w.StartArray();
    for (const auto& [name, type] : non_key) {
      w.StartObject();
      w.Key("AttributeName");
      w.String(name.c_str());
      w.Key("AttributeType");
      w.String(type.c_str());
      w.EndObject();
    }
    w.EndArray();
    bool any_gsi = std::any_of(t.indexes.begin(), t.indexes.end(), [](const IndexDef& i) { return i.global; });
    if (any_gsi) {
      w.Key("GlobalSecondaryIndexes");
      w.StartArray();
      for (const auto& i : t.indexes) {
        if (!i.global) continue;
        w.StartObject();
        w.Key("IndexName");
        w.String(i.name.c_str());
        w.Key("KeyAttributes");
        w.StartObject();
        WbKey(w, "PartitionKey", i.partition_key);
        if (i.sort_key) WbKey(w, "SortKey", *i.sort_key);
        w.EndObject();
        w.Key("Projection");
        w.StartObject();
        w.Key("ProjectionType");
        w.String(ProjectionName(i.projection));
        if (i.projection == ProjectionKind::kInclude) {
          w.Key("NonKeyAttributes");
          w.StartArray();
          for (const auto& a : i.include) w.String(a.c_str());
          w.EndArray();
        }
        w.EndObject();
        w.EndObject();
      }
      w.EndArray();
    }
    std::vector<std::string> all_items;
    w.Key("TableFacets");
    w.StartArray();
    for (const auto& e : model.entities) {
      if (e.table != ti) continue;
      w.StartObject();
      w.Key("FacetName");
      w.String(e.name.c_str());
      w.Key("KeyAttributeAlias");
      w.StartObject();
      w.Key("PartitionKeyAlias");
      w.String(e.Key(t.partition_key.name)->Text().c_str());
      if (t.sort_key) {
        w.Key("SortKeyAlias");
        w.String(e.Key(t.sort_key->name)->Text().c_str());
      }
      w.EndObject();
      w.Key("TableData");
      w.StartArray();
      for (int64_t i = 0; i < std::min<int64_t>(3, sampler.Items(e)); ++i) {
        std::string item = sampler.ItemJson(e, sampler.ItemIndexes(e, i));
        w.RawValue(item.c_str(), item.size(), rapidjson::kObjectType);
        all_items.push_back(item);
      }
      w.EndArray();
      w.Key("NonKeyAttributes");
      w.StartArray();
      for (const auto& a : e.attributes) {
        if (!keys.count(a.name)) w.String(a.name.c_str());
      }
      w.EndArray();
      w.EndObject();
    }
    w.EndArray();
    w.Key("TableData");
    w.StartArray();
    for (const auto& item : all_items) w.RawValue(item.c_str(), item.size(), rapidjson::kObjectType);
    w.EndArray();
    w.Key("BillingMode");
    w.String("PAY_PER_REQUEST");
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return std::string(b.GetString()) + "\n";
}

std::string ModelToJson(const Model& model) {
  rapidjson::StringBuffer b;
  Writer w(b);
  w.SetIndent(' ', 2);
  w.StartObject();
  w.Key("version");
  w.Int(1);
  w.Key("name");
  w.String(model.name.c_str());
  w.Key("tables");
  w.StartArray();
  for (const auto& t : model.tables) {
    w.StartObject();
    w.Key("name");
    w.String(t.name.c_str());
    ModelKey(w, "partitionKey", t.partition_key);
    if (t.sort_key) ModelKey(w, "sortKey", *t.sort_key);
    for (bool global : {true, false}) {
      if (std::none_of(t.indexes.begin(), t.indexes.end(), [&](const IndexDef& i) { return i.global == global; }))
        continue;
      w.Key(global ? "globalSecondaryIndexes" : "localSecondaryIndexes");
      w.StartArray();
      for (const auto& i : t.indexes) {
        if (i.global != global) continue;
        w.StartObject();
        w.Key("name");
        w.String(i.name.c_str());
        if (global) ModelKey(w, "partitionKey", i.partition_key);
        if (i.sort_key) ModelKey(w, "sortKey", *i.sort_key);
        w.Key("projection");
        if (i.projection == ProjectionKind::kInclude) {
          w.StartArray();
          for (const auto& a : i.include) w.String(a.c_str());
          w.EndArray();
        } else {
          w.String(ProjectionName(i.projection));
        }
        w.EndObject();
      }
      w.EndArray();
    }
    w.EndObject();
  }
  w.EndArray();
  w.Key("entities");
  w.StartObject();
  for (const auto& e : model.entities) {
    w.Key(e.name.c_str());
    w.StartObject();
    w.Key("table");
    w.String(model.tables[e.table].name.c_str());
    w.Key("count");
    w.Double(e.count);
    w.Key("keys");
    w.StartObject();
    for (const auto& [name, t] : e.keys) {
      w.Key(name.c_str());
      w.String(t.Text().c_str());
    }
    w.EndObject();
    w.Key("attributes");
    w.StartObject();
    for (const auto& a : e.attributes) {
      w.Key(a.name.c_str());
      w.StartObject();
      w.Key("type");
      w.String(KindName(a.kind));
      if (a.items > 0) {
        w.Key("items");
        w.Int64(a.items);
      }
      if (a.max_items) {
        w.Key("maxItems");
        w.Int64(*a.max_items);
      }
      if (!a.format.empty()) {
        w.Key("format");
        w.String(a.format.c_str());
      }
      if (!a.values.empty()) {
        w.Key("values");
        w.StartArray();
        for (const auto& v : a.values) w.String(v.c_str());
        w.EndArray();
      }
      w.EndObject();
    }
    w.EndObject();
    w.EndObject();
  }
  w.EndObject();
  w.EndObject();
  return std::string(b.GetString()) + "\n";
}

}  // namespace monotable::workbench
