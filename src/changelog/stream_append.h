// Stream appends on logged stores: the change applier numbers a change's stream record IN the
// stream's shard (layout: stream_record.h), so every server sharing the store numbers one
// sequence, and re-applying a change-log record appends nothing twice.
//
// Contract:
// - AppendStreamPart() appends `part`'s record for the change at `position` of the item partition
//   `source` to the shard that partition maps to, in ONE guarded commit of the shard partition:
//   it reads the head and the source's applied position; when the source's applied position is
//   >= `position` (a re-apply after a crash, or another server draining the same partition), or
//   the shard is closed, it writes nothing; otherwise it writes the record at head + 1, the new
//   head and the new applied position, guarded on both values read, and retries on
//   kGuardFailed. So records of a shard are numbered without gaps in the shard's commit order, a
//   reader that has read up to S never finds a new record below S, and each change appears exactly
//   once. Appliers of one source partition apply its records in log order (change_applier.h), so
//   an item's records keep their order.
// - CloseStreamShard() marks the shard's head closed (idempotent); it returns the shard's last
//   sequence number, which no append moves any more.
// - ReadShardHead() reads a shard's head (an untouched shard: last = its first - 1, open).
#pragma once

#include <cstdint>

#include "changelog/item_change.h"
#include "changelog/stream_record.h"
#include "engine/engine.h"

namespace monotable::changelog {

Status AppendStreamPart(engine::PartitionStore& store, engine::PartitionRef source, uint64_t position,
                        const StreamPart& part, int64_t now_ms);
Result<table::ShardHead> ReadShardHead(engine::PartitionStore& store, uint32_t stream_keyspace, uint64_t start,
                                       uint32_t shard);
Result<uint64_t> CloseStreamShard(engine::PartitionStore& store, uint32_t stream_keyspace, uint64_t start,
                                  uint32_t shard);

}  // namespace monotable::changelog
