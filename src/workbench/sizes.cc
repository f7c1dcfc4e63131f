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
    case AttrKind::kList:
    case AttrKind::kSet:
    case AttrKind::kMap:
      break;  // containers: ContainerSize
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

bool Container(const AttributeDef& a) {
  return a.kind == AttrKind::kList || a.kind == AttrKind::kSet || a.kind == AttrKind::kMap;
}

// A container's size by DynamoDB's rules (model/attribute_value.cc): its equal elements measured
// once and counted n times rather than built, since a declared list may hold a million of them.
size_t ContainerSize(const AttributeDef& a, bool largest) {
  size_t n = static_cast<size_t>(Elements(a, largest));
  size_t each =
      AttributeValueSize(AttributeValue::S(std::string(static_cast<size_t>(a.item_size > 0 ? a.item_size : 16), 'e')));
  if (a.kind == AttrKind::kList) return 3 + n * (1 + each);
  if (a.kind == AttrKind::kSet) return n * each;
  if (a.items > 0 || a.max_items) {  // a map of n entries "k0".."k<n-1>"
    size_t names = 0;
    for (size_t i = 0; i < n; ++i) names += 1 + std::to_string(i).size();
    return 3 + n * (1 + each) + names;
  }
  int64_t size = a.size > 0 ? a.size : 16;
  if (largest && a.max_size > 0) size = a.max_size;
  AttributeValue::Map m;
  m["v"] = AttributeValue::S(std::string(static_cast<size_t>(std::max<int64_t>(1, size - 1)), 'm'));
  return AttributeValueSize(AttributeValue::M(std::move(m)));
}

// The item without its containers; the containers' bytes (name + value) go to *containers.
Item BuildItem(const EntityDef& e, const TableDef& table, bool largest, std::map<std::string, size_t>* containers) {
  Item item;
  for (const auto& a : e.attributes) {
    if (Container(a))
      (*containers)[a.name] = a.name.size() + ContainerSize(a, largest);
    else
      item[a.name] = ValueOf(a, largest);
  }
  for (const auto& [name, t] : e.keys) {
    item[name] = KeyValue(e, FindKey(table, name), t);
    containers->erase(name);
  }
  return item;
}

size_t Total(const Item& item, const std::map<std::string, size_t>& containers) {
  size_t size = ItemSize(item);
  for (const auto& [name, bytes] : containers) size += bytes;
  return size;
}

}  // namespace

ModelSizes EstimateSizes(const Model& model) {
  ModelSizes out;
  for (const auto& e : model.entities) {
    const TableDef& table = model.tables[e.table];
    EntitySizes s;
    std::map<std::string, size_t> typical_containers, largest_containers;
    Item typical = BuildItem(e, table, false, &typical_containers);
    s.typical = Total(typical, typical_containers);
    s.largest = Total(BuildItem(e, table, true, &largest_containers), largest_containers);
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
      std::map<std::string, size_t> projected_containers;
      for (const auto& n : names) {
        if (auto it = typical.find(n); it != typical.end()) projected[n] = it->second;
        if (auto it = typical_containers.find(n); it != typical_containers.end()) projected_containers[n] = it->second;
      }
      s.index_entry[index.name] = Total(projected, projected_containers);
    }
    out[e.name] = std::move(s);
  }
  return out;
}

}  // namespace monotable::workbench
