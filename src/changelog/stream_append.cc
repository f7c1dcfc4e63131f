#include "changelog/stream_append.h"

#include <string>

namespace monotable::changelog {
namespace {

table::ShardHead HeadOf(const std::optional<std::string>& raw, uint64_t start, uint32_t shard) {
  if (raw) {
    if (auto head = table::DecodeShardHead(*raw)) return *head;
  }
  return {table::ShardFirstSequence(start, shard) - 1, false};
}

}  // namespace

Status AppendStreamPart(engine::PartitionStore& store, engine::PartitionRef source, uint64_t position,
                        const StreamPart& part, int64_t now_ms) {
  const uint32_t shard = table::ShardOfPartition(source.id, part.shard_count);
  const std::string id = table::StreamShardPartitionId(shard, true);
  const engine::PartitionRef ref{part.stream_keyspace, id};
  const std::string head_key = table::StreamHeadKey();
  const std::string applied_key = table::StreamAppliedKey(source.id);
  for (;;) {
    MT_ASSIGN_OR_RETURN(std::optional<std::string> head_raw, store.Get(ref, head_key));
    MT_ASSIGN_OR_RETURN(std::optional<std::string> applied_raw, store.Get(ref, applied_key));
    const table::ShardHead head = HeadOf(head_raw, part.start, shard);
    if (head.closed) return Status::Ok();  // disabled: the change is not part of the stream
    if (applied_raw) {
      auto applied = table::DecodeAppliedPosition(*applied_raw);
      if (applied && applied->position >= position) return Status::Ok();  // appended already
    }
    const uint64_t seq = head.last + 1;
    engine::PartitionWrite write;
    write.guards.push_back({head_key, head_raw});
    write.guards.push_back({applied_key, applied_raw});
    write.mutations.push_back({table::StreamSequenceKey(seq), part.record});
    write.mutations.push_back({head_key, table::EncodeShardHead({seq, false})});
    write.mutations.push_back({applied_key, table::EncodeAppliedPosition({position, now_ms, source.keyspace})});
    auto committed = store.Commit(ref, std::move(write));
    if (committed.ok()) return Status::Ok();
    if (committed.status().code() != ErrorCode::kGuardFailed) return committed.status();
  }
}

Result<table::ShardHead> ReadShardHead(engine::PartitionStore& store, uint32_t stream_keyspace, uint64_t start,
                                       uint32_t shard) {
  const std::string id = table::StreamShardPartitionId(shard, true);
  MT_ASSIGN_OR_RETURN(std::optional<std::string> raw, store.Get({stream_keyspace, id}, table::StreamHeadKey()));
  return HeadOf(raw, start, shard);
}

Result<uint64_t> CloseStreamShard(engine::PartitionStore& store, uint32_t stream_keyspace, uint64_t start,
                                  uint32_t shard) {
  const std::string id = table::StreamShardPartitionId(shard, true);
  const engine::PartitionRef ref{stream_keyspace, id};
  const std::string head_key = table::StreamHeadKey();
  for (;;) {
    MT_ASSIGN_OR_RETURN(std::optional<std::string> raw, store.Get(ref, head_key));
    table::ShardHead head = HeadOf(raw, start, shard);
    if (head.closed) return head.last;
    engine::PartitionWrite write;
    write.guards.push_back({head_key, raw});
    write.mutations.push_back({head_key, table::EncodeShardHead({head.last, true})});
    auto committed = store.Commit(ref, std::move(write));
    if (committed.ok()) return head.last;
    if (committed.status().code() != ErrorCode::kGuardFailed) return committed.status();
  }
}

}  // namespace monotable::changelog
