// ExecuteTransaction: up to 100 PartiQL statements run all-or-nothing: either all single-item
// SELECTs (read from one snapshot) or all writes (INSERT / UPDATE / DELETE / EXISTS condition
// checks, committed atomically). Writes are idempotent per ClientRequestToken for 10 minutes.
// A statement whose key is missing or of the wrong type cancels the transaction (ValidationError for
// it, None for the others, as DynamoDB Local models AWS); other statement errors refuse the request
// ("Validation failed in TransactStatements[i]: ...").
// Reads are charged like TransactGetItems (a throttled one cancels the transaction, read_charge.h);
// writes report their index arms beside the doubled table arm, and a write that would grow an
// item collection past its limit cancels the transaction, as in TransactWriteItems.
#include <rapidjson/stringbuffer.h>

#include <set>

#include "api/capacity.h"
#include "api/client_request_token.h"
#include "api/item_collections.h"
#include "api/item_request.h"
#include "api/ops/operations.h"
#include "api/partiql/executor.h"
#include "api/partiql/request.h"
#include "api/read_charge.h"
#include "api/transaction_cancel.h"
#include "api/request_fields.h"
#include "model/capacity.h"
#include "changelog/keys.h"
#include "table/transaction.h"

namespace monotable::api {
namespace {

using partiql::PreparedStatement;
namespace pq = partiql::pq;

std::string ShapeText() {
  return std::string(R"({
  "TransactStatements": {"type": "List", "notNull": true, "lengthGreaterThanOrEqual": 1, "lengthLessThanOrEqual": 100,
    "children": {"type": "ValueStruct<ParameterizedStatement>", "children": {
      "Statement": )") +
         partiql::kStatementShape + R"(,
      "Parameters": )" +
         partiql::kParametersShape + R"(,
      "ReturnValuesOnConditionCheckFailure": {"type": "String", "enum": ["ALL_OLD", "NONE"]}}}},
  "ClientRequestToken": {"type": "String", "lengthGreaterThanOrEqual": 1, "lengthLessThanOrEqual": 36},
  "ReturnConsumedCapacity": )" +
         kReturnConsumedCapacityShape + "}";
}

// A statement whose key is missing from its item or of another type than the table's.
bool IsKeySchemaError(const Status& s) {
  if (s.ok() || s.code() != ErrorCode::kValidation) return false;
  const std::string& m = s.message();
  return m.rfind("Key attribute should be present in the item:", 0) == 0 ||
         m.rfind("Key attribute's data type should match its data type in table's schema:", 0) == 0;
}

// Parses, checks and plans every statement, in DynamoDB's order.
Result<std::vector<PreparedStatement>> Prepare(OperationContext& ctx, bool& reads) {
  std::vector<PreparedStatement> statements;
  const auto& entries = Member(ctx.request, "TransactStatements")->GetArray();
  for (size_t i = 0; i < entries.Size(); ++i) {
    auto parameters = partiql::DecodeParameters(entries[i]);
    if (!parameters.ok()) return partiql::InTransactStatement(i, parameters.status());
    auto s = partiql::Parse(StringOr(entries[i], "Statement", ""), std::move(parameters).value());
    if (!s.ok()) return partiql::InTransactStatement(i, s.status());
    if (s->ast.returning) {
      return partiql::InTransactStatement(
          i, Status::Validation("RETURNING clause is not supported in ExecuteTransaction."));
    }
    statements.push_back(std::move(s).value());
  }
  size_t selects = 0;
  for (const auto& s : statements) selects += s.IsRead() ? 1 : 0;
  if (selects != 0 && selects != statements.size()) {
    return Status::Validation(
        "ExecuteTransaction API does not support both read and write operations in the same request.");
  }
  reads = selects != 0;
  for (size_t i = 0; i < statements.size(); ++i) {
    PreparedStatement& s = statements[i];
    if (s.IsRead() && s.ast.index) {
      return partiql::InTransactStatement(
          i, Status::Validation("Reads on indices are not supported within transactions."));
    }
    Status planned = partiql::Plan(ctx.db, s);
    if (IsKeySchemaError(planned)) {
      // As TransactWriteItems cancels on an action whose key does not match its table: the
      // statement's reason is ValidationError, every other None.
      std::vector<Status> outcomes(entries.Size(), Status::Ok());
      outcomes[i] = planned;
      std::vector<const char*> codes;
      for (const Status& o : outcomes) codes.push_back(CancellationCode(o));
      return TransactionCanceled(ctx, std::move(outcomes), std::move(codes));
    }
    MT_RETURN_IF_ERROR(partiql::InTransactStatement(i, planned));
    if (s.IsRead() && !s.ReadsOneItem()) {
      return partiql::InTransactStatement(
          i, Status::Validation(
                 "Select statements within ExecuteTransaction must specify the primary key in the where clause."));
    }
  }
  if (!reads) {
    std::set<std::pair<std::string, std::string>> targets;
    for (const auto& s : statements) {
      const TableDescription& desc = *s.table->description;
      if (!targets.emplace(desc.name, table::ItemKeyOf(desc, s.key)).second) {
        return Status::Validation("Transaction request cannot include multiple operations on one item");
      }
    }
  }
  return statements;
}

Status RunReads(OperationContext& ctx, const std::vector<PreparedStatement>& statements) {
  std::vector<table::ReadTarget> targets;
  for (const auto& s : statements) {
    targets.push_back({s.table, s.read.keys[0]});
    partiql::RecordStatement("SELECT", s.table->description->name, "", partiql::AccessKind::kGetItem, true);
  }
  MT_ASSIGN_OR_RETURN(auto items, table::ReadConsistent(ctx.db, targets));
  MT_ASSIGN_OR_RETURN(CapacityByTable capacity, ChargeTransactionalReads(ctx, targets, items));
  auto& out = ctx.out;
  out.StartObject();
  out.Key("Responses");
  out.StartArray();
  for (size_t i = 0; i < statements.size(); ++i) {
    const PreparedStatement& s = statements[i];
    out.StartObject();
    if (items[i] && s.where.Evaluate(&*items[i])) {
      out.Key("Item");
      WriteItem(out, partiql::Project(s, *items[i]));
    }
    out.EndObject();
  }
  out.EndArray();
  capacity.Write(out, StringOr(ctx.request, "ReturnConsumedCapacity", "NONE"), true);
  out.EndObject();
  return Status::Ok();
}

Status Cancelled(OperationContext& ctx, const std::vector<PreparedStatement>& statements,
                 const table::TransactionResult& result) {
  const auto& entries = Member(ctx.request, "TransactStatements")->GetArray();
  std::vector<const char*> codes;
  std::vector<std::optional<Item>> items;
  for (size_t i = 0; i < result.outcomes.size(); ++i) {
    const Status& outcome = result.outcomes[i];
    codes.push_back(partiql::IsDuplicateItem(outcome) ? "DuplicateItem" : CancellationCode(outcome));
    bool returned = outcome.code() == ErrorCode::kConditionalCheckFailed && i < statements.size() &&
                    StringOr(entries[i], "ReturnValuesOnConditionCheckFailure", "NONE") == "ALL_OLD";
    items.push_back(returned ? result.old_items[i] : std::nullopt);
  }
  return TransactionCanceled(ctx, result.outcomes, std::move(codes), std::move(items));
}

Status RunWrites(OperationContext& ctx, const std::vector<PreparedStatement>& statements) {
  std::string token(StringOr(ctx.request, "ClientRequestToken", ""));
  std::string_view capacity_mode = StringOr(ctx.request, "ReturnConsumedCapacity", "NONE");
  auto replay_targets = [&] {
    std::vector<table::ReadTarget> targets;
    for (const auto& s : statements) targets.push_back({s.table, s.key});
    return targets;
  };
  MT_ASSIGN_OR_RETURN(bool replayed,
                      BeginIdempotent(ctx, token, "partiql", {"TransactStatements", "ReturnConsumedCapacity"}, replay_targets,
                                      capacity_mode));
  if (replayed) return Status::Ok();
  std::vector<table::WriteAction> writes;
  for (const auto& s : statements) {
    partiql::RecordStatement(s.Verb(), s.table->description->name, "", partiql::WriteKind(s), true);
    bool check = s.ast.kind == pq::StatementKind::kExists;
    // As in TransactWriteItems, a write that grows an item collection past its limit cancels.
    table::ApplyFn apply = partiql::WriteApply(s);
    if (!check) apply = LimitItemCollection(ctx.db, *s.table, s.key, std::move(apply));
    writes.push_back({s.table.get(), s.key, std::move(apply), check, nullptr});
  }
  // The token's record commits with the transaction: a retry after a crash finds it.
  auto result = table::WriteAtomically(ctx.db, writes, table::WriteCharge::kTransactional, 16,
                                       table::Grouping::kAllOrNothing, ctx.idempotency.RecordMutations(token));
  if (!result.ok() || !result->committed) {
    if (!token.empty()) ctx.idempotency.Abandon(token);
    if (!result.ok()) return result.status();
    return Cancelled(ctx, statements, *result);
  }
  CapacityByTable capacity;
  for (size_t i = 0; i < statements.size(); ++i) {
    const auto& r = result->results[i];
    bool check = statements[i].ast.kind == pq::StatementKind::kExists;
    size_t old_size = r.old_item ? ItemSize(*r.old_item) : 0;
    size_t new_size = r.new_item && !check ? ItemSize(*r.new_item) : 0;
    // The table arm of a transactional write costs double; index arms do not.
    Consumption consumed{monotable::WriteUnits(std::max(old_size, new_size), true), {}, {}};
    consumed.AddIndexCosts(r.index_costs);
    capacity.Add(statements[i].table->description->name, consumed);
  }
  ctx.out.StartObject();
  capacity.Write(ctx.out, capacity_mode, false);
  ctx.out.EndObject();
  if (!token.empty()) ctx.idempotency.Finish(token);
  return Status::Ok();
}

Status Run(OperationContext& ctx) {
  bool reads = false;
  MT_ASSIGN_OR_RETURN(std::vector<PreparedStatement> statements, Prepare(ctx, reads));
  return reads ? RunReads(ctx, statements) : RunWrites(ctx, statements);
}

}  // namespace

const Operation kExecuteTransaction{"ExecuteTransaction", ShapeText, nullptr, Run};

}  // namespace monotable::api
