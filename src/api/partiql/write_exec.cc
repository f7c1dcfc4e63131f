// INSERT / UPDATE / DELETE / EXISTS execution, alone or as the apply step of a transaction.
#include "api/capacity.h"
#include "api/item_collections.h"
#include "api/partiql/executor.h"
#include "expr/projection.h"
#include "changelog/keys.h"

namespace monotable::api::partiql {
namespace {

Status ConditionFailed() { return Status(ErrorCode::kConditionalCheckFailed, "The conditional request failed"); }

// The apply step; `updated` (may be null) receives the paths an UPDATE changed.
Result<std::optional<Item>> Apply(const PreparedStatement& s, const Item* existing,
                                  std::vector<expr::DocumentPath>* updated) {
  const TableDescription& table = *s.table->description;
  switch (s.ast.kind) {
    case pq::StatementKind::kInsert:
      if (existing) return Status(ErrorCode::kDuplicateItem, kDuplicateItemMessage);
      return std::optional<Item>(*s.insert_item);
    case pq::StatementKind::kUpdate: {
      if (!s.condition.Evaluate(existing)) return ConditionFailed();
      MT_ASSIGN_OR_RETURN(expr::UpdateOutcome outcome, s.update->Apply(existing, s.key));
      if (ItemSize(outcome.item) > 409600) {
        return Status::Validation("Item size to update has exceeded the maximum allowed size");
      }
      MT_RETURN_IF_ERROR(table::ValidateItemKeys(table, outcome.item));
      if (updated) *updated = std::move(outcome.updated_paths);
      return std::optional<Item>(std::move(outcome.item));
    }
    case pq::StatementKind::kDelete:
      if (!existing) return std::optional<Item>();
      if (!s.condition.Evaluate(existing)) return ConditionFailed();
      return std::optional<Item>();
    case pq::StatementKind::kExists:
      if (!s.condition.Evaluate(existing)) return ConditionFailed();
      return existing ? std::optional<Item>(*existing) : std::optional<Item>();
    case pq::StatementKind::kSelect:
      break;
  }
  return Status::Internal("not a write statement");
}

ExecResult RunWrite(table::Database& db, const PreparedStatement& s, const ExecOptions& options) {
  ExecResult out;
  RecordStatement(s.Verb(), s.table->description->name, "", WriteKind(s), false);
  std::optional<Item> failed;
  std::vector<expr::DocumentPath> updated;
  // Like PutItem / UpdateItem: a write that grows an item collection past its limit is refused.
  auto result = WriteInCollection(db, *s.table, s.key, [&](const Item* existing) -> Result<std::optional<Item>> {
    failed.reset();
    auto r = Apply(s, existing, &updated);
    if (!r.ok() && r.status().code() == ErrorCode::kConditionalCheckFailed && options.return_old_on_failure &&
        existing) {
      failed = *existing;
    }
    return r;
  });
  if (!result.ok()) {
    out.status = result.status();
    out.failed_item = std::move(failed);
    return out;
  }
  const std::optional<Item>& old_item = result->old_item;
  const std::optional<Item>& new_item = result->new_item;
  out.consumed.table = api::WriteUnits(old_item ? ItemSize(*old_item) : 0, new_item ? ItemSize(*new_item) : 0);
  out.consumed.AddIndexCosts(result->index_costs);
  if (const auto& r = s.ast.returning) {
    const std::optional<Item>& source = r->new_image ? new_item : old_item;
    if (source) {
      if (r->all) {
        out.items.push_back(*source);
      } else if (!updated.empty()) {
        Item projected = expr::ProjectPaths(updated, *source);
        if (!projected.empty()) out.items.push_back(std::move(projected));
      }
    }
  }
  return out;
}

}  // namespace

AccessKind WriteKind(const PreparedStatement& s) {
  switch (s.ast.kind) {
    case pq::StatementKind::kInsert:
      return AccessKind::kPutItem;
    case pq::StatementKind::kUpdate:
      return AccessKind::kUpdateItem;
    case pq::StatementKind::kDelete:
      return AccessKind::kDeleteItem;
    default:
      return AccessKind::kConditionCheck;
  }
}

table::ApplyFn WriteApply(const PreparedStatement& s) {
  return [&s](const Item* existing) -> Result<std::optional<Item>> {
    auto r = Apply(s, existing, nullptr);
    // table::WriteAtomically cancels on ConditionalCheckFailed and Validation outcomes only (any
    // other error aborts the request), so a duplicate INSERT travels as a Validation status with
    // its own message; IsDuplicateItem() recognises it.
    if (!r.ok() && r.status().code() == ErrorCode::kDuplicateItem) return Status::Validation(r.status().message());
    return r;
  };
}

bool IsDuplicateItem(const Status& status) {
  return (status.code() == ErrorCode::kDuplicateItem || status.code() == ErrorCode::kValidation) &&
         status.message() == kDuplicateItemMessage;
}

ExecResult Execute(table::Database& db, const PreparedStatement& s, const ExecOptions& options) {
  if (s.IsRead()) return RunSelect(db, s, options);
  return RunWrite(db, s, options);
}

}  // namespace monotable::api::partiql
