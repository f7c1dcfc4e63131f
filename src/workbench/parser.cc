#include "workbench/parser.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <fstream>
#include <initializer_list>
#include <sstream>

namespace monotable::workbench {
namespace {

// Thrown inside this file only; ParseModel turns it into a Status.
struct ModelError {
  std::string message;
};

[[noreturn]] void Fail(const std::string& where, const std::string& what) { throw ModelError{where + ": " + what}; }

void AllowOnly(const YAML::Node& node, const std::string& where, std::initializer_list<const char*> fields) {
  if (!node.IsMap()) Fail(where, "expected a mapping");
  for (const auto& kv : node) {
    std::string key = kv.first.as<std::string>();
    bool known = std::any_of(fields.begin(), fields.end(), [&](const char* f) { return key == f; });
    if (!known) {
      std::string list;
      for (const char* f : fields) list += (list.empty() ? "" : ", ") + std::string(f);
      Fail(where, "unknown field \"" + key + "\" (known: " + list + ")");
    }
  }
}

std::string Str(const YAML::Node& n, const std::string& where) {
  if (!n.IsScalar()) Fail(where, "expected a string");
  return n.as<std::string>();
}

double Num(const YAML::Node& n, const std::string& where, double min = 0) {
  if (!n.IsScalar()) Fail(where, "expected a number");
  double v = 0;
  if (!YAML::convert<double>::decode(n, v)) Fail(where, "expected a number, got \"" + n.as<std::string>() + "\"");
  if (!(v >= min)) Fail(where, "must be at least " + std::to_string(static_cast<long long>(min)));
  return v;
}

int64_t Int(const YAML::Node& n, const std::string& where, int64_t min = 0, int64_t max = int64_t{1} << 50) {
  double v = Num(n, where, static_cast<double>(min));
  if (v > static_cast<double>(max)) Fail(where, "must be at most " + std::to_string(max));
  if (v != static_cast<double>(static_cast<int64_t>(v))) Fail(where, "expected a whole number");
  return static_cast<int64_t>(v);
}

bool Bool(const YAML::Node& n, const std::string& where) {
  bool v = false;
  if (!n.IsScalar() || !YAML::convert<bool>::decode(n, v)) Fail(where, "expected true or false");
  return v;
}

std::vector<std::string> StrList(const YAML::Node& n, const std::string& where) {
  std::vector<std::string> out;
  if (n.IsScalar()) return {n.as<std::string>()};
  if (!n.IsSequence()) Fail(where, "expected a list of strings");
  for (size_t i = 0; i < n.size(); ++i) out.push_back(Str(n[i], where + "[" + std::to_string(i) + "]"));
  return out;
}

KeyTemplate Template(const YAML::Node& n, const std::string& where) {
  auto t = ParseKeyTemplate(Str(n, where));
  if (!t.ok()) Fail(where, t.status().message());
  return *t;
}

KeyAttribute KeyAttr(const YAML::Node& n, const std::string& where) {
  KeyAttribute k;
  if (n.IsScalar()) {
    k.name = n.as<std::string>();
  } else {
    AllowOnly(n, where, {"name", "type"});
    if (!n["name"]) Fail(where, "needs a name");
    k.name = Str(n["name"], where + ".name");
    if (n["type"]) {
      std::string type = Str(n["type"], where + ".type");
      if (type != "S" && type != "N" && type != "B") Fail(where + ".type", "must be S, N or B");
      k.type = type[0];
    }
  }
  if (k.name.empty()) Fail(where, "a key attribute needs a name");
  return k;
}

void ParseProjection(const YAML::Node& n, IndexDef& index, const std::string& where) {
  if (!n) return;
  if (n.IsSequence()) {
    index.projection = ProjectionKind::kInclude;
    index.include = StrList(n, where);
    return;
  }
  if (n.IsMap()) {
    AllowOnly(n, where, {"include"});
    index.projection = ProjectionKind::kInclude;
    index.include = StrList(n["include"], where + ".include");
    return;
  }
  std::string kind = Str(n, where);
  if (kind == "ALL")
    index.projection = ProjectionKind::kAll;
  else if (kind == "KEYS_ONLY")
    index.projection = ProjectionKind::kKeysOnly;
  else
    Fail(where, "must be ALL, KEYS_ONLY or a list of attributes to include");
}

TableDef ParseTable(const YAML::Node& n, const std::string& where) {
  AllowOnly(n, where,
            {"name", "description", "partitionKey", "sortKey", "globalSecondaryIndexes", "localSecondaryIndexes"});
  TableDef t;
  if (!n["name"]) Fail(where, "needs a name");
  t.name = Str(n["name"], where + ".name");
  if (!n["partitionKey"]) Fail(where, "needs a partitionKey");
  t.partition_key = KeyAttr(n["partitionKey"], where + ".partitionKey");
  if (n["sortKey"]) t.sort_key = KeyAttr(n["sortKey"], where + ".sortKey");
  for (bool global : {true, false}) {
    const char* field = global ? "globalSecondaryIndexes" : "localSecondaryIndexes";
    YAML::Node list = n[field];
    if (!list) continue;
    if (!list.IsSequence()) Fail(where + "." + field, "expected a list");
    for (size_t i = 0; i < list.size(); ++i) {
      std::string w = where + "." + field + "[" + std::to_string(i) + "]";
      const YAML::Node& x = list[i];
      AllowOnly(x, w, {"name", "description", "partitionKey", "sortKey", "projection"});
      IndexDef index;
      index.global = global;
      if (!x["name"]) Fail(w, "needs a name");
      index.name = Str(x["name"], w + ".name");
      w = where + "." + field + "[" + index.name + "]";
      if (t.FindIndex(index.name)) Fail(w, "index name used twice");
      if (global) {
        if (!x["partitionKey"]) Fail(w, "a global secondary index needs a partitionKey");
        index.partition_key = KeyAttr(x["partitionKey"], w + ".partitionKey");
      } else {
        if (x["partitionKey"]) Fail(w, "a local secondary index has the table's partition key; give only its sortKey");
        if (!x["sortKey"]) Fail(w, "a local secondary index needs a sortKey");
        index.partition_key = t.partition_key;
      }
      if (x["sortKey"]) index.sort_key = KeyAttr(x["sortKey"], w + ".sortKey");
      ParseProjection(x["projection"], index, w + ".projection");
      t.indexes.push_back(std::move(index));
    }
  }
  return t;
}

AttrKind Kind(const std::string& type, const std::string& where) {
  static const std::pair<const char*, AttrKind> kKinds[] = {{"string", AttrKind::kString},
                                                            {"number", AttrKind::kNumber},
                                                            {"binary", AttrKind::kBinary},
                                                            {"boolean", AttrKind::kBoolean},
                                                            {"timestamp", AttrKind::kTimestamp},
                                                            {"list", AttrKind::kList},
                                                            {"map", AttrKind::kMap},
                                                            {"set", AttrKind::kSet}};
  for (const auto& [name, kind] : kKinds)
    if (type == name) return kind;
  Fail(where, "unknown type \"" + type + "\" (string, number, binary, boolean, timestamp, list, map, set)");
}

AttributeDef ParseAttribute(const std::string& name, const YAML::Node& n, const std::string& where) {
  AttributeDef a;
  a.name = name;
  if (n.IsScalar()) {
    a.kind = Kind(n.as<std::string>(), where);
    return a;
  }
  AllowOnly(n, where,
            {"type", "description", "size", "maxSize", "digits", "length", "cardinality", "values", "shards", "format",
             "case", "chars", "maxItems", "items", "itemSize", "unbounded"});
  if (!n["type"]) Fail(where, "needs a type");
  a.kind = Kind(Str(n["type"], where + ".type"), where + ".type");
  // Sizes past 1 MB cannot be one item (400 KB): they are refused rather than modelled.
  constexpr int64_t kMaxBytes = 1 << 20;
  if (n["size"]) a.size = Int(n["size"], where + ".size", 1, kMaxBytes);
  if (n["maxSize"]) a.max_size = Int(n["maxSize"], where + ".maxSize", 1, kMaxBytes);
  if (n["digits"]) a.digits = Int(n["digits"], where + ".digits", 1, 38);
  if (n["length"]) a.length = Int(n["length"], where + ".length", 1, kMaxBytes);
  if (n["cardinality"]) a.cardinality = Int(n["cardinality"], where + ".cardinality", 1);
  if (n["values"]) a.values = StrList(n["values"], where + ".values");
  if (n["shards"]) {
    if (a.kind != AttrKind::kNumber) Fail(where + ".shards", "a shard suffix is a number attribute");
    a.shards = Int(n["shards"], where + ".shards", 2, 100000);
  }
  if (n["format"]) {
    a.format = Str(n["format"], where + ".format");
    static const char* kFormats[] = {"iso8601", "iso8601ms", "iso8601-offset", "date", "epoch", "epoch-ms", "other"};
    if (std::none_of(std::begin(kFormats), std::end(kFormats), [&](const char* f) { return a.format == f; })) {
      Fail(where + ".format", "must be iso8601, iso8601ms, iso8601-offset, date, epoch, epoch-ms or other");
    }
  }
  if (n["case"]) {
    a.letter_case = Str(n["case"], where + ".case");
    if (a.letter_case != "mixed" && a.letter_case != "upper" && a.letter_case != "lower") {
      Fail(where + ".case", "must be mixed, upper or lower");
    }
  }
  if (n["chars"]) {
    std::string chars = Str(n["chars"], where + ".chars");
    if (chars != "any" && chars != "no-hash") Fail(where + ".chars", "must be any or no-hash");
    a.any_chars = chars == "any";
  }
  if (n["maxItems"]) a.max_items = Int(n["maxItems"], where + ".maxItems", 1, kMaxBytes);
  if (n["items"]) a.items = Int(n["items"], where + ".items", 0, kMaxBytes);
  if (n["itemSize"]) a.item_size = Int(n["itemSize"], where + ".itemSize", 1, kMaxBytes);
  if (n["unbounded"] && Bool(n["unbounded"], where + ".unbounded") && a.max_items) {
    Fail(where, "unbounded and maxItems exclude each other");
  }
  return a;
}

const KeyAttribute* FindKeyAttribute(const TableDef& t, const std::string& name) {
  if (t.partition_key.name == name) return &t.partition_key;
  if (t.sort_key && t.sort_key->name == name) return &*t.sort_key;
  for (const auto& i : t.indexes) {
    if (i.partition_key.name == name) return &i.partition_key;
    if (i.sort_key && i.sort_key->name == name) return &*i.sort_key;
  }
  return nullptr;
}

size_t TableIndex(const Model& m, const std::string& name, const std::string& where) {
  for (size_t i = 0; i < m.tables.size(); ++i)
    if (m.tables[i].name == name) return i;
  Fail(where, "no table named \"" + name + "\"");
}

EntityDef ParseEntity(const Model& m, const std::string& name, const YAML::Node& n, const std::string& where) {
  AllowOnly(n, where, {"table", "description", "count", "perPartition", "keys", "attributes", "accept"});
  EntityDef e;
  e.name = name;
  if (n["table"])
    e.table = TableIndex(m, Str(n["table"], where + ".table"), where + ".table");
  else if (m.tables.size() > 1)
    Fail(where, "name its table (the model has several)");
  if (n["count"]) e.count = Num(n["count"], where + ".count", 1);
  if (n["perPartition"]) e.per_partition = Num(n["perPartition"], where + ".perPartition", 1);
  if (n["accept"]) e.accept = StrList(n["accept"], where + ".accept");
  YAML::Node attrs = n["attributes"];
  if (attrs) {
    if (!attrs.IsMap()) Fail(where + ".attributes", "expected a mapping of attribute name to definition");
    for (const auto& kv : attrs) {
      std::string an = kv.first.as<std::string>();
      e.attributes.push_back(ParseAttribute(an, kv.second, where + ".attributes." + an));
    }
  }
  const TableDef& table = m.tables[e.table];
  YAML::Node keys = n["keys"];
  if (!keys || !keys.IsMap()) Fail(where, "needs keys: a template for each key attribute (PK: \"USER#{userId}\")");
  for (const auto& kv : keys) {
    std::string attr = kv.first.as<std::string>();
    std::string w = where + ".keys." + attr;
    const KeyAttribute* key = FindKeyAttribute(table, attr);
    if (!key) Fail(w, "not a key attribute of table " + table.name + " or its indexes");
    KeyTemplate t = Template(kv.second, w);
    if (key->type == 'N' &&
        (t.segments.size() != 1 || !t.segments[0].variable ||
         (e.FindAttribute(t.segments[0].text) && e.FindAttribute(t.segments[0].text)->kind != AttrKind::kNumber))) {
      Fail(w,
           "key attribute " + attr + " is a number (N): its template must be one number placeholder, e.g. \"{score}\"");
    }
    e.keys[attr] = std::move(t);
  }
  for (const std::string& required : {table.partition_key.name, table.sort_key ? table.sort_key->name : ""}) {
    if (!required.empty() && !e.Key(required)) Fail(where + ".keys", "needs a template for " + required);
  }
  return e;
}

KeyConditionDef ParseKeyCondition(const TableDef& table, const IndexDef* index, const YAML::Node& n,
                                  const std::string& where) {
  const KeyAttribute& pk = index ? index->partition_key : table.partition_key;
  const std::optional<KeyAttribute>& sk = index ? index->sort_key : table.sort_key;
  if (!n.IsMap()) Fail(where, "expected a mapping of key attribute to value");
  KeyConditionDef c;
  for (const auto& kv : n) {
    std::string attr = kv.first.as<std::string>();
    std::string w = where + "." + attr;
    if (attr == pk.name) {
      c.partition = Template(kv.second, w);
    } else if (sk && attr == sk->name) {
      if (kv.second.IsScalar()) {
        c.sort_op = SortOp::kEq;
        c.sort_values = {Template(kv.second, w)};
        continue;
      }
      static const std::pair<const char*, SortOp> kOps[] = {{"eq", SortOp::kEq},
                                                            {"beginsWith", SortOp::kBeginsWith},
                                                            {"between", SortOp::kBetween},
                                                            {"lt", SortOp::kLt},
                                                            {"le", SortOp::kLe},
                                                            {"gt", SortOp::kGt},
                                                            {"ge", SortOp::kGe}};
      if (!kv.second.IsMap() || kv.second.size() != 1) {
        Fail(w, "expected a value or one of {eq, beginsWith, between, lt, le, gt, ge}: value");
      }
      std::string op = kv.second.begin()->first.as<std::string>();
      const YAML::Node& v = kv.second.begin()->second;
      auto it = std::find_if(std::begin(kOps), std::end(kOps), [&](const auto& p) { return op == p.first; });
      if (it == std::end(kOps)) Fail(w, "unknown operator \"" + op + "\" (eq, beginsWith, between, lt, le, gt, ge)");
      c.sort_op = it->second;
      if (c.sort_op == SortOp::kBetween) {
        if (!v.IsSequence() || v.size() != 2) Fail(w + ".between", "expected [low, high]");
        c.sort_values = {Template(v[0], w + ".between[0]"), Template(v[1], w + ".between[1]")};
      } else {
        c.sort_values = {Template(v, w + "." + op)};
      }
    } else {
      Fail(w, "not a key attribute of " + (index ? "index " + index->name : "table " + table.name));
    }
  }
  if (!c.partition) Fail(where, "needs the partition key " + pk.name);
  return c;
}

AccessPattern ParsePattern(const Model& m, const YAML::Node& n, const std::string& where0) {
  AllowOnly(n, where0,
            {"name", "description", "operation", "table", "index", "inputs", "keyCondition", "order", "limit", "items",
             "consistentRead", "entities", "rps", "accept"});
  AccessPattern p;
  if (!n["name"]) Fail(where0, "needs a name");
  p.name = Str(n["name"], where0 + ".name");
  std::string where = "accessPatterns[" + p.name + "]";
  if (n["description"]) p.description = Str(n["description"], where + ".description");
  if (!n["operation"]) Fail(where, "needs an operation (GetItem, Query or Scan)");
  std::string op = Str(n["operation"], where + ".operation");
  if (op == "GetItem")
    p.operation = Operation::kGetItem;
  else if (op == "Query")
    p.operation = Operation::kQuery;
  else if (op == "Scan")
    p.operation = Operation::kScan;
  else
    Fail(where + ".operation", "must be GetItem, Query or Scan");
  if (!n["entities"]) Fail(where, "needs entities: the entity types it expects back");
  p.entities = StrList(n["entities"], where + ".entities");
  if (p.entities.empty()) Fail(where + ".entities", "name at least one entity");
  for (const auto& e : p.entities) {
    if (!m.FindEntity(e)) Fail(where + ".entities", "no entity named \"" + e + "\"");
  }
  if (n["table"])
    p.table = TableIndex(m, Str(n["table"], where + ".table"), where + ".table");
  else
    p.table = m.FindEntity(p.entities[0])->table;
  for (const auto& e : p.entities) {
    if (m.FindEntity(e)->table != p.table) Fail(where + ".entities", e + " lives in another table");
  }
  const TableDef& table = m.tables[p.table];
  const IndexDef* index = nullptr;
  if (n["index"]) {
    p.index = Str(n["index"], where + ".index");
    index = table.FindIndex(p.index);
    if (!index) Fail(where + ".index", "table " + table.name + " has no index \"" + p.index + "\"");
  }
  if (n["inputs"]) p.inputs = StrList(n["inputs"], where + ".inputs");
  if (n["keyCondition"]) {
    if (p.operation == Operation::kScan) Fail(where + ".keyCondition", "a Scan has no key condition");
    p.key_condition = ParseKeyCondition(table, index, n["keyCondition"], where + ".keyCondition");
  }
  if (n["order"]) {
    p.order = Str(n["order"], where + ".order");
    if (p.order != "asc" && p.order != "desc") Fail(where + ".order", "must be asc or desc");
  }
  if (n["limit"]) p.limit = Int(n["limit"], where + ".limit", 1);
  if (n["items"]) p.items = Num(n["items"], where + ".items", 0);
  if (n["consistentRead"]) p.consistent_read = Bool(n["consistentRead"], where + ".consistentRead");
  if (n["rps"]) p.rps = Num(n["rps"], where + ".rps", 0);
  if (n["accept"]) p.accept = StrList(n["accept"], where + ".accept");
  return p;
}

WriteUseCase ParseWrite(const Model& m, const YAML::Node& n, const std::string& where0) {
  AllowOnly(n, where0, {"name", "description", "rps", "transactional", "items", "accept"});
  WriteUseCase w;
  if (!n["name"]) Fail(where0, "needs a name");
  w.name = Str(n["name"], where0 + ".name");
  std::string where = "writes[" + w.name + "]";
  if (n["rps"]) w.rps = Num(n["rps"], where + ".rps", 0);
  if (n["transactional"]) w.transactional = Bool(n["transactional"], where + ".transactional");
  if (n["accept"]) w.accept = StrList(n["accept"], where + ".accept");
  YAML::Node items = n["items"];
  if (!items || !items.IsSequence() || items.size() == 0) Fail(where, "needs items: the entities it writes");
  for (size_t i = 0; i < items.size(); ++i) {
    std::string iw = where + ".items[" + std::to_string(i) + "]";
    WriteItem item;
    if (items[i].IsScalar()) {
      item.entity = items[i].as<std::string>();
    } else {
      AllowOnly(items[i], iw, {"entity", "count", "action", "changes"});
      if (!items[i]["entity"]) Fail(iw, "needs an entity");
      item.entity = Str(items[i]["entity"], iw + ".entity");
      if (items[i]["count"]) item.count = Num(items[i]["count"], iw + ".count", 1);
      if (items[i]["action"]) item.action = Str(items[i]["action"], iw + ".action");
      if (item.action != "put" && item.action != "update" && item.action != "delete") {
        Fail(iw + ".action", "must be put, update or delete");
      }
      if (items[i]["changes"]) item.changes = StrList(items[i]["changes"], iw + ".changes");
      if (!item.changes.empty() && item.action != "update") Fail(iw + ".changes", "only an update lists changes");
    }
    if (!m.FindEntity(item.entity)) Fail(iw, "no entity named \"" + item.entity + "\"");
    w.items.push_back(std::move(item));
  }
  return w;
}

Relationship ParseRelationship(const Model& m, const YAML::Node& n, const std::string& where0) {
  AllowOnly(n, where0, {"name", "description", "type", "between", "edges", "accept"});
  Relationship r;
  if (!n["name"]) Fail(where0, "needs a name");
  r.name = Str(n["name"], where0 + ".name");
  std::string where = "relationships[" + r.name + "]";
  if (!n["type"]) Fail(where, "needs a type (many-to-many or one-to-many)");
  r.type = Str(n["type"], where + ".type");
  if (r.type != "many-to-many" && r.type != "one-to-many") Fail(where + ".type", "must be many-to-many or one-to-many");
  if (!n["between"]) Fail(where, "needs between: [EntityA, EntityB]");
  r.between = StrList(n["between"], where + ".between");
  if (r.between.size() != 2) Fail(where + ".between", "name exactly two entities");
  if (n["edges"]) r.edges = StrList(n["edges"], where + ".edges");
  if (r.type == "many-to-many" && r.edges.empty())
    Fail(where, "a many-to-many needs edges: the entities that carry it");
  if (n["accept"]) r.accept = StrList(n["accept"], where + ".accept");
  for (const auto& e : r.between)
    if (!m.FindEntity(e)) Fail(where + ".between", "no entity named \"" + e + "\"");
  for (const auto& e : r.edges)
    if (!m.FindEntity(e)) Fail(where + ".edges", "no entity named \"" + e + "\"");
  return r;
}

Model Parse(const YAML::Node& root) {
  AllowOnly(root, "model",
            {"version", "name", "description", "tables", "entities", "accessPatterns", "writes", "relationships"});
  Model m;
  if (!root["version"]) Fail("version", "missing (this tool reads version: 1)");
  if (Int(root["version"], "version", 0) != 1) Fail("version", "this tool reads version 1 only");
  if (root["name"]) m.name = Str(root["name"], "name");
  YAML::Node tables = root["tables"];
  if (!tables || !tables.IsSequence() || tables.size() == 0) Fail("tables", "need at least one table");
  for (size_t i = 0; i < tables.size(); ++i) {
    TableDef t = ParseTable(tables[i], "tables[" + std::to_string(i) + "]");
    for (const auto& other : m.tables)
      if (other.name == t.name) Fail("tables", "table " + t.name + " defined twice");
    m.tables.push_back(std::move(t));
  }
  YAML::Node entities = root["entities"];
  if (!entities || !entities.IsMap() || entities.size() == 0) Fail("entities", "need at least one entity (a mapping)");
  for (const auto& kv : entities) {
    std::string name = kv.first.as<std::string>();
    m.entities.push_back(ParseEntity(m, name, kv.second, "entities[" + name + "]"));
  }
  auto list = [&](const char* field, auto parse, auto& out) {
    YAML::Node n = root[field];
    if (!n) return;
    if (!n.IsSequence()) Fail(field, "expected a list");
    for (size_t i = 0; i < n.size(); ++i) {
      auto x = parse(m, n[i], std::string(field) + "[" + std::to_string(i) + "]");
      for (const auto& other : out)
        if (other.name == x.name) Fail(field, "\"" + x.name + "\" defined twice");
      out.push_back(std::move(x));
    }
  };
  list("accessPatterns", ParsePattern, m.patterns);
  list("writes", ParseWrite, m.writes);
  list("relationships", ParseRelationship, m.relationships);
  return m;
}

}  // namespace

Result<Model> ParseModel(std::string_view text) {
  try {
    YAML::Node root = YAML::Load(std::string(text));
    if (!root.IsMap())
      return Status::Validation("model: expected a mapping at the top (version: 1, tables, entities, ...)");
    return Parse(root);
  } catch (const ModelError& e) {
    return Status::Validation(e.message);
  } catch (const YAML::Exception& e) {
    return Status::Validation("YAML: " + std::string(e.what()));
  }
}

Result<Model> LoadModelFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::Io("cannot read " + path);
  std::stringstream text;
  text << in.rdbuf();
  return ParseModel(text.str());
}

}  // namespace monotable::workbench
