#include "expr/projection.h"

#include <map>
#include <memory>
#include <string>

#include "expr/evaluator.h"

namespace monotable::expr {
namespace {

// The result under construction: a whole value (leaf), or the chosen members of a map / list.
struct Node {
  const AttributeValue* leaf = nullptr;
  bool is_list = false;
  std::map<std::string, Node, std::less<>> fields;  // map members (or top-level attributes)
  std::map<uint32_t, Node> elements;                // list elements by original index
};

AttributeValue Build(const Node& node) {
  if (node.leaf != nullptr) return *node.leaf;
  if (node.is_list) {
    AttributeValue::List list;
    list.reserve(node.elements.size());
    for (const auto& [index, child] : node.elements) list.push_back(Build(child));
    return AttributeValue::L(std::move(list));
  }
  AttributeValue::Map map;
  for (const auto& [name, child] : node.fields) map.emplace(name, Build(child));
  return AttributeValue::M(std::move(map));
}

}  // namespace

Item ProjectPaths(const std::vector<DocumentPath>& paths, const Item& item) {
  Node root;
  for (const auto& path : paths) {
    if (path.empty()) continue;
    const AttributeValue* value = Lookup(item, path);
    if (value == nullptr) continue;
    Node* node = &root;
    bool blocked = false;
    for (size_t i = 0; i < path.size() && !blocked; ++i) {
      const PathStep& step = path[i];
      if (node->leaf != nullptr) {
        blocked = true;  // an earlier path already took the whole value
        break;
      }
      if (i > 0) {
        // Intermediate node: its shape follows the step (the path resolved, so the item agrees).
        if (step.is_index) {
          if (!node->fields.empty()) {
            blocked = true;
            break;
          }
          node->is_list = true;
        } else if (node->is_list) {
          blocked = true;
          break;
        }
      }
      node = step.is_index ? &node->elements[step.index] : &node->fields[step.name];
    }
    if (blocked) continue;
    if (node->leaf == nullptr && node->fields.empty() && node->elements.empty()) node->leaf = value;
  }
  Item out;
  for (const auto& [name, child] : root.fields) out.emplace(name, Build(child));
  return out;
}

}  // namespace monotable::expr
