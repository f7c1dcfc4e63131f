#include "api/client_request_token.h"

#include <openssl/sha.h>
#include <rapidjson/stringbuffer.h>

#include "api/read_charge.h"
#include "api/request_fields.h"

namespace monotable::api {

std::string RequestFingerprint(const rapidjson::Value& request, std::string_view tag,
                               std::initializer_list<const char*> members) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartArray();
  if (!tag.empty()) w.String(tag.data(), static_cast<rapidjson::SizeType>(tag.size()));
  for (const char* m : members) {
    if (const auto* v = Member(request, m)) {
      v->Accept(w);
    } else {
      w.Null();
    }
  }
  w.EndArray();
  return std::string(buffer.GetString(), buffer.GetSize());
}

std::string RequestDigest(std::string_view fingerprint) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(fingerprint.data()), fingerprint.size(), digest);
  return std::string(reinterpret_cast<const char*>(digest), sizeof digest);
}

Result<bool> BeginIdempotent(OperationContext& ctx, const std::string& token, std::string_view tag,
                             std::initializer_list<const char*> members,
                             const std::function<std::vector<table::ReadTarget>()>& targets,
                             std::string_view capacity_mode) {
  if (token.empty()) return false;
  auto outcome = ctx.idempotency.Begin(token, RequestDigest(RequestFingerprint(ctx.request, tag, members)));
  switch (outcome.decision) {
    case txn::IdempotencyCache::Decision::kRun:
      return false;
    case txn::IdempotencyCache::Decision::kMismatch:
      return Status(ErrorCode::kIdempotentParameterMismatch,
                    "Request parameters do not match the parameters of the request with the same ClientRequestToken");
    case txn::IdempotencyCache::Decision::kInProgress:
      return Status(ErrorCode::kTransactionInProgress, "Transaction is in progress");
    case txn::IdempotencyCache::Decision::kReplay:
      break;
  }
  // A replay applies nothing; AWS reports (and charges) the reads it makes to answer.
  MT_ASSIGN_OR_RETURN(CapacityByTable capacity, ChargeReplayReads(ctx.db, targets()));
  ctx.out.StartObject();
  capacity.Write(ctx.out, capacity_mode, true);
  ctx.out.EndObject();
  return true;
}

}  // namespace monotable::api
