// libFuzzer target: the whole HTTP request path. Arbitrary bytes go through Beast's request
// parser (as the server reads them) and, when they form a request, through Service::Handle
// against an in-memory database holding a few tables. Every input must end in an HTTP answer:
// a crash, a sanitizer report or a 5xx for a client mistake is a bug, and so is a JSON answer
// that a strict reader refuses (not UTF-8, a raw control character, bad syntax) or whose
// x-amz-crc32 is not the CRC32 of the bytes sent (compressed answers are inflated to check them).
//
// Built only with -DMONOTABLE_FUZZ=ON and clang (see CMakeLists.txt); run by scripts/fuzz.sh.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <string>

#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <libdeflate.h>
#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <zlib.h>

#include "api/service.h"
#include "table/database.h"

namespace {

namespace http = boost::beast::http;
using monotable::api::HttpRequestView;
using monotable::api::Service;

Service& TheService() {
  static auto db = [] {
    auto d = std::make_unique<monotable::table::Database>(monotable::engine::NewMemoryEngine());
    (void)d->catalog().Load();
    return d;
  }();
  static Service service(*db, {});
  static bool seeded = [] {
    // A table with a sort key and indexes, so item operations reach the table layer.
    HttpRequestView create;
    create.method = "POST";
    create.target = "DynamoDB_20120810.CreateTable";
    create.content_type = "application/x-amz-json-1.0";
    create.body = R"({"TableName":"fuzz","BillingMode":"PAY_PER_REQUEST",
      "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"N"},
                              {"AttributeName":"g","AttributeType":"S"}],
      "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],
      "GlobalSecondaryIndexes":[{"IndexName":"byg","KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],
                                 "Projection":{"ProjectionType":"ALL"}}]})";
    service.Handle(create);
    return true;
  }();
  (void)seeded;
  return service;
}

std::string_view HeaderOf(const monotable::api::HttpResponse& r, std::string_view name) {
  for (const auto& [k, v] : r.headers) {
    if (k == name) return v;
  }
  return {};
}

void Fail(const char* what, const std::string& body) {
  std::fprintf(stderr, "%s: %s\n", what, body.c_str());
  std::abort();
}

// Inflates a gzip or zlib answer (zlib detects which).
std::string Inflate(const std::string& in) {
  z_stream z{};
  if (inflateInit2(&z, 32 + MAX_WBITS) != Z_OK) Fail("inflateInit2", "");
  std::string out(in.size() * 8 + 1024, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  size_t produced = 0;
  int rc = Z_OK;
  while (rc == Z_OK) {
    if (produced == out.size()) out.resize(out.size() * 2);
    z.next_out = reinterpret_cast<Bytef*>(out.data() + produced);
    z.avail_out = static_cast<uInt>(out.size() - produced);
    const uInt before = z.avail_out;
    rc = inflate(&z, Z_NO_FLUSH);
    produced += before - z.avail_out;
  }
  inflateEnd(&z);
  if (rc != Z_STREAM_END) Fail("compressed answer does not inflate", in);
  out.resize(produced);
  return out;
}

void CheckAnswer(const monotable::api::HttpResponse& response) {
  const std::string_view crc = HeaderOf(response, "x-amz-crc32");
  if (crc != std::to_string(libdeflate_crc32(0, response.body.data(), response.body.size()))) {
    Fail("x-amz-crc32 is not the CRC32 of the body", response.body);
  }
  const std::string_view type = HeaderOf(response, "Content-Type");
  if (type.find("json") == std::string_view::npos || response.body.empty()) return;
  const std::string body = HeaderOf(response, "Content-Encoding").empty() ? response.body : Inflate(response.body);
  // Our answers hold no raw control byte at all (no whitespace between tokens, strings escaped);
  // RapidJSON's SSE2 parser would take U+001A..U+001F raw, so they are looked for here.
  for (char c : body) {
    if (static_cast<unsigned char>(c) < 0x20) Fail("raw control character in a JSON answer", body);
  }
  rapidjson::Document doc;
  doc.Parse<rapidjson::kParseValidateEncodingFlag>(body.data(), body.size());
  if (doc.HasParseError()) Fail(rapidjson::GetParseError_En(doc.GetParseError()), body);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Service& service = TheService();
  http::request_parser<http::string_body> parser;
  parser.body_limit(1 << 20);
  boost::beast::error_code ec;
  parser.eager(true);
  parser.put(boost::asio::buffer(data, size), ec);
  if (ec || !parser.is_done()) return 0;
  auto& req = parser.get();
  auto view_of = [&](boost::beast::string_view v) { return std::string_view(v.data(), v.size()); };
  auto header = [&](const char* name) -> std::string_view {
    auto it = req.find(name);
    return it == req.end() ? std::string_view() : view_of(it->value());
  };
  HttpRequestView view;
  view.method = view_of(req.method_string());
  view.url = view_of(req.target());
  for (const auto& f : req) view.headers.emplace_back(view_of(f.name_string()), view_of(f.value()));
  view.target = header("X-Amz-Target");
  view.content_type = header("Content-Type");
  view.origin = header("Origin");
  view.host = header("Host");
  view.content_encoding = header("Content-Encoding");
  view.accept_encoding = header("Accept-Encoding");
  view.body = std::move(req.body());
  auto response = service.Handle(view);
  if (response.status >= 500) Fail("5xx answer", response.body);
  CheckAnswer(response);
  return 0;
}
