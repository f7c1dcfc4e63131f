// PartiQL planning: one statement text + parameters -> a PreparedStatement that names its table,
// the key access it lowers to (GetItem / Query / Scan for SELECT, one item key for writes) and
// the expression-layer condition, update and projection it evaluates.
//
// Contract:
// - Parse() parses the text, checks the parameter count and lowers the WHERE (so bad literals and
//   operand types fail here), all before any table is looked up, as DynamoDB orders its errors.
// - Plan() resolves the table (ResourceNotFoundException) and index ("The table does not have
//   the specified index"), then plans:
//   SELECT: a WHERE whose top-level AND has an equality or IN on the partition key (or an OR of
//     such equalities) reads only those partitions: as GetItem when the table's whole key is
//     fixed by equalities, else as a Query per partition whose sort-key range comes from a
//     top-level =, <, <=, >, >=, BETWEEN or begins_with on the sort key. Anything else is a Scan.
//     The whole WHERE is always applied as a filter to what is read. ORDER BY must name key
//     attributes and needs a WHERE that fixes the partition key (DynamoDB's messages); it picks
//     the partition order and the direction. On an index, attributes the index does not project
//     are refused, for a GSI, in the SELECT list ("Global secondary index i does not project
//     [a]"; an LSI fetches them from the table), then in the WHERE of a read keyed on the index
//     ("Secondary index i does not project one or more filter attributes: [a]"); an unkeyed read
//     (a scan) evaluates its WHERE on the index entries.
//   UPDATE / DELETE / EXISTS: the WHERE must fix every key attribute with exactly one top-level
//     equality ("Where clause does not contain a mandatory equality on all key attributes");
//     the other conjuncts become the write's condition. UPDATE and EXISTS also require the item
//     to exist; DELETE of an absent item does nothing.
//   INSERT: the VALUE must be a tuple holding the whole key with the schema's types.
// - A PreparedStatement is immutable once planned and owns everything it refers to (the table
//   handle keeps the description alive).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "api/partiql/metrics.h"
#include "expr/expression.h"
#include "expr/partiql/ast.h"
#include "expr/partiql/lower.h"
#include "table/database.h"
#include "table/reader.h"

namespace monotable::api::partiql {

namespace pq = monotable::expr::partiql;

struct ReadAccess {
  AccessKind kind = AccessKind::kScan;                  // kGetItem, kQuery or kScan
  std::vector<Item> keys;                               // kGetItem: full table keys, in result order
  std::vector<std::vector<AttributeValue>> partitions;  // kQuery: partition attribute values, in order
  table::SortCondition sort;                            // kQuery: the sort-key range
  bool forward = true;
};

struct PreparedStatement {
  std::string text;
  pq::Statement ast;
  std::vector<AttributeValue> parameters;
  expr::ConditionExpression where;  // the whole WHERE (empty: none)

  std::shared_ptr<const table::TableHandle> table;
  const IndexDescription* index = nullptr;

  // SELECT (and EXISTS, which reads one item).
  std::vector<pq::ProjectedPath> projection;  // empty with select_star
  ReadAccess read;
  bool fetch_from_table = false;  // LSI read of attributes the index does not project

  // UPDATE / DELETE / EXISTS: the item and the condition on it.
  Item key;
  expr::ConditionExpression condition;
  std::optional<Item> insert_item;
  std::optional<expr::UpdateExpression> update;

  std::string_view Verb() const;
  bool IsRead() const { return ast.kind == pq::StatementKind::kSelect; }
  // The single item a SELECT reads when its WHERE fixes the whole table key with equalities.
  bool ReadsOneItem() const { return !index && read.kind == AccessKind::kGetItem && read.keys.size() == 1; }
};

Result<PreparedStatement> Parse(std::string_view text, std::vector<AttributeValue> parameters);
Status Plan(table::Database& db, PreparedStatement& s);

}  // namespace monotable::api::partiql
