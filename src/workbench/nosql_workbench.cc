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
  auto word = [](const std::string& text) {
    std::string w;
    for (char c : text) {
      if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') w += c;
    }
    return w;
  };
  std::string out = word(alias);
  if (out.empty()) out = word(fallback);  // an attribute named "State#Date" gives {stateDate}
  if (out.empty()) out = "value";
  if (std::isdigit(static_cast<unsigned char>(out[0]))) out = "v" + out;
  if (std::none_of(out.begin(), out.end(), [](char c) { return std::islower(static_cast<unsigned char>(c)); })) {
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));  // GSI1PK -> gsi1pk
  }
  out[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(out[0])));
  return out;
}

// An alias written as a key template ("p#{productId}", as `model export` writes them) is the
// template itself: nothing is inferred from the samples, nor renamed after them.
bool AliasIsTemplate(const std::string& alias) {
  if (alias.find('{') == std::string::npos) return false;
  auto t = ParseKeyTemplate(alias);
  return t.ok() && !t->IsStatic();
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
  // Equal values are a literal when they read as a marker (PROFILE, DETAILS, METADATA): no digit.
  // Equal values with a digit are sample data that repeats one id (two reviews of product
  // "PRODUCT#p-0042", one session "9f1c..."): the part after the last '#' is the variable.
  // One sample alone reads as a marker only in capitals: a single "Sara" in an index key is a
  // value one item happens to have, not a constant every item carries. Text with spaces, '@', '.'
  // or '/' is never a marker ("Amazon DynamoDB" twice is two threads of one forum).
  bool all_equal = std::all_of(values.begin(), values.end(), [&](const std::string& v) { return v == values[0]; });
  bool marker = std::none_of(values[0].begin(), values[0].end(),
                             [](char c) {
                               return (c >= '0' && c <= '9') || std::isspace(static_cast<unsigned char>(c)) ||
                                      c == '@' || c == '.' || c == '/';
                             }) &&
                (values.size() > 1 || std::none_of(values[0].begin(), values[0].end(), [](char c) {
                   return std::islower(static_cast<unsigned char>(c));
                 }));
  if (all_equal && marker) {
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

using Items = std::vector<const rapidjson::Value*>;

Items ItemsOf(const rapidjson::Value& holder) {
  Items out;
  if (!holder.IsObject() || !holder.HasMember("TableData") || !holder["TableData"].IsArray()) return out;
  for (const auto& item : holder["TableData"].GetArray()) {
    if (item.IsObject()) out.push_back(&item);
  }
  return out;
}

// An item's S or N value of `attr` (nullopt: none).
std::optional<std::string> ValueOf(const rapidjson::Value& item, const std::string& attr) {
  if (!item.HasMember(attr.c_str())) return std::nullopt;
  const auto& v = item[attr.c_str()];
  for (const char* t : {"S", "N"}) {
    if (v.IsObject() && v.HasMember(t) && v[t].IsString()) return std::string(v[t].GetString());
  }
  return std::nullopt;
}

// Values of `attr` in the sample items (S or N).
std::vector<std::string> Samples(const Items& items, const std::string& attr) {
  std::vector<std::string> out;
  for (const auto* item : items) {
    if (auto v = ValueOf(*item, attr)) out.push_back(*v);
  }
  return out;
}

// A template inferred as [PREFIX]{placeholder} whose variable part is, in every sample item, the
// value of another key's variable part (GSI1PK = "CUSTOMER#c1" beside PK = "CUSTOMER#c1") or of a
// non-key attribute (GSI2PK = "EMAIL#a@x" beside email = "a@x") takes that key's placeholder or
// the attribute's name, so a pattern that knows the customer or the e-mail can build it.
void NameAfterTheSource(EntityDef& e, const std::string& attr, const Items& items,
                        const std::vector<std::string>& earlier_keys, const std::vector<std::string>& attributes) {
  KeyTemplate& t = e.keys[attr];
  if (t.segments.empty() || !t.segments.back().variable || t.segments.size() > 2) return;
  const std::string prefix = t.segments.size() == 2 ? t.segments[0].text : "";
  auto rest = [](const std::string& value, const std::string& p) -> std::optional<std::string> {
    if (value.size() <= p.size() || value.compare(0, p.size(), p) != 0) return std::nullopt;
    return value.substr(p.size());
  };
  auto matches_everywhere = [&](auto other_rest) {
    size_t seen = 0;
    for (const auto* item : items) {
      auto v = ValueOf(*item, attr);
      if (!v) continue;
      auto mine = rest(*v, prefix);
      auto theirs = other_rest(*item);
      if (!mine || !theirs || *mine != *theirs) return false;
      ++seen;
    }
    return seen > 0;
  };
  for (const auto& other : earlier_keys) {
    const KeyTemplate& o = e.keys[other];
    if (other == attr || o.segments.empty() || !o.segments.back().variable || o.segments.size() > 2) continue;
    const std::string other_prefix = o.segments.size() == 2 ? o.segments[0].text : "";
    // Two different prefixes name two kinds of id ("o#12345" an order, "c#12345" a customer):
    // equal suffixes in the samples are a coincidence of the sample data, not one variable.
    if (!prefix.empty() && !other_prefix.empty() && prefix != other_prefix) continue;
    if (matches_everywhere([&](const rapidjson::Value& item) -> std::optional<std::string> {
          auto v = ValueOf(item, other);
          return v ? rest(*v, other_prefix) : std::nullopt;
        })) {
      t.segments.back().text = o.segments.back().text;
      return;
    }
  }
  // Only one attribute may match: "P#1".."P#3" beside productId and categoryId both 1..3 is the
  // sample data's coincidence, unless the prefix names one of them ("P#": productId, "C#":
  // categoryId); naming it after the wrong one would be worse than neither.
  std::vector<const std::string*> sources;
  for (const auto& a : attributes) {
    if (matches_everywhere([&](const rapidjson::Value& item) { return ValueOf(item, a); })) sources.push_back(&a);
  }
  if (sources.size() > 1) {
    std::string word;
    for (char c : prefix) {
      if (!std::isalnum(static_cast<unsigned char>(c))) break;
      word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    std::vector<const std::string*> named;
    for (const auto* a : sources) {
      std::string lower = *a;
      for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (!word.empty() && lower.compare(0, word.size(), word) == 0) named.push_back(a);
    }
    sources = named;
  }
  if (sources.size() == 1) t.segments.back().text = PlaceholderName(*sources[0], *sources[0]);
}

// The attribute that names each sample item's entity: a non-key string every item has, named as
// such attributes are (EntityType, entity, type, _type, _et, kind...), with at least two values,
// fewer values than items, and items whose primary keys differ in shape (the text up to the first
// '#' of PK and SK: "c#", "BRANDS" -> ""): a `type` of accounts ("checking", "savings") under one
// key shape is data, not entities. "" when there is none.
std::string Discriminator(const Items& items, const std::set<std::string>& key_names, const TableDef& table) {
  std::set<std::pair<std::string, std::string>> shapes;
  auto head = [](const std::optional<std::string>& v) {
    if (!v) return std::string();
    size_t hash = v->find('#');
    return hash == std::string::npos ? std::string() : v->substr(0, hash + 1);
  };
  for (const auto* item : items) {
    shapes.insert({head(ValueOf(*item, table.partition_key.name)),
                   table.sort_key ? head(ValueOf(*item, table.sort_key->name)) : std::string()});
  }
  if (shapes.size() < 2) return "";
  static const std::set<std::string> kNames = {"entitytype", "entity", "type", "_type", "_et", "__typename",
                                               "kind", "recordtype", "itemtype", "entity_type", "record_type",
                                               "item_type", "_entity", "__entity__"};
  for (auto m = items[0]->MemberBegin(); m != items[0]->MemberEnd(); ++m) {
    std::string name = m->name.GetString(), lower = name;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (key_names.count(name) || !kNames.count(lower)) continue;
    std::set<std::string> values;
    bool everywhere = true;
    for (const auto* item : items) {
      const rapidjson::Value* v = item->HasMember(name.c_str()) ? &(*item)[name.c_str()] : nullptr;
      if (!v || !v->IsObject() || !v->HasMember("S") || !(*v)["S"].IsString() || (*v)["S"].GetStringLength() == 0) {
        everywhere = false;
        break;
      }
      values.insert((*v)["S"].GetString());
    }
    if (everywhere && values.size() >= 2 && values.size() < items.size()) return name;
  }
  return "";
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
    std::vector<std::string> table_attributes;
    if (t.HasMember("NonKeyAttributes") && t["NonKeyAttributes"].IsArray()) {
      for (const auto& a : t["NonKeyAttributes"].GetArray()) {
        types[Str(a, "AttributeName")] = Str(a, "AttributeType");
        table_attributes.push_back(Str(a, "AttributeName"));
      }
    }
    std::set<std::string> key_names = {table.partition_key.name};
    if (table.sort_key) key_names.insert(table.sort_key->name);
    for (const auto& index : table.indexes) {
      key_names.insert(index.partition_key.name);
      if (index.sort_key) key_names.insert(index.sort_key->name);
    }
    m.tables.push_back(table);
    size_t table_index = m.tables.size() - 1;

    // The facets: name, aliases, non-key attributes, own sample items. A table without facets is
    // one entity named after it, its items the table's.
    struct Facet {
      std::string name, pk_alias, sk_alias;
      std::vector<std::string> attributes;
      Items items;
      bool own_items = false;  // from its own TableData
    };
    std::vector<Facet> facets;
    const Items table_items = ItemsOf(t);
    if (t.HasMember("TableFacets") && t["TableFacets"].IsArray()) {
      for (const auto& f : t["TableFacets"].GetArray()) {
        Facet facet;
        facet.name = Str(f, "FacetName");
        if (facet.name.empty()) return Status::Validation(where + ".TableFacets: a facet needs a FacetName");
        const rapidjson::Value& alias = f.HasMember("KeyAttributeAlias") ? f["KeyAttributeAlias"] : f;
        facet.pk_alias = Str(alias, "PartitionKeyAlias");
        facet.sk_alias = Str(alias, "SortKeyAlias");
        if (f.HasMember("NonKeyAttributes") && f["NonKeyAttributes"].IsArray()) {
          for (const auto& a : f["NonKeyAttributes"].GetArray()) {
            if (a.IsString()) facet.attributes.push_back(a.GetString());
          }
        }
        facet.items = ItemsOf(f);
        facet.own_items = !facet.items.empty();
        facets.push_back(std::move(facet));
      }
    }
    // Without facets, the table's sample items often hold several entities told apart by an
    // attribute every item has (EntityType, type, Entity...: real exports do): one entity per value,
    // with that value's items, so each gets its own key templates and its own (sparse) indexes.
    std::string discriminator;
    if (facets.empty() && table_items.size() > 1) discriminator = Discriminator(table_items, key_names, table);
    if (!discriminator.empty()) {
      for (const auto* item : table_items) {
        std::string value = *ValueOf(*item, discriminator);
        auto it = std::find_if(facets.begin(), facets.end(), [&](const Facet& f) { return f.name == value; });
        if (it == facets.end()) {
          facets.push_back(Facet{value, "", "", {}, {}, true});
          it = facets.end() - 1;
        }
        it->items.push_back(item);
      }
      for (auto& facet : facets) {
        for (const auto& a : table_attributes) {  // the table's order first, then what only items name
          if (!key_names.count(a) && std::any_of(facet.items.begin(), facet.items.end(),
                                                 [&](const rapidjson::Value* i) { return i->HasMember(a.c_str()); }))
            facet.attributes.push_back(a);
        }
        for (const auto* item : facet.items) {
          for (auto m = item->MemberBegin(); m != item->MemberEnd(); ++m) {
            std::string a = m->name.GetString();
            if (!key_names.count(a) && std::find(facet.attributes.begin(), facet.attributes.end(), a) == facet.attributes.end())
              facet.attributes.push_back(a);
          }
        }
      }
    }
    if (facets.empty() && (!table_items.empty() || !table_attributes.empty())) {
      Facet whole{table.name, "", "", {}, table_items, true};
      for (const auto& a : table_attributes) {
        // Index keys stay listed: without sample items they become placeholders (below).
        if (a != table.partition_key.name && !(table.sort_key && a == table.sort_key->name))
          whole.attributes.push_back(a);
      }
      facets.push_back(std::move(whole));
    }
    // A facet without sample items of its own gets the table's items that are its: those whose
    // non-key attributes it lists, each item going to the facet listing the fewest attributes
    // that still covers it.
    for (const auto* item : table_items) {
      Facet* best = nullptr;
      size_t own = 0;
      for (auto it = item->MemberBegin(); it != item->MemberEnd(); ++it) own += !key_names.count(it->name.GetString());
      if (own == 0) continue;
      for (auto& facet : facets) {
        bool covers = true;
        for (auto it = item->MemberBegin(); it != item->MemberEnd() && covers; ++it) {
          std::string name = it->name.GetString();
          covers = key_names.count(name) ||
                   std::find(facet.attributes.begin(), facet.attributes.end(), name) != facet.attributes.end();
        }
        if (covers && (!best || facet.attributes.size() < best->attributes.size())) best = &facet;
      }
      if (best && !best->own_items) best->items.push_back(item);
    }

    for (const auto& facet : facets) {
      EntityDef e;
      e.name = facet.name;
      for (int n = 2; !entity_names.insert(e.name).second; ++n) e.name = facet.name + std::to_string(n);
      e.table = table_index;
      const Items& items = facet.items;
      std::vector<std::string> earlier;
      e.keys[table.partition_key.name] =
          Infer(Samples(items, table.partition_key.name), facet.pk_alias, table.partition_key.name);
      // "P#1" beside productId "1" in every sample item: the placeholder is productId.
      if (!AliasIsTemplate(facet.pk_alias)) NameAfterTheSource(e, table.partition_key.name, items, {}, facet.attributes);
      earlier.push_back(table.partition_key.name);
      if (table.sort_key) {
        e.keys[table.sort_key->name] = Infer(Samples(items, table.sort_key->name), facet.sk_alias, table.sort_key->name);
        // An item whose sort key repeats its partition key ("c#12345" in both) has one id, not two.
        if (!AliasIsTemplate(facet.sk_alias)) NameAfterTheSource(e, table.sort_key->name, items, earlier, facet.attributes);
        earlier.push_back(table.sort_key->name);
      }
      for (const auto& index : table.indexes) {
        for (const KeyAttribute* k : {&index.partition_key, index.sort_key ? &*index.sort_key : nullptr}) {
          if (!k || e.keys.count(k->name)) continue;
          auto values = Samples(items, k->name);
          if (values.empty()) {
            // No sample item has it: sparse when the facet has sample items, else (a model without
            // data) a placeholder when the facet or the table lists the attribute.
            bool listed = std::find(facet.attributes.begin(), facet.attributes.end(), k->name) != facet.attributes.end();
            if (!items.empty() || !listed) continue;
            e.keys[k->name] = Infer(values, k->name, k->name);
            earlier.push_back(k->name);
            continue;
          }
          e.keys[k->name] = Infer(values, k->name, k->name);
          NameAfterTheSource(e, k->name, items, earlier, facet.attributes);
          earlier.push_back(k->name);
        }
      }
      for (const auto& name : facet.attributes) {
        if (e.keys.count(name)) continue;
        AttributeDef attr;
        attr.name = name;
        attr.kind = KindOf(types[attr.name]);
        if (attr.kind == AttrKind::kList || attr.kind == AttrKind::kSet) attr.items = 4;
        if (name == discriminator) attr.values = {facet.name};
        e.attributes.push_back(std::move(attr));
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
      if (a.length) {
        w.Key("length");
        w.Int64(*a.length);
      }
      if (!a.letter_case.empty()) {
        w.Key("case");
        w.String(a.letter_case.c_str());
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
