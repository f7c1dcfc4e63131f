#include "workbench/sizes.h"

#include <algorithm>

#include "model/attribute_value.h"
#include "workbench/language.h"

namespace monotable::workbench {
namespace {

AttributeValue NumberOfDigits(int64_t digits) {
  auto n = Number::Parse(std::string(static_cast<size_t>(std::clamp<int64_t>(digits, 1, 38)), '7'));
  return AttributeValue::N(n.ok() ? *n : Number::FromInt(7));
}

int64_t Elements(const AttributeDef& a, bool largest) {
  if (largest && a.max_items) return *a.max_items;
  if (a.items > 0) return a.items;
  return a.max_items ? *a.max_items : 4;
}

AttributeValue ValueOf(const AttributeDef& a, bool largest) {
  int64_t size = a.size > 0 ? a.size : 16;
  if (largest && a.max_size > 0) size = a.max_size;
  if (a.length) size = *a.length;
  if (!a.values.empty()) {
    size_t longest = 0;
    for (const auto& v : a.values) longest = std::max(longest, v.size());
    size = static_cast<int64_t>(longest);
  }
  int64_t item_size = a.item_size > 0 ? a.item_size : 16;
  switch (a.kind) {
    case AttrKind::kNumber:
      return NumberOfDigits(a.shards > 0 ? 2 : (a.digits > 0 ? a.digits : 6));
    case AttrKind::kBoolean:
      return AttributeValue::Bool(true);
    case AttrKind::kBinary:
      return AttributeValue::B(std::string(static_cast<size_t>(size), 'b'));
    case AttrKind::kTimestamp:
      if (a.format == "epoch") return NumberOfDigits(10);
      if (a.format == "epoch-ms") return NumberOfDigits(13);
      if (a.format == "date") return AttributeValue::S(std::string(10, 't'));
      if (a.format == "iso8601-offset") return AttributeValue::S(std::string(25, 't'));
      if (a.format == "iso8601ms") return AttributeValue::S(std::string(24, 't'));
      return AttributeValue::S(std::string(20, 't'));
    case AttrKind::kList: {
      AttributeValue::List l(static_cast<size_t>(Elements(a, largest)),
                             AttributeValue::S(std::string(static_cast<size_t>(item_size), 'l')));
      return AttributeValue::L(std::move(l));
    }
    case AttrKind::kSet: {
      std::vector<std::string> s(static_cast<size_t>(Elements(a, largest)),
                                 std::string(static_cast<size_t>(item_size), 's'));
      return AttributeValue::SS(std::move(s));
    }
    case AttrKind::kMap: {
      // `size` is the whole map's payload; with element counts, one entry per element.
      AttributeValue::Map m;
      if (a.items > 0 || a.max_items) {
        int64_t n = Elements(a, largest);
        for (int64_t i = 0; i < n; ++i)
          m["k" + std::to_string(i)] = AttributeValue::S(std::string(static_cast<size_t>(item_size), 'm'));
      } else {
        m["v"] = AttributeValue::S(std::string(static_cast<size_t>(std::max<int64_t>(1, size - 1)), 'm'));
      }
      return AttributeValue::M(std::move(m));
    }
    case AttrKind::kString:
      break;
  }
  return AttributeValue::S(std::string(static_cast<size_t>(size), 's'));
}

AttributeValue KeyValue(const EntityDef& e, const KeyAttribute* attr, const KeyTemplate& t) {
  if (attr && attr->type == 'N') {
    const AttributeDef* a = t.segments.empty() ? nullptr : e.FindAttribute(t.segments[0].text);
    return NumberOfDigits(a && a->digits > 0 ? a->digits : 6);
  }
  std::string v(TypicalLength(t, e), 'k');
  return attr && attr->type == 'B' ? AttributeValue::B(std::move(v)) : AttributeValue::S(std::move(v));
}

const KeyAttribute* FindKey(const TableDef& t, const std::string& name) {
  if (t.partition_key.name == name) return &t.partition_key;
  if (t.sort_key && t.sort_key->name == name) return &*t.sort_key;
  for (const auto& i : t.indexes) {
    if (i.partition_key.name == name) return &i.partition_key;
    if (i.sort_key && i.sort_key->name == name) return &*i.sort_key;
  }
  return nullptr;
}

Item BuildItem(const EntityDef& e, const TableDef& table, bool largest) {
  Item item;
  for (const auto& a : e.attributes) item[a.name] = ValueOf(a, largest);
  for (const auto& [name, t] : e.keys) item[name] = KeyValue(e, FindKey(table, name), t);
  return item;
}

}  // namespace

ModelSizes EstimateSizes(const Model& model) {
  ModelSizes out;
  for (const auto& e : model.entities) {
    const TableDef& table = model.tables[e.table];
    EntitySizes s;
    Item typical = BuildItem(e, table, false);
    s.typical = ItemSize(typical);
    s.largest = ItemSize(BuildItem(e, table, true));
    for (const auto& a : e.attributes) {
      bool container =
          a.kind == AttrKind::kList || a.kind == AttrKind::kSet || (a.kind == AttrKind::kMap && a.items > 0);
      if (container && !a.max_items) s.unbounded.push_back(a.name);
    }
    for (const auto& index : table.indexes) {
      bool indexed = e.Key(index.partition_key.name) && (!index.sort_key || e.Key(index.sort_key->name));
      if (!indexed) {
        s.index_entry[index.name] = 0;
        continue;
      }
      if (index.projection == ProjectionKind::kAll) {
        s.index_entry[index.name] = s.typical;
        continue;
      }
      std::vector<std::string> names{table.partition_key.name, index.partition_key.name};
      if (table.sort_key) names.push_back(table.sort_key->name);
      if (index.sort_key) names.push_back(index.sort_key->name);
      if (index.projection == ProjectionKind::kInclude)
        names.insert(names.end(), index.include.begin(), index.include.end());
      Item projected;
      for (const auto& n : names) {
        auto it = typical.find(n);
        if (it != typical.end()) projected[n] = it->second;
      }
      s.index_entry[index.name] = ItemSize(projected);
    }
    out[e.name] = std::move(s);
  }
  return out;
}

}  // namespace monotable::workbench
