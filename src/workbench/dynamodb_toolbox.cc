#include "workbench/dynamodb_toolbox.h"

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

#include <memory>
#include <optional>

namespace monotable::workbench {
namespace {

using Value = rapidjson::Value;

std::optional<std::string> Str(const Value& v, const char* key) {
  if (!v.IsObject() || !v.HasMember(key) || !v[key].IsString()) return std::nullopt;
  return std::string(v[key].GetString(), v[key].GetStringLength());
}

std::string Literal(const std::string& s) {  // a template literal: braces doubled
  std::string out;
  for (char c : s) {
    if (c == '{' || c == '}') out += c;
    out += c;
  }
  return out;
}

Result<KeyAttribute> ReadKey(const Value& v, const std::string& where) {
  auto name = Str(v, "name");
  auto type = Str(v, "type");
  if (!name || name->empty()) return Status::Validation(where + ".name: missing");
  if (!type) return Status::Validation(where + ".type: missing");
  if (*type == "string") return KeyAttribute{*name, 'S'};
  if (*type == "number") return KeyAttribute{*name, 'N'};
  if (*type == "binary") return KeyAttribute{*name, 'B'};
  return Status::Validation(where + ".type: \"" + *type + "\" is not string, number or binary");
}

struct TableInfo {
  TableDef def;
  std::string entity_attribute = "_et";  // entityAttributeSavedAs
};

Result<TableInfo> ReadTable(const Value& v, const std::string& where, const std::string& default_name) {
  TableInfo t;
  t.def.name = Str(v, "tableName").value_or(Str(v, "name").value_or(default_name));
  if (!v.HasMember("partitionKey")) return Status::Validation(where + ".partitionKey: missing");
  auto pk = ReadKey(v["partitionKey"], where + ".partitionKey");
  if (!pk.ok()) return pk.status();
  t.def.partition_key = *pk;
  if (v.HasMember("sortKey")) {
    auto sk = ReadKey(v["sortKey"], where + ".sortKey");
    if (!sk.ok()) return sk.status();
    t.def.sort_key = *sk;
  }
  if (auto et = Str(v, "entityAttributeSavedAs")) t.entity_attribute = *et;
  if (v.HasMember("indexes")) {
    if (!v["indexes"].IsObject()) return Status::Validation(where + ".indexes: expected an object");
    std::vector<IndexDef> locals;
    for (auto it = v["indexes"].MemberBegin(); it != v["indexes"].MemberEnd(); ++it) {
      IndexDef i;
      i.name = it->name.GetString();
      std::string at = where + ".indexes." + i.name;
      const Value& x = it->value;
      if (!x.IsObject()) return Status::Validation(at + ": expected an object");
      i.global = Str(x, "type").value_or("global") != "local";
      if (i.global) {
        if (!x.HasMember("partitionKey")) return Status::Validation(at + ".partitionKey: missing");
        auto ipk = ReadKey(x["partitionKey"], at + ".partitionKey");
        if (!ipk.ok()) return ipk.status();
        i.partition_key = *ipk;
      } else {
        i.partition_key = t.def.partition_key;
        if (!x.HasMember("sortKey")) return Status::Validation(at + ".sortKey: a local index needs one");
      }
      if (x.HasMember("sortKey")) {
        auto isk = ReadKey(x["sortKey"], at + ".sortKey");
        if (!isk.ok()) return isk.status();
        i.sort_key = *isk;
      }
      (i.global ? t.def.indexes : locals).push_back(std::move(i));
    }
    for (auto& l : locals) t.def.indexes.push_back(std::move(l));  // GSIs then LSIs
  }
  return t;
}

bool SameKey(const std::optional<KeyAttribute>& a, const std::optional<KeyAttribute>& b) {
  return a.has_value() == b.has_value() && (!a || (a->name == b->name && a->type == b->type));
}

struct Importer {
  std::string default_name;
  std::vector<TableInfo> tables;
  ToolboxImport out;

  Result<size_t> Merge(TableInfo t, const std::string& where) {
    for (size_t n = 0; n < tables.size(); ++n) {
      TableInfo& have = tables[n];
      if (have.def.name != t.def.name) continue;
      if (!SameKey(have.def.partition_key, t.def.partition_key) || !SameKey(have.def.sort_key, t.def.sort_key))
        return Status::Validation(where + ": table " + t.def.name + " has other keys than another DTO gives it");
      for (auto& i : t.def.indexes)
        if (!have.def.FindIndex(i.name)) have.def.indexes.push_back(i);
      return n;
    }
    tables.push_back(std::move(t));
    return tables.size() - 1;
  }

  void Warn(const std::string& code, const std::string& entity, const std::string& message, const std::string& fix) {
    Finding f;
    f.code = code;
    f.severity = Severity::kWarning;
    f.subject_kind = "entity";
    f.subject = entity;
    f.message = message;
    f.fix = fix;
    out.findings.push_back(std::move(f));
  }

  static AttrKind Kind(const std::string& type) {
    if (type == "number") return AttrKind::kNumber;
    if (type == "binary") return AttrKind::kBinary;
    if (type == "boolean") return AttrKind::kBoolean;
    if (type == "set") return AttrKind::kSet;
    if (type == "list") return AttrKind::kList;
    if (type == "map" || type == "record") return AttrKind::kMap;
    return AttrKind::kString;
  }

  // The template of key attribute `key` (stored name) given by the DTO attribute `name`.
  Result<KeyTemplate> KeyFrom(const EntityDef& e, const KeyAttribute& key, const std::string& name, const Value& a,
                              bool table_key) {
    std::string placeholder = "{" + Literal(name) + "}";
    auto computed = [&](const std::string& why) -> Result<KeyTemplate> {
      Warn("import.key-template", e.name,
           "key attribute " + key.name + " " + why +
               ": DynamoDB-Toolbox computes it in code, which the DTO does not carry; "
               "its template is the placeholder " +
               placeholder,
           "write the template of " + key.name + " for " + e.name + " (e.g. \"" +
               (key.type == 'S' ? std::string("PREFIX#{id}") : std::string("{n}")) + "\") in the model file");
      return ParseKeyTemplate(placeholder);
    };
    // The transformers that serialize: prefix, suffix and a pipe of them, applied in order
    // around the value; anything else (custom) is code.
    std::string prefix, suffix;
    if (a.IsObject() && a.HasMember("transform") && a["transform"].IsObject()) {
      std::vector<const Value*> steps = {&a["transform"]};
      if (Str(a["transform"], "transformerId").value_or("") == "pipe") {
        steps.clear();
        if (a["transform"].HasMember("transformers") && a["transform"]["transformers"].IsArray()) {
          for (const auto& step : a["transform"]["transformers"].GetArray()) steps.push_back(&step);
        }
      }
      for (const Value* t : steps) {
        std::string id = Str(*t, "transformerId").value_or("");
        std::string delimiter = Str(*t, "delimiter").value_or("#");
        if (id == "prefix" && Str(*t, "prefix")) {
          prefix = *Str(*t, "prefix") + delimiter + prefix;
        } else if (id == "suffix" && Str(*t, "suffix")) {
          suffix += delimiter + *Str(*t, "suffix");
        } else {
          return computed("has a custom transformer");
        }
      }
    }
    for (const char* link : {"keyLink", "putLink"})
      if (a.IsObject() && a.HasMember(link)) return computed(std::string("is linked (") + link + ")");
    for (const char* def : {"keyDefault", "putDefault"}) {
      if (!a.IsObject() || !a.HasMember(def)) continue;
      const Value& d = a[def];
      if (Str(d, "defaulterId").value_or("") == "value" && d.HasMember("value") && d["value"].IsString() &&
          key.type == 'S')
        return ParseKeyTemplate(Literal(prefix + d["value"].GetString() + suffix));
      return computed(std::string("has a ") + def + " the DTO does not give as a string");
    }
    bool appended = a.IsObject() && a.HasMember("hidden") && a["hidden"].IsBool() && a["hidden"].GetBool() &&
                    !a.HasMember("savedAs") && table_key && name == key.name;
    if (appended) return computed("is not in the entity's schema (computeKey)");
    if (key.type != 'S' && (!prefix.empty() || !suffix.empty())) {
      return computed("is a number or binary with a prefix or suffix");
    }
    return ParseKeyTemplate(Literal(prefix) + placeholder + Literal(suffix));
  }

  Status Entity(const Value& v, const std::string& where) {
    EntityDef e;
    auto name = Str(v, "entityName");
    if (!name) name = Str(v, "name");
    if (!name || name->empty()) return Status::Validation(where + ".entityName: missing");
    e.name = *name;
    if (out.model.FindEntity(e.name)) return Status::Validation(where + ": entity " + e.name + " given twice");
    if (!v.HasMember("table") || !v["table"].IsObject()) return Status::Validation(where + ".table: missing");
    auto table = ReadTable(v["table"], where + ".table", default_name);
    if (!table.ok()) return table.status();
    auto index = Merge(std::move(*table), where + ".table");
    if (!index.ok()) return index.status();
    e.table = *index;
    const TableInfo& t = tables[e.table];
    if (!v.HasMember("schema") || !v["schema"].IsObject() || !v["schema"].HasMember("attributes") ||
        !v["schema"]["attributes"].IsObject())
      return Status::Validation(where + ".schema.attributes: missing");
    const Value& attrs = v["schema"]["attributes"];

    std::vector<const KeyAttribute*> keys = {&t.def.partition_key};
    if (t.def.sort_key) keys.push_back(&*t.def.sort_key);
    for (const auto& i : t.def.indexes) {
      if (i.global) keys.push_back(&i.partition_key);
      if (i.sort_key) keys.push_back(&*i.sort_key);
    }
    auto is_key = [&](const std::string& stored) {
      for (const auto* k : keys)
        if (k->name == stored) return true;
      return false;
    };
    for (const auto* k : keys) {
      if (e.keys.count(k->name)) continue;
      bool table_key = k == &t.def.partition_key || (t.def.sort_key && k == &*t.def.sort_key);
      const Value* found = nullptr;
      std::string found_name;
      for (auto it = attrs.MemberBegin(); it != attrs.MemberEnd(); ++it) {
        std::string n = it->name.GetString();
        if (Str(it->value, "savedAs").value_or(n) == k->name) {
          found = &it->value;
          found_name = n;
          break;
        }
      }
      if (!found) {
        if (!table_key) continue;  // the entity does not write this index: sparse
        Warn(
            "import.key-template", e.name,
            "no attribute of the entity is saved as the table's key " + k->name + "; its template is {" + k->name + "}",
            "write the template of " + k->name + " for " + e.name + " in the model file");
        auto tmpl = ParseKeyTemplate("{" + Literal(k->name) + "}");
        if (!tmpl.ok()) return tmpl.status();
        e.keys[k->name] = *tmpl;
        continue;
      }
      auto tmpl = KeyFrom(e, *k, found_name, *found, table_key);
      if (!tmpl.ok())
        return Status::Validation(where + ".schema.attributes." + found_name + ": " + tmpl.status().message());
      e.keys[k->name] = *tmpl;
    }

    for (auto it = attrs.MemberBegin(); it != attrs.MemberEnd(); ++it) {
      std::string n = it->name.GetString();
      const Value& a = it->value;
      if (!a.IsObject()) return Status::Validation(where + ".schema.attributes." + n + ": expected an object");
      std::string stored = Str(a, "savedAs").value_or(n);
      if (is_key(stored)) continue;
      std::string type = Str(a, "type").value_or("");
      // anyOf over one primitive type (string enums, say) is that type with the union of values.
      const Value* values_of = &a;
      std::vector<const Value*> alternatives;
      if (type == "anyOf" && a.HasMember("elements") && a["elements"].IsArray() && !a["elements"].Empty()) {
        std::string common;
        for (const auto& alt : a["elements"].GetArray()) {
          std::string t = Str(alt, "type").value_or("");
          if (common.empty()) common = t;
          if (t != common) common = "mixed";
          alternatives.push_back(&alt);
        }
        if (common == "string" || common == "number" || common == "boolean" || common == "binary") {
          type = common;
          values_of = nullptr;
        }
      }
      AttributeDef d;
      d.name = stored;
      d.kind = Kind(type);
      if (type == "any" || type == "anyOf" || type == "null" || type.empty()) {
        bool json = type == "any" && a.HasMember("transform") &&
                    Str(a["transform"], "transformerId").value_or("") == "jsonStringify";
        if (!json)
          Warn("import.unmapped", e.name,
               "attribute " + stored + " has type " + (type.empty() ? std::string("(none)") : type) +
                   ", which the model has no kind for: imported as a string",
               "give " + stored + " its kind in the model file");
      }
      std::vector<const Value*> enum_holders = values_of ? std::vector<const Value*>{values_of} : alternatives;
      bool every_alternative_enumerated = true;
      for (const Value* h : enum_holders) {
        every_alternative_enumerated &= h->IsObject() && h->HasMember("enum") && (*h)["enum"].IsArray();
      }
      for (const Value* h : every_alternative_enumerated ? enum_holders : std::vector<const Value*>{}) {
        for (const auto& x : (*h)["enum"].GetArray()) {
          if (x.IsString())
            d.values.push_back(x.GetString());
          else if (x.IsNumber())
            d.values.push_back(x.IsInt64() ? std::to_string(x.GetInt64()) : std::to_string(x.GetDouble()));
          else if (x.IsBool())
            d.values.push_back(x.GetBool() ? "true" : "false");
        }
      }
      e.attributes.push_back(std::move(d));
    }

    bool entity_attribute = true;
    if (v.HasMember("entityAttribute") && v["entityAttribute"].IsBool())
      entity_attribute = v["entityAttribute"].GetBool();
    if (entity_attribute && !e.FindAttribute(t.entity_attribute) && !is_key(t.entity_attribute)) {
      AttributeDef d;
      d.name = t.entity_attribute;
      d.values = {e.name};
      e.attributes.push_back(std::move(d));
    }
    if (v.HasMember("timestamps")) {
      const Value& ts = v["timestamps"];
      auto add = [&](const Value* option, const char* saved) {
        if (option && option->IsBool() && !option->GetBool()) return;
        std::string stored = option ? Str(*option, "savedAs").value_or(saved) : saved;
        if (e.FindAttribute(stored) || is_key(stored)) return;
        AttributeDef d;
        d.name = stored;
        d.kind = AttrKind::kTimestamp;
        d.format = "iso8601ms";  // new Date().toISOString()
        e.attributes.push_back(std::move(d));
      };
      if (ts.IsBool() && ts.GetBool()) {
        add(nullptr, "_ct");
        add(nullptr, "_md");
      } else if (ts.IsObject()) {
        if (ts.HasMember("created")) add(&ts["created"], "_ct");
        if (ts.HasMember("modified")) add(&ts["modified"], "_md");
      }
    }
    out.model.entities.push_back(std::move(e));
    return Status::Ok();
  }
};

}  // namespace

Result<ToolboxImport> ImportDynamoDbToolbox(const std::vector<ToolboxFile>& files, const std::string& table_name) {
  Importer im;
  im.default_name = table_name;
  std::vector<std::unique_ptr<rapidjson::Document>> docs;
  std::vector<std::pair<const Value*, std::string>> entities;
  for (const auto& f : files) {
    auto doc = std::make_unique<rapidjson::Document>();
    doc->Parse(f.text.data(), f.text.size());
    if (doc->HasParseError())
      return Status::Validation(f.name + ": JSON: " + rapidjson::GetParseError_En(doc->GetParseError()) +
                                " at offset " + std::to_string(doc->GetErrorOffset()));
    std::vector<std::pair<const Value*, std::string>> objects;
    if (doc->IsArray()) {
      for (rapidjson::SizeType n = 0; n < doc->Size(); ++n)
        objects.emplace_back(&(*doc)[n], f.name + "[" + std::to_string(n) + "]");
    } else {
      objects.emplace_back(doc.get(), f.name);
    }
    for (const auto& [v, where] : objects) {
      if (v->IsObject() && v->HasMember("schema")) {
        entities.emplace_back(v, where);
      } else if (v->IsObject() && v->HasMember("partitionKey")) {
        auto t = ReadTable(*v, where, table_name);
        if (!t.ok()) return t.status();
        auto merged = im.Merge(std::move(*t), where);
        if (!merged.ok()) return merged.status();
      } else {
        return Status::Validation(where + ": neither a TableDTO (partitionKey) nor an EntityDTO (schema)");
      }
    }
    docs.push_back(std::move(doc));
  }
  // Tables first, so a TableDTO's indexes are known to the entities of its table.
  for (const auto& [v, where] : entities) {
    auto table = v->HasMember("table") && (*v)["table"].IsObject()
                     ? ReadTable((*v)["table"], where + ".table", table_name)
                     : Result<TableInfo>(Status::Validation(where + ".table: missing"));
    if (!table.ok()) return table.status();
    auto merged = im.Merge(std::move(*table), where + ".table");
    if (!merged.ok()) return merged.status();
  }
  for (const auto& [v, where] : entities) {
    Status s = im.Entity(*v, where);
    if (!s.ok()) return s;
  }
  if (im.tables.empty()) return Status::Validation("no TableDTO or EntityDTO given");
  for (auto& t : im.tables) im.out.model.tables.push_back(std::move(t.def));
  im.out.model.name = im.out.model.tables[0].name;
  // TableDTOs alone (found on real DTOs, issue 42): the model file holds tables and no entity,
  // which `model check` refuses; say so at import rather than leave it to the check.
  if (entities.empty()) {
    Finding f;
    f.code = "import.no-entity";
    f.severity = Severity::kWarning;
    f.subject_kind = "table";
    f.subject = im.out.model.tables[0].name;
    f.message = "the DTOs define tables and no entity; a model file needs at least one entity before check";
    f.fix = "import the EntityDTOs together with the TableDTO, or add entities with key templates to the model file";
    im.out.findings.push_back(std::move(f));
  }
  return std::move(im.out);
}

}  // namespace monotable::workbench
