#include "api/table_request.h"

#include <chrono>
#include <cstdio>
#include <ctime>

#include "api/request_fields.h"

namespace monotable::api {

std::vector<KeyElement> ReadKeySchema(const rapidjson::Value& key_schema) {
  std::vector<KeyElement> keys;
  for (const auto& k : key_schema.GetArray()) {
    keys.push_back({std::string(StringOr(k, "AttributeName", "")),
                    StringOr(k, "KeyType", "") == "RANGE" ? KeyRole::kRange : KeyRole::kHash});
  }
  return keys;
}

Projection ReadProjection(const rapidjson::Value& projection) {
  Projection p;
  std::string_view type = StringOr(projection, "ProjectionType", "");
  p.type = type == "KEYS_ONLY" ? ProjectionType::kKeysOnly
           : type == "INCLUDE" ? ProjectionType::kInclude
                               : ProjectionType::kAll;
  if (const auto* attrs = Member(projection, "NonKeyAttributes")) {
    for (const auto& a : attrs->GetArray()) p.non_key_attributes.emplace_back(a.GetString(), a.GetStringLength());
  }
  return p;
}

Throughput ReadThroughput(const rapidjson::Value* throughput) {
  Throughput t;
  if (!throughput) return t;
  t.read_units = IntMember(*throughput, "ReadCapacityUnits").value_or(0);
  t.write_units = IntMember(*throughput, "WriteCapacityUnits").value_or(0);
  return t;
}

IndexDescription ReadIndex(const rapidjson::Value& index, bool global) {
  IndexDescription out;
  out.name = std::string(StringOr(index, "IndexName", ""));
  out.global = global;
  out.key_schema = ReadKeySchema(*Member(index, "KeySchema"));
  out.projection = ReadProjection(*Member(index, "Projection"));
  out.throughput = ReadThroughput(Member(index, "ProvisionedThroughput"));
  return out;
}

double NowEpochSeconds() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count() / 1e3;
}

std::string StreamLabel(double epoch_seconds) {
  auto secs = static_cast<time_t>(epoch_seconds);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char label[40];
  std::snprintf(label, sizeof label, "%04d-%02d-%02dT%02d:%02d:%02d.%03d", tm.tm_year + 1900, tm.tm_mon + 1,
                tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                static_cast<int>((epoch_seconds - static_cast<double>(secs)) * 1000));
  return label;
}

}  // namespace monotable::api
