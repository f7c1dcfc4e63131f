#include "api/read_charge.h"

#include "api/transaction_cancel.h"

#include <string>

#include "api/request_fields.h"
#include "model/capacity.h"

namespace monotable::api {

Status ChargeItemRead(table::Database& db, const table::TableHandle& table, const Item& item, double units) {
  const TableDescription& desc = *table.description;
  auto it = item.find(desc.hash_key());
  return db.throughput().Consume(desc, nullptr, it == item.end() ? nullptr : &it->second, units, /*write=*/false,
                                 table.stats->size_bytes.load(std::memory_order_relaxed));
}

Result<CapacityByTable> ChargeTransactionalReads(OperationContext& ctx, const std::vector<table::ReadTarget>& targets,
                                                 const std::vector<std::optional<Item>>& items) {
  CapacityByTable capacity;
  std::vector<Status> outcomes;
  bool throttled = false;
  for (size_t i = 0; i < targets.size(); ++i) {
    const table::TableHandle& table = *targets[i].table;
    double units = monotable::ReadUnits(items[i] ? ItemSize(*items[i]) : 0, ReadMode::kTransactional);
    Status charged = ChargeItemRead(ctx.db, table, targets[i].key, units);
    if (charged.ok()) {
      capacity.Add(table.description->name, units);
    } else if (charged.code() == ErrorCode::kProvisionedThroughputExceeded) {
      throttled = true;
    } else {
      return charged;
    }
    outcomes.push_back(std::move(charged));
  }
  if (!throttled) return capacity;

  std::vector<const char*> codes;
  for (const Status& outcome : outcomes) codes.push_back(CancellationCode(outcome));
  return TransactionCanceled(ctx, std::move(outcomes), std::move(codes));
}

Result<CapacityByTable> ChargeReplayReads(table::Database& db, const std::vector<table::ReadTarget>& targets) {
  CapacityByTable capacity;
  for (const table::ReadTarget& target : targets) {
    const table::TableHandle& table = *target.table;
    MT_ASSIGN_OR_RETURN(auto current, db.GetItem(table, target.key));
    double units = monotable::ReadUnits(current ? ItemSize(*current) : 0, ReadMode::kTransactional);
    MT_RETURN_IF_ERROR(ChargeItemRead(db, table, target.key, units));
    capacity.Add(table.description->name, units);
  }
  return capacity;
}

}  // namespace monotable::api
