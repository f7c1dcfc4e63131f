// libFuzzer target: the whole HTTP request path. Arbitrary bytes go through Beast's request
// parser (as the server reads them) and, when they form a request, through Service::Handle
// against an in-memory database holding a few tables. Every input must end in an HTTP answer:
// a crash, a sanitizer report or a 5xx for a client mistake is a bug.
//
// Built only with -DMONOTABLE_FUZZ=ON and clang (see CMakeLists.txt); run by scripts/fuzz.sh.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <string>

#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

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
  view.body = std::move(req.body());
  auto response = service.Handle(view);
  if (response.status >= 500) {
    std::fprintf(stderr, "5xx answer: %s\n", response.body.c_str());
    std::abort();
  }
  return 0;
}
