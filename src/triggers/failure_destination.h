// The on-failure destination: where a batch goes when its retries or its records' age run out.
//
// Contract: FailureRecordJson() is Lambda's invocation record for a stream batch
//   {"requestContext": {"requestId", "functionArn", "condition": RetryAttemptsExhausted |
//    RecordAgeExceeded, "approximateInvokeCount"}, "responseContext": {"statusCode",
//    "executedVersion": "$LATEST", "functionError"?}, "version": "1.0", "timestamp",
//    "DDBStreamBatchInfo": {"shardId", "startSequenceNumber", "endSequenceNumber",
//    "approximateArrivalOfFirstRecord", "approximateArrivalOfLastRecord", "batchSize", "streamArn"},
//    "payload": the event}
// ("payload" is what Lambda adds for an S3 destination; here it always comes along, so the failed
// records can be replayed.)
// Send() appends it as one line to a file (created if missing; one write, then fsync) or writes it
// as an item to a table: a table keyed by a String hash key alone gets
// "<trigger>#<startSequenceNumber>"; with a range key, hash = trigger name and range =
// startSequenceNumber (S or N); plus attributes condition, shardId, startSequenceNumber,
// endSequenceNumber, batchSize, timestamp and record (the JSON text; without "payload" if the
// item would pass 400 KB).
#pragma once

#include <string>

#include "table/database.h"
#include "triggers/config.h"

namespace monotable::triggers {

struct FailureInfo {
  std::string trigger;
  std::string function_arn;
  std::string condition;  // RetryAttemptsExhausted | RecordAgeExceeded
  int invoke_count = 0;
  int status_code = 200;       // of the last invocation (0: none)
  std::string function_error;  // "Unhandled" etc.; empty: none
  std::string shard_id;
  std::string stream_arn;
  uint64_t first_seq = 0;
  uint64_t last_seq = 0;
  int64_t first_created_ms = 0;
  int64_t last_created_ms = 0;
  size_t batch_size = 0;
  std::string payload;  // the event JSON
  int64_t now_ms = 0;
};

std::string FailureRecordJson(const FailureInfo& info, bool with_payload = true);
Status SendToDestination(table::Database& db, const Destination& destination, const FailureInfo& info);

}  // namespace monotable::triggers
