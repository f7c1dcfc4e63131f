// TagResource: adds or overwrites tags of a table (at most 50; keys 1-128 and values 0-256
// characters of letters, digits, white space and + - = . _ : / @; the "aws:" prefix is reserved).
// Also the ResourceArn checks every tag operation shares.
#include <algorithm>
#include <optional>
#include <set>

#include "api/ops/operations.h"
#include "api/request_fields.h"

namespace monotable::api {
namespace {

constexpr size_t kMaxTags = kMaxTagsPerTable;

constexpr const char* kShape = R"({
  "ResourceArn": {"type": "String"},
  "Tags": {"type": "List", "children": {"type": "ValueStruct<Tag>", "children": {
    "Key": {"type": "String", "notNull": true, "lengthGreaterThanOrEqual": 1, "lengthLessThanOrEqual": 128},
    "Value": {"type": "String", "notNull": true, "lengthGreaterThanOrEqual": 0, "lengthLessThanOrEqual": 256}}}}
})";

Status Validate(OperationContext& ctx) {
  MT_RETURN_IF_ERROR(CheckResourceArn(ctx, "TagResource"));
  const rapidjson::Value* tags = Member(ctx.request, "Tags");
  if (!tags) {
    return Status::Validation(
        "1 validation error detected: Value null at 'tags' failed to satisfy constraint: Member must not be null");
  }
  MT_RETURN_IF_ERROR(TableOfResourceArn(ctx).status());
  if (tags->Empty()) return Status::Validation("Atleast one Tag needs to be provided as Input.");
  return CheckTags(*tags);
}

Status Run(OperationContext& ctx) {
  MT_ASSIGN_OR_RETURN(std::string name, TableOfResourceArn(ctx));
  std::string arn(StringOr(ctx.request, "ResourceArn", ""));
  auto result = ctx.db.catalog().Modify(name, [&](TableDescription& table) -> Status {
    for (const auto& tag : Member(ctx.request, "Tags")->GetArray()) {
      std::string key(StringOr(tag, "Key", ""));
      std::string value(StringOr(tag, "Value", ""));
      auto it = std::find_if(table.tags.begin(), table.tags.end(), [&](const auto& t) { return t.first == key; });
      if (it != table.tags.end()) {
        it->second = std::move(value);
      } else {
        table.tags.emplace_back(std::move(key), std::move(value));
      }
    }
    if (table.tags.size() > kMaxTags) {
      return Status::Validation("Number of Tags exceed the current limit for the provided ResourceArn");
    }
    return Status::Ok();
  });
  if (!result.ok() && result.status().code() == ErrorCode::kResourceNotFound) {
    return Status::NotFound("Requested resource not found: ResourcArn: " + arn + " not found");
  }
  return result.status();  // an empty response body, as DynamoDB answers
}

}  // namespace

namespace {

// An ARN's six colon-separated parts (the last, the resource, may hold more colons).
struct ArnParts {
  std::string_view partition, service, region, account, resource;
};

std::optional<ArnParts> SplitArn(std::string_view arn) {
  std::string_view parts[4];
  arn.remove_prefix(4);  // "arn:"
  for (auto& part : parts) {
    size_t colon = arn.find(':');
    if (colon == std::string_view::npos) return std::nullopt;
    part = arn.substr(0, colon);
    arn.remove_prefix(colon + 1);
  }
  return ArnParts{parts[0], parts[1], parts[2], parts[3], arn};
}

}  // namespace

// How AWS classifies a ResourceArn (ack-api-quirks' DynamoDB error catalogue and ExtendDB's
// tag-resource handler, both verified against DynamoDB; ScyllaDB's test_tag.py): no "arn:"
// prefix is a ValidationException; an ARN of another service, or of another account, is an
// AccessDeniedException; a DynamoDB ARN naming something other than a table is a
// ValidationException.
Status CheckResourceArn(OperationContext& ctx, std::string_view action) {
  auto arn = StringMember(ctx.request, "ResourceArn");
  if (!arn) return Status::Validation("Invalid TableArn");
  if (arn->substr(0, 4) != "arn:") {
    return Status::Validation("One or more parameter values were invalid: ARNs must start with 'arn:': " +
                              std::string(*arn));
  }
  auto parts = SplitArn(*arn);
  if (!parts || parts->service != "dynamodb" || parts->account != ctx.identity.account || parts->resource.empty()) {
    return Status(ErrorCode::kAccessDenied, "User: arn:aws:iam::" + ctx.identity.account +
                                                ":user/monotable is not authorized to perform: dynamodb:" +
                                                std::string(action) + " on resource: " + std::string(*arn));
  }
  if (parts->resource.substr(0, 6) != "table/") {
    return Status::Validation(
        "One or more parameter values were invalid: Provided Arn is not a DynamoDB resource arn: " + std::string(*arn));
  }
  return Status::Ok();
}

Result<std::string> TableOfResourceArn(OperationContext& ctx) {
  std::string_view arn = StringOr(ctx.request, "ResourceArn", "");
  auto parts = SplitArn(arn);
  auto invalid = [&] {
    return Status::Validation("Invalid TableArn: Invalid ResourceArn provided as input " + std::string(arn));
  };
  if (!parts || parts->partition != "aws" || parts->region != ctx.identity.region) return invalid();
  std::string_view rest = parts->resource.substr(6);  // after "table/"
  size_t slash = rest.find('/');
  std::string_view name = rest.substr(0, slash);
  if (slash != std::string_view::npos) {
    std::string_view sub = rest.substr(slash + 1);
    if (sub.substr(0, 6) == "index/") {
      return Status::Validation(
          "One or more parameter values were invalid: Invalid resource arn provided, only table or stream is "
          "accepted. Provided resource arn: " +
          std::string(arn));
    }
    if (sub.substr(0, 7) != "stream/") {
      return Status::Validation(
          "One or more parameter values were invalid: Provided Arn is not a DynamoDB resource "
          "arn: " +
          std::string(arn));
    }
    return invalid();
  }
  if (name.size() < 3 || name.size() > 255) return invalid();
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.' && c != '-') return invalid();
  }
  return std::string(name);
}

bool ValidTagText(std::string_view s) {
  for (char ch : s) {
    auto c = static_cast<unsigned char>(ch);
    if (c >= 0x80 || std::isalnum(c) || c == ' ') continue;
    if (std::string_view("_.:/=+-@").find(static_cast<char>(c)) == std::string_view::npos) return false;
  }
  return true;
}

// AWS's words (ack-api-quirks' DynamoDB error catalogue, recorded against AWS for TagResource,
// UntagResource and CreateTable): a key or value outside the allowed characters, a key with the
// reserved "aws:" prefix, a key given twice.
Status CheckTags(const rapidjson::Value& tags) {
  std::set<std::string_view> keys;
  for (const auto& tag : tags.GetArray()) {
    std::string_view key = StringOr(tag, "Key", ""), value = StringOr(tag, "Value", "");
    if (!ValidTagText(key)) return Status::Validation("The Tag Key provided is invalid, Key: " + std::string(key));
    if (!ValidTagText(value))
      return Status::Validation("The Tag Value provided is invalid, Value: " + std::string(value));
    if (key.substr(0, 4) == "aws:")
      return Status::Validation("Tag Key cannot be prefixed with aws:, Key: " + std::string(key));
    if (!keys.insert(key).second) {
      return Status::Validation("Duplicate Tag Keys provided as input: Duplicate Tag Key found " + std::string(key));
    }
  }
  return Status::Ok();
}

const Operation kTagResource{"TagResource", kShape, Validate, Run};

}  // namespace monotable::api
