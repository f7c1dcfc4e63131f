#include "api/request_fields.h"

namespace monotable::api {

const rapidjson::Value* Member(const rapidjson::Value& obj, std::string_view name) {
  if (!obj.IsObject()) return nullptr;
  auto it = obj.FindMember(rapidjson::StringRef(name.data(), name.size()));
  if (it == obj.MemberEnd() || it->value.IsNull()) return nullptr;
  return &it->value;
}

std::optional<std::string_view> StringMember(const rapidjson::Value& obj, std::string_view name) {
  const rapidjson::Value* v = Member(obj, name);
  if (!v || !v->IsString()) return std::nullopt;
  return std::string_view(v->GetString(), v->GetStringLength());
}

std::string_view StringOr(const rapidjson::Value& obj, std::string_view name, std::string_view fallback) {
  return StringMember(obj, name).value_or(fallback);
}

std::optional<bool> BoolMember(const rapidjson::Value& obj, std::string_view name) {
  const rapidjson::Value* v = Member(obj, name);
  if (!v || !v->IsBool()) return std::nullopt;
  return v->GetBool();
}

std::optional<int64_t> IntMember(const rapidjson::Value& obj, std::string_view name) {
  const rapidjson::Value* v = Member(obj, name);
  if (!v || !v->IsNumber()) return std::nullopt;
  if (v->IsInt64()) return v->GetInt64();
  if (v->IsUint64()) return INT64_MAX;
  double d = v->GetDouble();
  return d > 9.2e18 ? INT64_MAX : d < -9.2e18 ? INT64_MIN : static_cast<int64_t>(d);
}

std::string TableNameOf(const rapidjson::Value& request, std::string_view member) {
  std::string_view name = StringOr(request, member, "");
  if (name.substr(0, 4) == "arn:") {
    auto slash = name.find(":table/");
    if (slash != std::string_view::npos) {
      name.remove_prefix(slash + 7);
      name = name.substr(0, name.find('/'));
    }
  }
  return std::string(name);
}

std::string TableArn(const ServerIdentity& identity, std::string_view table_name) {
  return "arn:aws:dynamodb:" + identity.region + ":" + identity.account + ":table/" + std::string(table_name);
}

Result<std::shared_ptr<const table::TableHandle>> RequestTable(OperationContext& ctx) {
  return ctx.db.Table(TableNameOf(ctx.request));
}

void WriteString(JsonWriter& w, std::string_view key, std::string_view value) {
  w.Key(key.data(), static_cast<rapidjson::SizeType>(key.size()));
  w.String(value.data(), static_cast<rapidjson::SizeType>(value.size()));
}

}  // namespace monotable::api
