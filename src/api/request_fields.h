// Typed reads of members of a checked request (after CheckRequest), and table-name resolution.
//
// Contract: the getters return the member or a default when it is absent; they never fail,
// because the shape pass has already guaranteed each present member's JSON kind.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <rapidjson/document.h>

#include "api/operation.h"

namespace monotable::api {

const rapidjson::Value* Member(const rapidjson::Value& obj, std::string_view name);
std::optional<std::string_view> StringMember(const rapidjson::Value& obj, std::string_view name);
std::string_view StringOr(const rapidjson::Value& obj, std::string_view name, std::string_view fallback);
std::optional<bool> BoolMember(const rapidjson::Value& obj, std::string_view name);
std::optional<int64_t> IntMember(const rapidjson::Value& obj, std::string_view name);

// The table name of a TableName member, which may also be a table ARN.
std::string TableNameOf(const rapidjson::Value& request, std::string_view member = "TableName");
std::string TableArn(const ServerIdentity& identity, std::string_view table_name);

// The table named by the request, or ResourceNotFoundException.
Result<std::shared_ptr<const table::TableHandle>> RequestTable(OperationContext& ctx);

void WriteString(JsonWriter& w, std::string_view key, std::string_view value);

}  // namespace monotable::api
