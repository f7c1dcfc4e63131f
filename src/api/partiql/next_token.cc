#include "api/partiql/next_token.h"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>

#include <cstdio>

#include "api/request_fields.h"
#include "api/wire_value.h"
#include "common/base64.h"

namespace monotable::api::partiql {
namespace {

std::string Fingerprint(const PreparedStatement& s) {
  uint64_t h = 1469598103934665603ULL;
  auto mix = [&](std::string_view bytes) {
    for (unsigned char c : bytes) h = (h ^ c) * 1099511628211ULL;
    h = (h ^ 0xff) * 1099511628211ULL;
  };
  mix(s.text);
  for (const AttributeValue& p : s.parameters) {
    rapidjson::StringBuffer buffer;
    JsonWriter w(buffer);
    WriteAttributeValue(w, p);
    mix(std::string_view(buffer.GetString(), buffer.GetSize()));
  }
  char hex[17];
  std::snprintf(hex, sizeof(hex), "%016llx", static_cast<unsigned long long>(h));
  return hex;
}

Status Invalid() { return Status::Validation("Invalid NextToken"); }

bool KeyMatches(const TableDescription& table, const std::vector<KeyElement>& keys, const Item& start) {
  for (const auto& k : keys) {
    auto it = start.find(k.name);
    if (it == start.end() || table.AttributeType(k.name) != it->second.type()) return false;
  }
  return true;
}

}  // namespace

std::string EncodeNextToken(const PreparedStatement& s, const PagePosition& position) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  w.Key("h");
  std::string fingerprint = Fingerprint(s);
  w.String(fingerprint.data(), static_cast<rapidjson::SizeType>(fingerprint.size()));
  w.Key("p");
  w.Uint64(position.partition);
  if (position.start) {
    w.Key("k");
    WriteItem(w, *position.start);
  }
  w.EndObject();
  return Base64Encode(std::string_view(buffer.GetString(), buffer.GetSize()));
}

Result<PagePosition> DecodeNextToken(const PreparedStatement& s, std::string_view token) {
  if (!IsCanonicalBase64(token)) return Invalid();
  std::string json = Base64Decode(token);
  rapidjson::Document doc;
  doc.Parse(json.data(), json.size());
  if (doc.HasParseError() || !doc.IsObject()) return Invalid();
  const rapidjson::Value* h = Member(doc, "h");
  const rapidjson::Value* p = Member(doc, "p");
  if (!h || !h->IsString() || !p || !p->IsUint64()) return Invalid();
  if (std::string_view(h->GetString(), h->GetStringLength()) != Fingerprint(s)) {
    return Status::Validation("The provided starting key is invalid");
  }
  PagePosition position;
  position.partition = p->GetUint64();
  size_t partitions = s.read.kind == AccessKind::kQuery ? s.read.partitions.size() : 1;
  if (position.partition >= partitions) return Invalid();
  if (const rapidjson::Value* k = Member(doc, "k")) {
    if (!k->IsObject()) return Invalid();
    auto start = DecodeItem(*k);
    if (!start.ok()) return Invalid();
    const TableDescription& table = *s.table->description;
    if (!KeyMatches(table, table.key_schema, *start)) return Invalid();
    if (s.index && !KeyMatches(table, s.index->key_schema, *start)) return Invalid();
    position.start = std::move(start).value();
  }
  return position;
}

}  // namespace monotable::api::partiql
