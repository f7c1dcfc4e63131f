#include "cli/dynamo_client.h"

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

namespace monotable::cli {

namespace beast = boost::beast;
namespace http = beast::http;
using tcp = boost::asio::ip::tcp;

Result<DynamoClient> DynamoClient::Create(const std::string& endpoint, AwsSettings settings) {
  std::string rest = endpoint;
  if (rest.rfind("http://", 0) == 0)
    rest = rest.substr(7);
  else if (rest.find("://") != std::string::npos)
    return Status::Validation("only http:// endpoints are supported: " + endpoint);
  while (!rest.empty() && rest.back() == '/') rest.pop_back();
  DynamoClient c;
  size_t colon = rest.rfind(':');
  if (colon == std::string::npos) {
    c.host_ = rest;
    c.port_ = "80";
  } else {
    c.host_ = rest.substr(0, colon);
    c.port_ = rest.substr(colon + 1);
  }
  if (c.host_.empty() || c.port_.empty()) return Status::Validation("bad endpoint " + endpoint);
  c.settings_ = std::move(settings);
  return c;
}

Result<rapidjson::Document> DynamoClient::Call(const std::string& operation, const std::string& body,
                                               std::string* error_type, std::string* explain) const {
  boost::asio::io_context io;
  tcp::resolver resolver(io);
  beast::tcp_stream stream(io);
  beast::error_code ec;
  auto endpoints = resolver.resolve(host_, port_, ec);
  if (ec) return Status::Io("cannot resolve " + host_ + ": " + ec.message());
  stream.connect(endpoints, ec);
  if (ec) return Status::Io("cannot connect to " + host_ + ":" + port_ + ": " + ec.message());
  http::request<http::string_body> req{http::verb::post, "/", 11};
  const std::string host = port_ == "80" ? host_ : host_ + ":" + port_;
  const std::vector<std::pair<std::string, std::string>> headers = {
      {"Content-Type", "application/x-amz-json-1.0"}, {"X-Amz-Target", "DynamoDB_20120810." + operation}};
  req.set(http::field::host, host);
  for (const auto& [name, value] : headers) req.set(name, value);
  if (settings_.key) {
    for (const auto& [name, value] :
         api::SignRequest(*settings_.key, settings_.region, "dynamodb", "POST", "/", host, headers, body)) {
      req.set(name, value);
    }
  }
  if (explain) req.set("x-monotable-explain", "1");
  req.body() = body;
  req.prepare_payload();
  http::write(stream, req, ec);
  if (ec) return Status::Io("cannot send " + operation + ": " + ec.message());
  beast::flat_buffer buffer;
  http::response_parser<http::string_body> parser;
  parser.body_limit(64 * 1024 * 1024);
  http::read(stream, buffer, parser, ec);
  if (ec) return Status::Io("no answer to " + operation + ": " + ec.message());
  stream.socket().shutdown(tcp::socket::shutdown_both, ec);
  const auto& res = parser.get();
  if (explain) {
    auto it = res.find("x-monotable-explain");
    *explain = it == res.end() ? "" : std::string(it->value());
  }
  rapidjson::Document doc;
  doc.Parse(res.body().c_str());
  if (res.result_int() == 200 && !doc.HasParseError()) return doc;
  std::string type = "HTTP " + std::to_string(res.result_int());
  std::string message = res.body();
  if (!doc.HasParseError() && doc.IsObject()) {
    if (doc.HasMember("__type") && doc["__type"].IsString()) {
      type = doc["__type"].GetString();
      if (size_t hash = type.rfind('#'); hash != std::string::npos) type = type.substr(hash + 1);
    }
    for (const char* field : {"message", "Message"}) {
      if (doc.HasMember(field) && doc[field].IsString()) message = doc[field].GetString();
    }
  }
  if (error_type) *error_type = type;
  return Status::Validation(type + ": " + message);
}

}  // namespace monotable::cli
