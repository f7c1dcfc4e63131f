#include "api/partiql/prepare.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "expr/comparison.h"
#include "expr/partiql/parser.h"
#include "expr/partiql/values.h"
#include "changelog/keys.h"

namespace monotable::api::partiql {
namespace {

constexpr const char* kIncompleteKey = "Where clause does not contain a mandatory equality on all key attributes";
constexpr size_t kMaxDecomposedReads = 100;

bool IsAttribute(const pq::Expr& e, std::string_view name) {
  return e.kind == pq::ExprKind::kPath && e.path.steps.size() == 1 &&
         e.path.steps[0].kind == pq::PathStep::Kind::kName && e.path.steps[0].name == name;
}

// The value side of `name = v` / `v = name`, or nullptr.
const pq::Expr* EqualityValue(const pq::Expr& e, std::string_view name) {
  if (e.kind != pq::ExprKind::kCompare || e.compare != pq::CompareOp::kEq) return nullptr;
  if (IsAttribute(e.args[0], name) && pq::IsValueExpr(e.args[1])) return &e.args[1];
  if (IsAttribute(e.args[1], name) && pq::IsValueExpr(e.args[0])) return &e.args[0];
  return nullptr;
}

// True when a conjunct constrains `name` directly (a comparison, BETWEEN, IN or begins_with on it).
bool Constrains(const pq::Expr& e, std::string_view name) {
  switch (e.kind) {
    case pq::ExprKind::kCompare:
      return IsAttribute(e.args[0], name) || IsAttribute(e.args[1], name);
    case pq::ExprKind::kBetween:
    case pq::ExprKind::kIn:
      return IsAttribute(e.args[0], name);
    case pq::ExprKind::kCall:
      return !e.args.empty() && IsAttribute(e.args[0], name);
    default:
      return false;
  }
}

std::string LowerCase(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

void AddDistinct(std::vector<AttributeValue>& values, AttributeValue v) {
  for (const auto& existing : values) {
    if (existing == v) return;
  }
  values.push_back(std::move(v));
}

Status KeyTypeMismatch(const std::string& name) {
  return Status::Validation("Key attribute's data type should match its data type in table's schema: Key " + name);
}

Status CheckKeyValue(const TableDescription& table, const std::string& name, const AttributeValue& v) {
  if (table.AttributeType(name) != v.type()) return KeyTypeMismatch(name);
  if ((v.type() == AttrType::kS || v.type() == AttrType::kB) && v.s().empty()) {
    return Status::Validation(
        "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty " +
        std::string(v.type() == AttrType::kS ? "string" : "binary") + " value. Key: " + name);
  }
  return Status::Ok();
}

// The values a conjunct pins the partition attribute to: `pk = v`, `pk IN [..]`, or an OR whose
// every branch has `pk = v` at its top level. nullopt when it pins nothing.
Result<std::optional<std::vector<AttributeValue>>> PinnedValues(const pq::Expr& e, const std::string& name,
                                                                const std::string* range,
                                                                const std::vector<AttributeValue>& params) {
  using Values = std::optional<std::vector<AttributeValue>>;
  if (const pq::Expr* v = EqualityValue(e, name)) {
    MT_ASSIGN_OR_RETURN(AttributeValue value, pq::ToAttributeValue(*v, params));
    return Values(std::vector<AttributeValue>{std::move(value)});
  }
  if (e.kind == pq::ExprKind::kIn && !e.flag && IsAttribute(e.args[0], name)) {
    std::vector<AttributeValue> values;
    if (e.args.size() == 2 && e.args[1].kind == pq::ExprKind::kParameter) {
      MT_ASSIGN_OR_RETURN(AttributeValue list, pq::ToAttributeValue(e.args[1], params));
      if (list.type() != AttrType::kL) return Values();
      for (const auto& v : list.l()) AddDistinct(values, v);
    } else {
      for (size_t i = 1; i < e.args.size(); ++i) {
        if (!pq::IsValueExpr(e.args[i])) return Values();
        MT_ASSIGN_OR_RETURN(AttributeValue v, pq::ToAttributeValue(e.args[i], params));
        AddDistinct(values, std::move(v));
      }
    }
    return Values(std::move(values));
  }
  if (e.kind == pq::ExprKind::kOr) {
    std::vector<AttributeValue> values;
    std::vector<std::pair<AttributeValue, bool>> branches;  // value, has a sort-key condition
    for (const pq::Expr& branch : e.args) {
      const pq::Expr* found = nullptr;
      bool ranged = false;
      for (const pq::Expr* c : pq::Conjuncts(branch)) {
        if (!found) found = EqualityValue(*c, name);
        if (range && Constrains(*c, *range)) ranged = true;
      }
      if (!found) return Values();
      MT_ASSIGN_OR_RETURN(AttributeValue v, pq::ToAttributeValue(*found, params));
      for (const auto& [other, other_ranged] : branches) {
        if (other == v && (ranged || other_ranged)) {
          return Status::Validation("Overlapping conditions with range keys are not supported in where clause");
        }
      }
      branches.emplace_back(v, ranged);
      AddDistinct(values, std::move(v));
    }
    return Values(std::move(values));
  }
  return Values();
}

struct SortPick {
  std::vector<AttributeValue> equal;  // = or IN on the sort key
  table::SortCondition range;         // the first other usable condition
};

table::SortOp Flip(table::SortOp op) {
  switch (op) {
    case table::SortOp::kLt:
      return table::SortOp::kGt;
    case table::SortOp::kLe:
      return table::SortOp::kGe;
    case table::SortOp::kGt:
      return table::SortOp::kLt;
    case table::SortOp::kGe:
      return table::SortOp::kLe;
    default:
      return op;
  }
}

Result<SortPick> PickSort(const std::vector<const pq::Expr*>& conjuncts, const std::string& name, AttrType type,
                          const std::vector<AttributeValue>& params) {
  SortPick pick;
  auto value = [&](const pq::Expr& e) -> Result<std::optional<AttributeValue>> {
    if (!pq::IsValueExpr(e)) return std::optional<AttributeValue>();
    MT_ASSIGN_OR_RETURN(AttributeValue v, pq::ToAttributeValue(e, params));
    if (v.type() != type) return std::optional<AttributeValue>();
    return std::optional<AttributeValue>(std::move(v));
  };
  for (const pq::Expr* c : conjuncts) {
    const pq::Expr& e = *c;
    if (e.kind == pq::ExprKind::kCompare) {
      bool left = IsAttribute(e.args[0], name), right = IsAttribute(e.args[1], name);
      if (left == right) continue;
      MT_ASSIGN_OR_RETURN(auto v, value(e.args[left ? 1 : 0]));
      if (!v) continue;
      table::SortOp op = table::SortOp::kNone;  // every comparison sets it or continues
      switch (e.compare) {
        case pq::CompareOp::kEq:
          if (pick.equal.empty()) pick.equal.push_back(std::move(*v));
          continue;
        case pq::CompareOp::kNe:
          continue;
        case pq::CompareOp::kLt:
          op = table::SortOp::kLt;
          break;
        case pq::CompareOp::kLe:
          op = table::SortOp::kLe;
          break;
        case pq::CompareOp::kGt:
          op = table::SortOp::kGt;
          break;
        case pq::CompareOp::kGe:
          op = table::SortOp::kGe;
          break;
      }
      if (pick.range.op == table::SortOp::kNone) {
        pick.range.op = left ? op : Flip(op);
        pick.range.first = std::move(*v);
      }
    } else if (e.kind == pq::ExprKind::kBetween && !e.flag && IsAttribute(e.args[0], name)) {
      MT_ASSIGN_OR_RETURN(auto low, value(e.args[1]));
      MT_ASSIGN_OR_RETURN(auto high, value(e.args[2]));
      if (!low || !high || pick.range.op != table::SortOp::kNone) continue;
      auto order = expr::CompareOrdered(*low, *high);
      if (!order || *order > 0) continue;  // an empty range: leave it to the filter
      pick.range.op = table::SortOp::kBetween;
      pick.range.first = std::move(*low);
      pick.range.second = std::move(*high);
    } else if (e.kind == pq::ExprKind::kIn && !e.flag && IsAttribute(e.args[0], name) && pick.equal.empty()) {
      std::vector<AttributeValue> values;
      bool usable = e.args.size() > 1;
      for (size_t i = 1; i < e.args.size() && usable; ++i) {
        MT_ASSIGN_OR_RETURN(auto v, value(e.args[i]));
        if (v)
          AddDistinct(values, std::move(*v));
        else
          usable = false;
      }
      if (usable) pick.equal = std::move(values);
    } else if (e.kind == pq::ExprKind::kCall && e.args.size() == 2 && IsAttribute(e.args[0], name) &&
               LowerCase(e.text) == "begins_with" && (type == AttrType::kS || type == AttrType::kB)) {
      MT_ASSIGN_OR_RETURN(auto v, value(e.args[1]));
      if (!v || pick.range.op != table::SortOp::kNone) continue;
      pick.range.op = table::SortOp::kBeginsWith;
      pick.range.first = std::move(*v);
    }
  }
  return pick;
}

bool ValueLess(const AttributeValue& a, const AttributeValue& b) {
  auto c = expr::CompareOrdered(a, b);
  return c && *c < 0;
}

std::set<std::string> ProjectedAttributes(const TableDescription& table, const IndexDescription& index) {
  std::set<std::string> out;
  for (const auto& k : table.key_schema) out.insert(k.name);
  for (const auto& k : index.key_schema) out.insert(k.name);
  for (const auto& a : index.projection.non_key_attributes) out.insert(a);
  return out;
}

std::string List(const std::vector<std::string>& names) {
  std::string out = "[";
  for (size_t i = 0; i < names.size(); ++i) out += (i ? ", " : "") + names[i];
  return out + "]";
}

Status CheckIndexProjection(PreparedStatement& s) {
  const TableDescription& table = *s.table->description;
  if (!s.index || s.index->projection.type == ProjectionType::kAll) return Status::Ok();
  std::set<std::string> projected = ProjectedAttributes(table, *s.index);
  std::vector<std::string> missing;
  for (const auto& p : s.projection) {
    if (!projected.count(p.path[0].name)) missing.push_back(p.path[0].name);
  }
  if (missing.empty()) return Status::Ok();
  if (!s.index->global) {
    s.fetch_from_table = true;
    return Status::Ok();
  }
  return Status::Validation("One or more parameter values were invalid: Global secondary index " + s.index->name +
                            " does not project " + List(missing));
}

// A read keyed on the index (served as a Query) may filter only on what the index projects, GSI
// or LSI; an unkeyed one (a Scan) evaluates its WHERE on the index entries, where the attributes
// the index does not project are absent (AWS, as nubo-db/dynoxide captured it).
Status CheckIndexFilter(const PreparedStatement& s) {
  if (!s.index || s.index->projection.type == ProjectionType::kAll || s.read.kind != AccessKind::kQuery) {
    return Status::Ok();
  }
  std::set<std::string> projected = ProjectedAttributes(*s.table->description, *s.index);
  std::vector<std::string> missing;
  for (const auto& head : s.where.PathHeads()) {
    if (!projected.count(head) && std::find(missing.begin(), missing.end(), head) == missing.end()) {
      missing.push_back(head);
    }
  }
  if (missing.empty()) return Status::Ok();
  return Status::Validation("One or more parameter values were invalid: Secondary index " + s.index->name +
                            " does not project one or more filter attributes: " + List(missing));
}

Status PlanOrderBy(PreparedStatement& s, const std::vector<KeyElement>& keys) {
  const pq::Statement& ast = s.ast;
  if (ast.order_by.empty()) return Status::Ok();
  if (!ast.where) return Status::Validation("Must have WHERE clause in the statement when using ORDER BY clause.");
  std::optional<bool> hash_desc, range_desc;
  for (const pq::OrderItem& item : ast.order_by) {
    const KeyElement* key = nullptr;
    if (item.path.steps.size() == 1 && item.path.steps[0].kind == pq::PathStep::Kind::kName) {
      for (const auto& k : keys) {
        if (k.name == item.path.steps[0].name) key = &k;
      }
    }
    if (!key) {
      return Status::Validation("Attribute " + pq::Dump(item.path) +
                                " in ORDER BY clause must be part of the primary key");
    }
    (key->role == KeyRole::kHash ? hash_desc : range_desc) = item.descending;
  }
  ReadAccess& r = s.read;
  if (r.kind == AccessKind::kScan) {
    return Status::Validation(
        "Must have at least one non-optional hash key condition in WHERE clause when using ORDER BY clause.");
  }
  size_t partitions = r.kind == AccessKind::kQuery ? r.partitions.size() : 0;
  if (r.kind == AccessKind::kGetItem) {
    std::vector<AttributeValue> hashes;
    for (const Item& k : r.keys) AddDistinct(hashes, k.at(keys[0].name));
    partitions = hashes.size();
  }
  if (partitions > 1 && !hash_desc) {
    return Status::Validation(
        "Must have hash key in ORDER BY clause when more than one hash key condition specified in WHERE clause.");
  }
  bool desc = range_desc.value_or(hash_desc.value_or(false));
  r.forward = !desc;
  if (r.kind == AccessKind::kQuery && hash_desc && keys.size() > 0) {
    std::stable_sort(r.partitions.begin(), r.partitions.end(), [&](const auto& a, const auto& b) {
      return *hash_desc ? ValueLess(b[0], a[0]) : ValueLess(a[0], b[0]);
    });
  }
  if (r.kind == AccessKind::kGetItem) {
    const std::string& hash = keys[0].name;
    const std::string* range = nullptr;
    for (const auto& k : keys) {
      if (k.role == KeyRole::kRange) range = &k.name;
    }
    std::stable_sort(r.keys.begin(), r.keys.end(), [&](const Item& a, const Item& b) {
      if (hash_desc && !(a.at(hash) == b.at(hash))) {
        return *hash_desc ? ValueLess(b.at(hash), a.at(hash)) : ValueLess(a.at(hash), b.at(hash));
      }
      if (!range) return false;
      return desc ? ValueLess(b.at(*range), a.at(*range)) : ValueLess(a.at(*range), b.at(*range));
    });
  }
  return Status::Ok();
}

Status PlanSelect(PreparedStatement& s) {
  const TableDescription& table = *s.table->description;
  const std::vector<KeyElement>& keys = s.index ? s.index->key_schema : table.key_schema;
  std::vector<const KeyElement*> hashes, ranges;
  for (const auto& k : keys) (k.role == KeyRole::kHash ? hashes : ranges).push_back(&k);
  const std::string* range = ranges.empty() ? nullptr : &ranges[0]->name;
  std::vector<const pq::Expr*> conjuncts;
  if (s.ast.where) conjuncts = pq::Conjuncts(*s.ast.where);
  if (!s.ast.select_star) {
    MT_ASSIGN_OR_RETURN(s.projection, pq::LowerProjection(s.ast));
  }
  MT_RETURN_IF_ERROR(CheckIndexProjection(s));

  // Partition: every hash attribute pinned (the first one possibly to several values).
  std::vector<std::vector<AttributeValue>> partitions;
  bool from_or = false;
  for (size_t h = 0; h < hashes.size(); ++h) {
    std::optional<std::vector<AttributeValue>> pinned;
    for (const pq::Expr* c : conjuncts) {
      MT_ASSIGN_OR_RETURN(pinned, PinnedValues(*c, hashes[h]->name, range, s.parameters));
      if (pinned) {
        from_or = c->kind == pq::ExprKind::kOr;
        break;
      }
    }
    if (!pinned || (h > 0 && pinned->size() != 1)) {
      partitions.clear();
      break;
    }
    for (const auto& v : *pinned) MT_RETURN_IF_ERROR(CheckKeyValue(table, hashes[h]->name, v));
    if (h == 0) {
      for (auto& v : *pinned) partitions.push_back({std::move(v)});
    } else {
      for (auto& p : partitions) p.push_back((*pinned)[0]);
    }
  }
  ReadAccess& r = s.read;
  if (partitions.empty()) {
    r.kind = AccessKind::kScan;
  } else {
    if (partitions.size() > kMaxDecomposedReads) {
      return Status::Validation("Too many decomposed read operations for a given query.");
    }
    SortPick sort;
    if (range && !from_or) {
      MT_ASSIGN_OR_RETURN(sort, PickSort(conjuncts, *range, *table.AttributeType(*range), s.parameters));
    }
    bool whole_key = !s.index && hashes.size() == 1 && (!range || !sort.equal.empty());
    if (whole_key) {
      r.kind = AccessKind::kGetItem;
      for (const auto& p : partitions) {
        if (!range) {
          r.keys.push_back(Item{{hashes[0]->name, p[0]}});
          continue;
        }
        for (const auto& sv : sort.equal) r.keys.push_back(Item{{hashes[0]->name, p[0]}, {*range, sv}});
      }
      if (r.keys.size() > kMaxDecomposedReads) {
        return Status::Validation("Too many decomposed read operations for a given query.");
      }
      for (const Item& key : r.keys) MT_RETURN_IF_ERROR(table::ValidateKey(table, key));
    } else {
      r.kind = AccessKind::kQuery;
      r.partitions = std::move(partitions);
      if (sort.equal.size() == 1) {
        r.sort.op = table::SortOp::kEq;
        r.sort.first = sort.equal[0];
      } else {
        r.sort = sort.range;
      }
    }
  }
  MT_RETURN_IF_ERROR(CheckIndexFilter(s));
  return PlanOrderBy(s, keys);
}

// UPDATE / DELETE / EXISTS: the full key from top-level equalities, the rest as the condition.
Status PlanItemWrite(PreparedStatement& s) {
  const TableDescription& table = *s.table->description;
  std::vector<const pq::Expr*> conjuncts;
  if (s.ast.where) conjuncts = pq::Conjuncts(*s.ast.where);
  std::vector<bool> used(conjuncts.size(), false);
  for (const auto& k : table.key_schema) {
    int found = -1;
    for (size_t i = 0; i < conjuncts.size(); ++i) {
      if (EqualityValue(*conjuncts[i], k.name) && found < 0) found = static_cast<int>(i);
    }
    if (found < 0) {
      if (s.ast.kind == pq::StatementKind::kExists) {
        return Status::Validation("EXISTS() must contain a single item read with additional condition");
      }
      return Status::Validation(kIncompleteKey);
    }
    used[found] = true;
  }
  for (const auto& k : table.key_schema) {
    const pq::Expr* value = nullptr;
    for (size_t i = 0; i < conjuncts.size(); ++i) {
      if (used[i] && EqualityValue(*conjuncts[i], k.name)) value = EqualityValue(*conjuncts[i], k.name);
    }
    for (size_t i = 0; i < conjuncts.size(); ++i) {
      if (!used[i] && Constrains(*conjuncts[i], k.name)) {
        return Status::Validation("Multiple conditions on same key " + k.name +
                                  ". Only single item Update/Insert/Delete are supported");
      }
    }
    MT_ASSIGN_OR_RETURN(AttributeValue v, pq::ToAttributeValue(*value, s.parameters));
    MT_RETURN_IF_ERROR(CheckKeyValue(table, k.name, v));
    s.key.emplace(k.name, std::move(v));
  }
  std::vector<const pq::Expr*> rest;
  for (size_t i = 0; i < conjuncts.size(); ++i) {
    if (!used[i]) rest.push_back(conjuncts[i]);
  }
  if (s.ast.kind == pq::StatementKind::kExists && rest.empty()) {
    return Status::Validation("EXISTS() must contain a single item read with additional condition");
  }
  bool must_exist = s.ast.kind != pq::StatementKind::kDelete;
  MT_ASSIGN_OR_RETURN(s.condition,
                      pq::LowerCondition(rest, s.parameters, must_exist ? table.hash_key() : std::string_view()));
  return Status::Ok();
}

Status PlanInsert(PreparedStatement& s) {
  const TableDescription& table = *s.table->description;
  const pq::Expr& value = *s.ast.value;
  bool tuple = value.kind == pq::ExprKind::kTuple;
  MT_ASSIGN_OR_RETURN(AttributeValue item, pq::ToAttributeValue(value, s.parameters));
  if (!tuple && item.type() != AttrType::kM) {
    return Status::Validation(
        "Unsupported format in item expression. Please use struct format {...} to express item values for insert "
        "statement.");
  }
  for (const auto& k : table.key_schema) {
    auto it = item.m().find(k.name);
    if (it == item.m().end()) return Status::Validation("Key attribute should be present in the item: Key " + k.name);
    if (table.AttributeType(k.name) != it->second.type()) return KeyTypeMismatch(k.name);
  }
  MT_RETURN_IF_ERROR(table::ValidateItemKeys(table, item.m()));
  if (ItemSize(item.m()) > 409600) return Status::Validation("Item size has exceeded the maximum allowed size");
  s.insert_item = std::move(item.m());
  s.key = table::ExtractKey(table, *s.insert_item);
  return Status::Ok();
}

}  // namespace

std::string_view PreparedStatement::Verb() const {
  switch (ast.kind) {
    case pq::StatementKind::kSelect:
      return "SELECT";
    case pq::StatementKind::kInsert:
      return "INSERT";
    case pq::StatementKind::kUpdate:
      return "UPDATE";
    case pq::StatementKind::kDelete:
      return "DELETE";
    case pq::StatementKind::kExists:
      return "EXISTS";
  }
  return "?";
}

Result<PreparedStatement> Parse(std::string_view text, std::vector<AttributeValue> parameters) {
  PreparedStatement s;
  s.text = std::string(text);
  MT_ASSIGN_OR_RETURN(s.ast, pq::ParseStatement(text));
  MT_RETURN_IF_ERROR(pq::CheckParameterCount(s.ast, parameters.size()));
  s.parameters = std::move(parameters);
  if (s.ast.index && (s.ast.kind == pq::StatementKind::kUpdate || s.ast.kind == pq::StatementKind::kDelete)) {
    return Status::Validation("This operation is not supported on an index");
  }
  if (s.ast.where) {
    MT_ASSIGN_OR_RETURN(s.where, pq::LowerCondition(pq::Conjuncts(*s.ast.where), s.parameters));
  }
  if (s.ast.kind == pq::StatementKind::kUpdate) {
    MT_ASSIGN_OR_RETURN(auto update, pq::LowerUpdate(s.ast.updates, s.text, s.parameters));
    s.update = std::move(update);
  }
  if (s.ast.kind == pq::StatementKind::kDelete && s.ast.returning &&
      (!s.ast.returning->all || s.ast.returning->new_image)) {
    return Status::Validation("Invalid returning clause: " + s.ast.returning->Text() +
                              ". Only RETURNING ALL OLD * is allowed in DELETE statements.");
  }
  return s;
}

Status Plan(table::Database& db, PreparedStatement& s) {
  MT_ASSIGN_OR_RETURN(s.table, db.Table(s.ast.table));
  const TableDescription& table = *s.table->description;
  if (s.ast.index) {
    s.index = table.FindIndex(*s.ast.index);
    if (!s.index) return Status::Validation("The table does not have the specified index");
  }
  switch (s.ast.kind) {
    case pq::StatementKind::kSelect:
      return PlanSelect(s);
    case pq::StatementKind::kInsert:
      return PlanInsert(s);
    case pq::StatementKind::kExists:
      if (s.index) return Status::Validation("Operations on indices are not supported in transactions");
      return PlanItemWrite(s);
    case pq::StatementKind::kUpdate: {
      MT_RETURN_IF_ERROR(PlanItemWrite(s));
      std::vector<std::string> key_names;
      for (const auto& k : table.key_schema) key_names.push_back(k.name);
      return expr::CheckKeyAttributesNotUpdated(*s.update, key_names);
    }
    case pq::StatementKind::kDelete:
      return PlanItemWrite(s);
  }
  return Status::Ok();
}

}  // namespace monotable::api::partiql
