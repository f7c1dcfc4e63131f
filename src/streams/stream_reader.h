// The DynamoDB Streams read model over the change log: stream ARNs, the shard, sequence numbers,
// shard iterators and GetRecords pages. Wire JSON stays in src/api; this layer speaks in
// model types and Status (with DynamoDB's error codes and messages).
//
// Contract:
// - Each stream has one shard, which holds every record of the stream in sequence order (so the
//   per-item order DynamoDB guarantees holds, and a stronger total order too). Its id is
//   "shardId-<20 digits>-<8 hex>"; it is open while the stream is enabled and closed (it gets an
//   EndingSequenceNumber) once the stream is disabled.
// - Sequence numbers are decimal strings of 21 digits (zero-padded), increasing in record order,
//   comparable as integers and as strings.
// - A shard iterator is an opaque string naming the stream, the position to read from and its
//   creation time; it expires after 15 minutes (kExpiredIterator). It is stateless: reading with
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

std::string ShardId(const table::StreamInfo& info);
std::string FormatSequenceNumber(uint64_t seq);
std::optional<uint64_t> ParseSequenceNumber(std::string_view text);

struct ShardRange {
  uint64_t starting = 0;
  std::optional<uint64_t> ending;  // set once the shard is closed
};
ShardRange RangeOf(const table::StreamLog& log);

enum class IteratorType { kTrimHorizon, kLatest, kAtSequenceNumber, kAfterSequenceNumber };
std::optional<IteratorType> ParseIteratorType(std::string_view text);

// GetShardIterator: the iterator for `shard_id` of the stream `arn`.
Result<std::string> GetShardIterator(const table::StreamCatalog& streams, std::string_view arn,
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
