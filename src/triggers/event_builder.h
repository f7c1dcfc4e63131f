// The event a Lambda function receives from a DynamoDB stream event source mapping, built from
// change-log records.
//
// Contract: RecordJson() writes one record as Lambda delivers it:
//   {"eventID", "eventName": INSERT|MODIFY|REMOVE, "eventVersion": "1.1", "eventSource": "aws:dynamodb",
//    "awsRegion", "dynamodb": {"ApproximateCreationDateTime": <epoch seconds, a number>, "Keys",
//    "NewImage"?, "OldImage"? (as the view type carries them), "SequenceNumber", "SizeBytes",
//    "StreamViewType"}, "userIdentity": {"type": "Service", "principalId": "dynamodb.amazonaws.com"}
//    (TTL deletions only), "eventSourceARN": the stream ARN}
// with values in DynamoDB JSON (numbers as strings, binary as base64). The eventID is the one
// GetRecords reports for the same record. EventJson() wraps records as {"Records": [...]}.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "table/stream_catalog.h"

namespace monotable::triggers {

std::string StreamArn(std::string_view region, std::string_view account, const table::StreamInfo& info);
std::string EventId(const table::StreamInfo& info, uint64_t seq);
std::string RecordJson(const table::StreamInfo& info, std::string_view arn, std::string_view region,
                       const table::Change& change);
std::string EventJson(const std::vector<const std::string*>& records);

}  // namespace monotable::triggers
