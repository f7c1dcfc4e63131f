#include "cli/dynamo_client.h"

#include <openssl/ssl.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

namespace monotable::cli {

namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = boost::asio::ssl;
using tcp = boost::asio::ip::tcp;

namespace {

// Sends `req` and reads the answer over a connected stream (plain or TLS).
template <typename Stream>
Status WriteAndRead(Stream& stream, http::request<http::string_body>& req, http::response_parser<http::string_body>& parser,
                const std::string& operation) {
  beast::error_code ec;
  http::write(stream, req, ec);
  if (ec) return Status::Io("cannot send " + operation + ": " + ec.message());
  beast::flat_buffer buffer;
  parser.body_limit(64 * 1024 * 1024);
  http::read(stream, buffer, parser, ec);
  if (ec) return Status::Io("no answer to " + operation + ": " + ec.message());
  return Status::Ok();
}

}  // namespace

Result<DynamoClient> DynamoClient::Create(const std::string& endpoint, AwsSettings settings) {
  std::string rest = endpoint;
  DynamoClient c;
  if (rest.rfind("http://", 0) == 0) {
    rest = rest.substr(7);
  } else if (rest.rfind("https://", 0) == 0) {
    rest = rest.substr(8);
    c.tls_ = true;
  } else if (rest.find("://") != std::string::npos) {
    return Status::Validation("only http:// and https:// endpoints are supported: " + endpoint);
  }
  while (!rest.empty() && rest.back() == '/') rest.pop_back();
  size_t colon = rest.rfind(':');
  if (colon == std::string::npos) {
    c.host_ = rest;
    c.port_ = c.tls_ ? "443" : "80";
  } else {
    c.host_ = rest.substr(0, colon);
    c.port_ = rest.substr(colon + 1);
  }
  if (c.host_.empty() || c.port_.empty()) return Status::Validation("bad endpoint " + endpoint);
  c.settings_ = std::move(settings);
  return c;
}

Result<DynamoClient::Answer> DynamoClient::Exchange(
    const std::string& method, const std::string& path, const std::vector<std::pair<std::string, std::string>>& headers,
    const std::string& body, bool ask_explain, const std::string& what) const {
  const std::string& operation = what;
  boost::asio::io_context io;
  tcp::resolver resolver(io);
  beast::error_code ec;
  auto endpoints = resolver.resolve(host_, port_, ec);
  if (ec) return Status::Io("cannot resolve " + host_ + ": " + ec.message());
  http::request<http::string_body> req{method == "GET" ? http::verb::get : http::verb::post, path, 11};
  const bool default_port = port_ == (tls_ ? "443" : "80");
  const std::string host = default_port ? host_ : host_ + ":" + port_;
  req.set(http::field::host, host);
  for (const auto& [name, value] : headers) req.set(name, value);
  if (settings_.key) {
    // SignRequest signs a path without a query string: the paths asked for here have none.
    for (const auto& [name, value] :
         api::SignRequest(*settings_.key, settings_.region, "dynamodb", method, path, host, headers, body)) {
      req.set(name, value);
    }
  }
  if (ask_explain) req.set("x-monotable-explain", "1");
  req.body() = body;
  if (method != "GET" || !body.empty()) req.prepare_payload();
  http::response_parser<http::string_body> parser;
  if (tls_) {
    // The server's certificate is verified against the system's CAs, or the bundle AWS_CA_BUNDLE
    // or the profile's ca_bundle names (as the AWS CLI does), and must name the host.
    ssl::context ctx(ssl::context::tls_client);
    if (settings_.ca_bundle.empty()) {
      ctx.set_default_verify_paths(ec);
    } else {
      ctx.load_verify_file(settings_.ca_bundle, ec);
      if (ec) return Status::Io("cannot read the CA bundle " + settings_.ca_bundle + ": " + ec.message());
    }
    ctx.set_verify_mode(ssl::verify_peer);
    beast::ssl_stream<beast::tcp_stream> stream(io, ctx);
    boost::system::error_code not_ip;
    boost::asio::ip::make_address(host_, not_ip);
    if (not_ip) SSL_set_tlsext_host_name(stream.native_handle(), host_.c_str());  // SNI: names only
    stream.set_verify_callback(ssl::host_name_verification(host_));
    beast::get_lowest_layer(stream).connect(endpoints, ec);
    if (ec) return Status::Io("cannot connect to " + host_ + ":" + port_ + ": " + ec.message());
    stream.handshake(ssl::stream_base::client, ec);
    if (ec) return Status::Io("TLS with " + host_ + ":" + port_ + " failed: " + ec.message());
    if (Status st = WriteAndRead(stream, req, parser, operation); !st.ok()) return st;
    stream.shutdown(ec);  // a peer that just closes is fine
  } else {
    beast::tcp_stream stream(io);
    stream.connect(endpoints, ec);
    if (ec) return Status::Io("cannot connect to " + host_ + ":" + port_ + ": " + ec.message());
    if (Status st = WriteAndRead(stream, req, parser, operation); !st.ok()) return st;
    stream.socket().shutdown(tcp::socket::shutdown_both, ec);
  }
  const auto& res = parser.get();
  Answer answer;
  answer.status = res.result_int();
  answer.body = res.body();
  if (auto it = res.find("x-monotable-explain"); it != res.end()) answer.explain = std::string(it->value());
  return answer;
}

Result<DynamoClient::Answer> DynamoClient::Get(const std::string& path) const {
  return Exchange("GET", path, {}, "", false, "GET " + path);
}

Result<rapidjson::Document> DynamoClient::Call(const std::string& operation, const std::string& body,
                                               std::string* error_type, std::string* explain) const {
  const std::vector<std::pair<std::string, std::string>> headers = {
      {"Content-Type", "application/x-amz-json-1.0"}, {"X-Amz-Target", "DynamoDB_20120810." + operation}};
  auto answer = Exchange("POST", "/", headers, body, explain != nullptr, operation);
  if (!answer.ok()) return answer.status();
  if (explain) *explain = answer->explain;
  rapidjson::Document doc;
  doc.Parse(answer->body.c_str());
  if (answer->status == 200 && !doc.HasParseError()) return doc;
  std::string type = "HTTP " + std::to_string(answer->status);
  std::string message = answer->body;
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
