#include "workbench/onetable.h"

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>

namespace monotable::workbench {
namespace {

using Writer = rapidjson::PrettyWriter<rapidjson::StringBuffer>;

std::string ToOneTable(const KeyTemplate& t) {
  std::string out;
  for (const auto& s : t.segments) {
    int pad = 0;
    ParseTemplateFormat(s.format, &pad);
    if (!s.variable)
      out += s.text;
    else if (pad > 0)
      out += "${" + s.text + ":" + std::to_string(pad) + ":0}";  // OneTable's zero padding
    else
      out += "${" + s.text + "}";
  }
  return out;
}

Result<KeyTemplate> FromOneTable(const std::string& value) {
  std::string text;
  for (size_t i = 0; i < value.size(); ++i) {
    if (value[i] == '$' && i + 1 < value.size() && value[i + 1] == '{') {
      size_t close = value.find('}', i);
      if (close == std::string::npos) return Status::Validation("value \"" + value + "\": '${' is not closed");
      std::string name = value.substr(i + 2, close - i - 2);
      // ${name:size} and ${name:size:pad} pad to `size` characters (pad '0' by default): padN.
      std::string format;
      if (size_t colon = name.find(':'); colon != std::string::npos) {
        std::string size = name.substr(colon + 1), pad = "0";
        name = name.substr(0, colon);
        if (size_t second = size.find(':'); second != std::string::npos) {
          pad = size.substr(second + 1);
          size = size.substr(0, second);
        }
        int width = 0;
        if (pad == "0" && ParseTemplateFormat("pad" + size, &width)) format = ":pad" + size;
      }
      text += "{" + name + format + "}";
      i = close;
    } else if (value[i] == '{' || value[i] == '}') {
      text += std::string(2, value[i]);
    } else {
      text += value[i];
    }
  }
  return ParseKeyTemplate(text);
}

const char* TypeName(AttrKind k) {
  switch (k) {
    case AttrKind::kNumber:
      return "number";
    case AttrKind::kBoolean:
      return "boolean";
    case AttrKind::kTimestamp:
      return "date";
    case AttrKind::kList:
      return "array";
    case AttrKind::kMap:
      return "object";
    case AttrKind::kSet:
      return "set";
    case AttrKind::kBinary:
      return "binary";
    default:
      return "string";
  }
}

AttrKind KindOf(const std::string& type) {
  if (type == "number") return AttrKind::kNumber;
  if (type == "boolean") return AttrKind::kBoolean;
  if (type == "date") return AttrKind::kTimestamp;
  if (type == "array") return AttrKind::kList;
  if (type == "object") return AttrKind::kMap;
  if (type == "set") return AttrKind::kSet;
  if (type == "binary" || type == "buffer" || type == "arraybuffer") return AttrKind::kBinary;
  return AttrKind::kString;
}

const KeyAttribute* KeyNamed(const TableDef& t, const std::string& name) {
  if (t.partition_key.name == name) return &t.partition_key;
  if (t.sort_key && t.sort_key->name == name) return &*t.sort_key;
  for (const auto& i : t.indexes) {
    if (i.partition_key.name == name) return &i.partition_key;
    if (i.sort_key && i.sort_key->name == name) return &*i.sort_key;
  }
  return nullptr;
}

}  // namespace

std::string ExportOneTable(const Model& model, size_t table) {
  const TableDef& t = model.tables[table];
  rapidjson::StringBuffer b;
  Writer w(b);
  w.SetIndent(' ', 2);
  w.StartObject();
  w.Key("version");
  w.String("0.1.0");
  w.Key("format");
  w.String("onetable:1.1.0");
  w.Key("indexes");
  w.StartObject();
  w.Key("primary");
  w.StartObject();
  w.Key("hash");
  w.String(t.partition_key.name.c_str());
  if (t.sort_key) {
    w.Key("sort");
    w.String(t.sort_key->name.c_str());
  }
  w.EndObject();
  for (const auto& i : t.indexes) {
    w.Key(i.name.c_str());
    w.StartObject();
    if (i.global) {
      w.Key("hash");
      w.String(i.partition_key.name.c_str());
    }
    if (i.sort_key) {
      w.Key("sort");
      w.String(i.sort_key->name.c_str());
    }
    if (!i.global) {
      w.Key("type");
      w.String("local");
    }
    w.Key("project");
    if (i.projection == ProjectionKind::kInclude) {
      w.StartArray();
      for (const auto& a : i.include) w.String(a.c_str());
      w.EndArray();
    } else {
      w.String(i.projection == ProjectionKind::kAll ? "all" : "keys");
    }
    w.EndObject();
  }
  w.EndObject();
  w.Key("models");
  w.StartObject();
  for (const auto& e : model.entities) {
    if (e.table != table) continue;
    w.Key(e.name.c_str());
    w.StartObject();
    for (const auto& [name, tmpl] : e.keys) {
      const KeyAttribute* k = KeyNamed(t, name);
      w.Key(name.c_str());
      w.StartObject();
      w.Key("type");
      w.String(k && k->type == 'N' ? "number" : "string");
      if (!(k && k->type == 'N')) {
        w.Key("value");
        w.String(ToOneTable(tmpl).c_str());
      }
      w.EndObject();
    }
    for (const auto& a : e.attributes) {
      if (e.keys.count(a.name)) continue;
      w.Key(a.name.c_str());
      w.StartObject();
      w.Key("type");
      w.String(TypeName(a.kind));
      if (!a.values.empty()) {
        w.Key("enum");
        w.StartArray();
        for (const auto& v : a.values) w.String(v.c_str());
        w.EndArray();
      }
      w.EndObject();
    }
    w.EndObject();
  }
  w.EndObject();
  w.EndObject();
  return std::string(b.GetString()) + "\n";
}

Result<Model> ImportOneTable(std::string_view text, const std::string& table_name) {
  rapidjson::Document doc;
  doc.Parse(text.data(), text.size());
  if (doc.HasParseError()) {
    return Status::Validation(std::string("JSON: ") + rapidjson::GetParseError_En(doc.GetParseError()) + " at offset " +
                              std::to_string(doc.GetErrorOffset()));
  }
  if (!doc.IsObject() || !doc.HasMember("indexes") || !doc["indexes"].IsObject() ||
      !doc["indexes"].HasMember("primary") || !doc["indexes"]["primary"].IsObject() ||
      !doc["indexes"]["primary"].HasMember("hash") || !doc["indexes"]["primary"]["hash"].IsString()) {
    return Status::Validation("indexes.primary.hash: missing (not a OneTable schema)");
  }
  if (!doc.HasMember("models") || !doc["models"].IsObject()) return Status::Validation("models: missing");
  Model m;
  m.name = table_name;
  TableDef t;
  t.name = table_name;
  const auto& primary = doc["indexes"]["primary"];
  t.partition_key.name = primary["hash"].GetString();
  if (primary.HasMember("sort") && primary["sort"].IsString())
    t.sort_key = KeyAttribute{primary["sort"].GetString(), 'S'};
  for (auto it = doc["indexes"].MemberBegin(); it != doc["indexes"].MemberEnd(); ++it) {
    std::string name = it->name.GetString();
    const auto& x = it->value;
    if (name == "primary" || !x.IsObject()) continue;
    IndexDef i;
    i.name = name;
    i.global = !(x.HasMember("type") && x["type"].IsString() && std::string(x["type"].GetString()) == "local");
    if (i.global) {
      if (!x.HasMember("hash") || !x["hash"].IsString())
        return Status::Validation("indexes." + name + ".hash: missing");
      i.partition_key.name = x["hash"].GetString();
    } else {
      i.partition_key = t.partition_key;
    }
    if (x.HasMember("sort") && x["sort"].IsString()) i.sort_key = KeyAttribute{x["sort"].GetString(), 'S'};
    if (x.HasMember("project")) {
      const auto& p = x["project"];
      if (p.IsString() && std::string(p.GetString()) == "keys") i.projection = ProjectionKind::kKeysOnly;
      if (p.IsArray()) {
        i.projection = ProjectionKind::kInclude;
        for (const auto& a : p.GetArray())
          if (a.IsString()) i.include.push_back(a.GetString());
      }
    }
    t.indexes.push_back(std::move(i));
  }
  // The schema's params: dates as ISO strings or epoch milliseconds, the type field and the
  // timestamps OneTable writes into every item.
  auto param = [&](const char* name) -> const rapidjson::Value* {
    if (!doc.HasMember("params") || !doc["params"].IsObject() || !doc["params"].HasMember(name)) return nullptr;
    return &doc["params"][name];
  };
  auto param_string = [&](const char* name, const char* fallback) {
    const rapidjson::Value* v = param(name);
    return std::string(v && v->IsString() ? v->GetString() : fallback);
  };
  const bool iso_dates = param("isoDates") && param("isoDates")->IsBool() && param("isoDates")->GetBool();
  const bool timestamps = param("timestamps") && param("timestamps")->IsBool() && param("timestamps")->GetBool();
  const std::string type_field = param_string("typeField", "_type");
  const std::string created_field = param_string("createdField", "created");
  const std::string updated_field = param_string("updatedField", "updated");
  for (auto it = doc["models"].MemberBegin(); it != doc["models"].MemberEnd(); ++it) {
    EntityDef e;
    e.name = it->name.GetString();
    if (!it->value.IsObject()) return Status::Validation("models." + e.name + ": expected an object");
    for (auto f = it->value.MemberBegin(); f != it->value.MemberEnd(); ++f) {
      std::string field = f->name.GetString();
      const auto& def = f->value;
      std::string type =
          def.IsObject() && def.HasMember("type") && def["type"].IsString() ? def["type"].GetString() : "string";
      for (char& c : type) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));  // String -> string
      KeyAttribute* key = const_cast<KeyAttribute*>(KeyNamed(t, field));
      if (key) {
        if (type == "number") key->type = 'N';
        std::string value = def.IsObject() && def.HasMember("value") && def["value"].IsString()
                                ? def["value"].GetString()
                                : "${" + field + "}";
        // OneTable fills the type field with the model's name: `${_type}#${id}` in model User is
        // "User#<id>", a literal prefix, not a value the caller passes.
        const std::string type_ref = "${" + type_field + "}";
        for (size_t at = value.find(type_ref); at != std::string::npos; at = value.find(type_ref, at + e.name.size()))
          value.replace(at, type_ref.size(), e.name);
        auto tmpl = FromOneTable(value);
        if (!tmpl.ok()) return Status::Validation("models." + e.name + "." + field + ": " + tmpl.status().message());
        e.keys[field] = *tmpl;
        continue;
      }
      AttributeDef a;
      a.name = field;
      a.kind = KindOf(type);
      if (a.kind == AttrKind::kTimestamp) a.format = iso_dates ? "iso8601" : "epoch-ms";
      if (def.IsObject() && def.HasMember("enum") && def["enum"].IsArray()) {
        for (const auto& v : def["enum"].GetArray())
          if (v.IsString()) a.values.push_back(v.GetString());
      }
      std::string generate = def.IsObject() && def.HasMember("generate") && def["generate"].IsString()
                                 ? def["generate"].GetString()
                                 : "";
      if (generate == "ulid") {
        a.length = 26;
        a.letter_case = "upper";
      } else if (generate == "uuid") {
        a.length = 36;
        a.letter_case = "lower";
      }
      // `map` stores the field under another name ("email": {map: "em"}) or packs it into a map
      // attribute ("name": {map: "data.name"}): the item holds that attribute.
      if (def.IsObject() && def.HasMember("map") && def["map"].IsString()) {
        std::string target = def["map"].GetString();
        if (size_t dot = target.find('.'); dot != std::string::npos) {
          target = target.substr(0, dot);
          if (e.FindAttribute(target)) continue;  // already packed into by another field
          a = AttributeDef{};
          a.kind = AttrKind::kMap;
        }
        a.name = target;
      }
      if (!e.FindAttribute(a.name)) e.attributes.push_back(std::move(a));
    }
    // What OneTable writes into every item besides the model's fields.
    if (!e.FindAttribute(type_field) && !KeyNamed(t, type_field)) {
      AttributeDef a;
      a.name = type_field;
      a.values = {e.name};
      e.attributes.push_back(std::move(a));
    }
    for (const std::string& stamp : {created_field, updated_field}) {
      if (!timestamps || e.FindAttribute(stamp) || KeyNamed(t, stamp)) continue;
      AttributeDef a;
      a.name = stamp;
      a.kind = AttrKind::kTimestamp;
      a.format = iso_dates ? "iso8601" : "epoch-ms";
      e.attributes.push_back(std::move(a));
    }
    if (!e.Key(t.partition_key.name) || (t.sort_key && !e.Key(t.sort_key->name))) {
      return Status::Validation("models." + e.name + ": no " + t.partition_key.name +
                                (t.sort_key ? " or " + t.sort_key->name : std::string()) + " field");
    }
    m.entities.push_back(std::move(e));
  }
  for (auto& i : t.indexes)
    if (!i.global) i.partition_key = t.partition_key;
  m.tables.push_back(std::move(t));
  return m;
}

}  // namespace monotable::workbench
