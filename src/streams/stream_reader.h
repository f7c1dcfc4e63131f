// The DynamoDB Streams read model over the change log: stream ARNs, the shard, sequence numbers,
// shard iterators and GetRecords pages. Wire JSON stays in src/api; this layer speaks in
// model types and Status (with DynamoDB's error codes and messages).
//
// Contract:
// - A stream has StreamLog::shard_count() shards (one on the embedded engines, which then holds
//   every record in one total order; several on logged stores, each holding the records of the
//   item partitions that map to it, so an item's records stay in order in one shard, the order
//   DynamoDB guarantees). A shard's id is "shardId-<its first sequence number, 20 digits>-<8 hex>"
//   (ids sort in shard order); every shard is open, with no parent, while the stream is enabled
//   and closed (it gets an EndingSequenceNumber) once the stream is disabled. Shards never split.
// - Sequence numbers are decimal strings of 21 digits (zero-padded), increasing in record order
//   within a shard, unique across the shards of a stream, comparable as integers and as strings.
// - A shard iterator is an opaque string naming the stream, the position to read from (which
//   names its shard: sequence ranges of shards are disjoint) and its creation time; it expires after 15 minutes (kExpiredIterator). It is stateless: reading with
//   the same iterator twice gives the same records. Malformed iterators are a ValidationException.
// - Reading at a position the stream has trimmed fails with kTrimmedDataAccess.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "table/stream_catalog.h"

namespace monotable::streams {

constexpr int64_t kIteratorLifetimeMs = 15 * 60 * 1000;

struct StreamName {
  std::string table_name;
  std::string label;
};

// "arn:aws:dynamodb:<region>:<account>:table/<table>/stream/<label>" -> its table and label.
std::optional<StreamName> ParseStreamArn(std::string_view arn);
// ValidationException for a malformed ARN, ResourceNotFoundException for an unknown stream.
Result<std::shared_ptr<table::StreamLog>> FindStream(const table::StreamCatalog& streams, std::string_view arn);

std::string ShardId(const table::StreamInfo& info, uint32_t shard = 0);
// The shard of `log` named `shard_id`, or nullopt.
std::optional<uint32_t> FindShard(const table::StreamLog& log, std::string_view shard_id);
std::string FormatSequenceNumber(uint64_t seq);
std::optional<uint64_t> ParseSequenceNumber(std::string_view text);

struct ShardRange {
  uint64_t starting = 0;
  std::optional<uint64_t> ending;  // set once the shard is closed
};
Result<ShardRange> RangeOf(table::StreamCatalog& streams, table::StreamLog& log, uint32_t shard);

enum class IteratorType { kTrimHorizon, kLatest, kAtSequenceNumber, kAfterSequenceNumber };
std::optional<IteratorType> ParseIteratorType(std::string_view text);

// GetShardIterator: the iterator for `shard_id` of the stream `arn`.
Result<std::string> GetShardIterator(table::StreamCatalog& streams, std::string_view arn,
                                     std::string_view shard_id, IteratorType type,
                                     std::optional<std::string_view> sequence_number, int64_t now_ms);

struct RecordsPage {
  table::StreamInfo stream;
  std::vector<table::Change> changes;
  std::optional<std::string> next_iterator;  // absent at the end of a closed shard
};

// GetRecords: at most `limit` records (and about 1 MB) from the iterator's position.
Result<RecordsPage> GetRecords(table::StreamCatalog& streams, std::string_view iterator, size_t limit, int64_t now_ms);

}  // namespace monotable::streams
