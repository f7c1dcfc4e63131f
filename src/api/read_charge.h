// Charging reads of items named by key to the provisioned-throughput model (table::Throughput):
// GetItem, BatchGetItem, TransactGetItems and the PartiQL SELECTs that lower to them.
// (Query and Scan charge their pages in read_request.cc; writes are charged by the table layer.)
//
// Contract:
// - ChargeItemRead() charges `units` read units to `table` in the partition of `item`'s partition
//   key (`item` is a validated key or a whole item of that table). With the simulation on and a
//   PROVISIONED table it may refuse: ProvisionedThroughputExceededException, nothing consumed.
// - ChargeTransactionalReads() charges each read of a transactional read set (TransactGetItems,
//   ExecuteTransaction SELECTs), in request order, in its own partition, at the transactional
//   rate (twice a strongly consistent read of the item's size; a missing item costs the minimum).
//   It returns the capacity of the set (one entry per table, for ConsumedCapacity). When any read
//   is throttled the transaction is cancelled, as AWS documents for provisioned tables:
//   TransactionCanceledException whose CancellationReasons (written through ctx.error_details)
//   say "ProvisionedThroughputExceeded", with the throttle's message, for each throttled read and
//   "None" for the others. What the other reads consumed stays consumed, as for a cancelled
//   TransactWriteItems here.
// - ChargeReplayReads() answers a ClientRequestToken replay of TransactWriteItems or
//   ExecuteTransaction writes: the replay applies nothing, it reads each target item and, as AWS
//   reports it in read units, is charged those reads, in request order, each in its own partition,
//   at the transactional read rate (2 units per 4 KB, a missing item at the minimum of 2): AWS
//   documents only "read capacity units", but measured on AWS a replay of a small item reports 2.
//   It returns the capacity (one entry per table). A throttled read: ProvisionedThroughputExceededException (what the earlier reads
//   consumed stays consumed); the client may retry the replay.
#pragma once

#include <optional>
#include <vector>

#include "api/capacity.h"
#include "api/operation.h"
#include "table/transaction.h"

namespace monotable::api {

[[nodiscard]] Status ChargeItemRead(table::Database& db, const table::TableHandle& table, const Item& item,
                                    double units);

// `items[i]` is what `targets[i]` read (nullopt: no such item).
[[nodiscard]] Result<CapacityByTable> ChargeTransactionalReads(OperationContext& ctx,
                                                               const std::vector<table::ReadTarget>& targets,
                                                               const std::vector<std::optional<Item>>& items);

[[nodiscard]] Result<CapacityByTable> ChargeReplayReads(table::Database& db,
                                                        const std::vector<table::ReadTarget>& targets);

}  // namespace monotable::api
