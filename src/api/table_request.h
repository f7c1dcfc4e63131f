// Reading table definitions (key schemas, projections, throughput, indexes) out of checked
// CreateTable / UpdateTable requests into model types.
#pragma once

#include <rapidjson/document.h>

#include "model/table_description.h"

namespace monotable::api {

std::vector<KeyElement> ReadKeySchema(const rapidjson::Value& key_schema);
Projection ReadProjection(const rapidjson::Value& projection);
Throughput ReadThroughput(const rapidjson::Value* throughput);
IndexDescription ReadIndex(const rapidjson::Value& index, bool global);
double NowEpochSeconds();
// A stream label: the UTC time the stream was enabled, "2024-01-15T10:00:00.123".
std::string StreamLabel(double epoch_seconds);

}  // namespace monotable::api
