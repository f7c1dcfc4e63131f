#include "backup/s3_client.h"

#include <sys/socket.h>
#include <sys/time.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <cstdlib>
#include <limits>

namespace monotable::backup {
namespace http = boost::beast::http;
namespace asio = boost::asio;
namespace {

// The text of the first <tag>...</tag> at or after `from` (XML entities decoded); `from` moves past it.
bool NextElement(std::string_view xml, std::string_view tag, size_t& from, std::string& out) {
  const std::string open = "<" + std::string(tag) + ">", close = "</" + std::string(tag) + ">";
  size_t start = xml.find(open, from);
  if (start == std::string_view::npos) return false;
  start += open.size();
  size_t end = xml.find(close, start);
  if (end == std::string_view::npos) return false;
  from = end + close.size();
  out.clear();
  std::string_view text = xml.substr(start, end - start);
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '&') {
      out.push_back(text[i]);
      continue;
    }
    size_t semi = text.find(';', i);
    if (semi == std::string_view::npos) {
      out.push_back('&');
      continue;
    }
    std::string_view entity = text.substr(i + 1, semi - i - 1);
    if (entity == "amp") out.push_back('&');
    else if (entity == "lt") out.push_back('<');
    else if (entity == "gt") out.push_back('>');
    else if (entity == "quot") out.push_back('"');
    else if (entity == "apos") out.push_back('\'');
    else if (!entity.empty() && entity[0] == '#') {
      unsigned long code = entity.size() > 1 && (entity[1] == 'x' || entity[1] == 'X')
                               ? std::strtoul(std::string(entity.substr(2)).c_str(), nullptr, 16)
                               : std::strtoul(std::string(entity.substr(1)).c_str(), nullptr, 10);
      // UTF-8 of the code point.
      if (code < 0x80) {
        out.push_back(static_cast<char>(code));
      } else if (code < 0x800) {
        out.push_back(static_cast<char>(0xC0 | (code >> 6)));
        out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
      } else if (code < 0x10000) {
        out.push_back(static_cast<char>(0xE0 | (code >> 12)));
        out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
      } else {
        out.push_back(static_cast<char>(0xF0 | (code >> 18)));
        out.push_back(static_cast<char>(0x80 | ((code >> 12) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
      }
    } else {
      out.append(text.substr(i, semi - i + 1));
    }
    i = semi;
  }
  return true;
}

void SetTimeouts(asio::ip::tcp::socket& socket, int seconds) {
  timeval tv{seconds, 0};
  setsockopt(socket.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  setsockopt(socket.native_handle(), SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
}

}  // namespace

Result<S3Client> S3Client::Create(S3Config config) {
  std::string_view url = config.endpoint;
  if (url.substr(0, 7) != "http://") {
    return Status::Validation("S3 endpoint must be an http:// URL (https is not supported): " + config.endpoint);
  }
  url.remove_prefix(7);
  while (!url.empty() && url.back() == '/') url.remove_suffix(1);
  if (url.empty() || url.find('/') != std::string_view::npos) {
    return Status::Validation("S3 endpoint must be http://host[:port]: " + config.endpoint);
  }
  std::string host(url), port = "80";
  if (auto colon = url.rfind(':'); colon != std::string_view::npos && url.find(']', colon) == std::string_view::npos) {
    host = std::string(url.substr(0, colon));
    port = std::string(url.substr(colon + 1));
    if (port.empty() || port.find_first_not_of("0123456789") != std::string::npos) {
      return Status::Validation("S3 endpoint has a bad port: " + config.endpoint);
    }
  }
  if (config.region.empty()) config.region = "us-east-1";
  return S3Client(std::move(config), std::move(host), std::move(port));
}

std::string S3Client::ObjectPath(const std::string& bucket, const std::string& key) {
  return "/" + sigv4::UriEncode(bucket) + "/" + sigv4::UriEncode(key, false);
}

Status S3Client::ErrorFrom(int http_status, std::string_view xml, bool bucket_request) {
  std::string code, message;
  size_t at = 0;
  NextElement(xml, "Code", at, code);
  at = 0;
  NextElement(xml, "Message", at, message);
  if (code.empty()) {
    if (http_status == 404 && bucket_request) code = "NoSuchBucket";
    else if (http_status == 404) code = "NoSuchKey";
    else if (http_status == 403) code = "AccessDenied";
    else code = "HTTP " + std::to_string(http_status);
  }
  // AWS's wording whatever the endpoint says (exports and imports report it as AWS would).
  if (code == "NoSuchBucket") return NoSuchBucket();
  if (code == "AccessDenied" || code == "InvalidAccessKeyId" || code == "SignatureDoesNotMatch") {
    if (message.empty()) {
      message = code == "AccessDenied" ? "Access Denied"
                : code == "InvalidAccessKeyId"
                    ? "The AWS Access Key Id you provided does not exist in our records."
                    : "The request signature we calculated does not match the signature you provided. Check your "
                      "key and signing method.";
    }
    return Status(ErrorCode::kAccessDenied, message);
  }
  if (code == "NoSuchKey" && message.empty()) message = "The specified key does not exist.";
  return Status::Io("S3 " + code + (message.empty() ? "" : ": " + message));
}

Result<S3Client::ListResult> S3Client::ParseListing(std::string_view xml) {
  if (xml.find("<ListBucketResult") == std::string_view::npos) {
    return Status::Io("S3 answered ListObjectsV2 with an unexpected document");
  }
  ListResult out;
  size_t at = 0;
  // Keys: every <Key> of the document (only its <Contents> elements carry one).
  std::string key;
  while (NextElement(xml, "Key", at, key)) out.keys.push_back(key);
  std::string truncated;
  at = 0;
  if (NextElement(xml, "IsTruncated", at, truncated) && truncated == "true") {
    at = 0;
    NextElement(xml, "NextContinuationToken", at, out.next_token);
    if (out.next_token.empty()) return Status::Io("S3 listing is truncated without a NextContinuationToken");
  }
  return out;
}

Status S3Client::Send(std::string_view method, const std::string& path,
                      const std::vector<std::pair<std::string, std::string>>& query, std::string_view body,
                      const std::function<Status(std::string_view)>* sink, bool bucket_request) {
  std::string target = path;
  for (size_t i = 0; i < query.size(); ++i) {
    target += (i ? "&" : "?") + sigv4::UriEncode(query[i].first) + "=" + sigv4::UriEncode(query[i].second);
  }
  const std::string host_header = port_ == "80" ? host_ : host_ + ":" + port_;
  const std::string payload_hash = sigv4::Sha256Hex(body);
  sigv4::CanonicalInput input;
  input.method = method;
  input.canonical_uri = path;
  input.query = query;
  input.headers = {{"x-amz-content-sha256", payload_hash}};
  input.host = host_header;
  input.payload_hash = payload_hash;
  sigv4::Signed sig = sigv4::Sign({config_.access_key, config_.secret_key, ""}, config_.region, "s3", input,
                                  std::chrono::system_clock::now());

  http::request<http::string_body> request(http::string_to_verb(std::string(method)), target, 11);
  request.set(http::field::host, host_header);
  request.set("x-amz-content-sha256", payload_hash);
  request.set("x-amz-date", sig.amz_date);
  request.set(http::field::authorization, sig.authorization);
  request.set(http::field::user_agent, "monotable");
  request.body() = std::string(body);
  request.prepare_payload();

  const std::string where = std::string(method) + " " + config_.endpoint + path;
  try {
    asio::io_context io;
    asio::ip::tcp::resolver resolver(io);
    asio::ip::tcp::socket socket(io);
    boost::system::error_code ec;
    auto endpoints = resolver.resolve(host_, port_, ec);
    if (ec) return Status::Io("cannot resolve S3 endpoint " + config_.endpoint + ": " + ec.message());
    asio::connect(socket, endpoints, ec);
    if (ec) return Status::Io("cannot connect to S3 endpoint " + config_.endpoint + ": " + ec.message());
    SetTimeouts(socket, 60);
    http::write(socket, request, ec);
    if (ec) return Status::Io(where + ": " + ec.message());

    boost::beast::flat_buffer buffer;
    http::response_parser<http::buffer_body> parser;
    parser.body_limit(std::numeric_limits<std::uint64_t>::max());
    if (method == "HEAD") parser.skip(true);
    http::read_header(socket, buffer, parser, ec);
    if (ec) return Status::Io(where + ": " + ec.message());
    const int status = static_cast<int>(parser.get().result_int());
    const bool ok = status >= 200 && status < 300;
    std::string error_body;
    std::vector<char> chunk(1 << 16);
    while (!parser.is_done()) {
      parser.get().body().data = chunk.data();
      parser.get().body().size = chunk.size();
      http::read(socket, buffer, parser, ec);
      if (ec == http::error::need_buffer) ec = {};
      if (ec) return Status::Io(where + ": " + ec.message());
      const size_t n = chunk.size() - parser.get().body().size;
      if (n == 0) continue;
      if (!ok) {
        if (error_body.size() < (1 << 20)) error_body.append(chunk.data(), n);
      } else if (sink) {
        MT_RETURN_IF_ERROR((*sink)(std::string_view(chunk.data(), n)));
      }
    }
    if (!ok) return ErrorFrom(status, error_body, bucket_request);
    return Status::Ok();
  } catch (const std::exception& e) {
    return Status::Io(where + ": " + e.what());
  }
}

Status S3Client::HeadBucket(const std::string& bucket) {
  return Send("HEAD", "/" + sigv4::UriEncode(bucket), {}, "", nullptr, true);
}

Status S3Client::PutObject(const std::string& bucket, const std::string& key, std::string_view data) {
  return Send("PUT", ObjectPath(bucket, key), {}, data, nullptr, true);
}

Status S3Client::GetObject(const std::string& bucket, const std::string& key,
                           const std::function<Status(std::string_view)>& sink) {
  return Send("GET", ObjectPath(bucket, key), {}, "", &sink, false);
}

Result<S3Client::ListResult> S3Client::ListObjectsV2(const std::string& bucket, const std::string& prefix,
                                                     const std::string& continuation_token, int max_keys) {
  std::vector<std::pair<std::string, std::string>> query = {{"list-type", "2"},
                                                            {"max-keys", std::to_string(max_keys)}};
  if (!prefix.empty()) query.emplace_back("prefix", prefix);
  if (!continuation_token.empty()) query.emplace_back("continuation-token", continuation_token);
  std::string xml;
  std::function<Status(std::string_view)> sink = [&](std::string_view chunk) {
    xml.append(chunk);
    return Status::Ok();
  };
  MT_RETURN_IF_ERROR(Send("GET", "/" + sigv4::UriEncode(bucket), query, "", &sink, true));
  return ParseListing(xml);
}

namespace {

class S3Store : public ObjectStore {
 public:
  explicit S3Store(S3Client client) : client_(std::move(client)) {}
  Status CheckBucket(const std::string& bucket) override { return client_.HeadBucket(bucket); }
  Status Put(const std::string& bucket, const std::string& key, std::string_view data) override {
    return client_.PutObject(bucket, key, data);
  }
  Status Get(const std::string& bucket, const std::string& key, const Sink& sink) override {
    return client_.GetObject(bucket, key, sink);
  }
  Result<Page> List(const std::string& bucket, const std::string& prefix, const std::string& token,
                    int max_keys) override {
    MT_ASSIGN_OR_RETURN(S3Client::ListResult r, client_.ListObjectsV2(bucket, prefix, token, max_keys));
    return Page{std::move(r.keys), std::move(r.next_token)};
  }

 private:
  S3Client client_;
};

}  // namespace

std::unique_ptr<ObjectStore> NewS3Store(S3Client client) { return std::make_unique<S3Store>(std::move(client)); }

Result<std::shared_ptr<ObjectStore>> OpenObjectStore(const std::string& export_dir, S3Config s3) {
  if (!export_dir.empty() && !s3.endpoint.empty()) {
    return Status::Validation("--export-dir and --s3-endpoint exclude each other");
  }
  if (!export_dir.empty()) return std::shared_ptr<ObjectStore>(NewDirectoryStore(export_dir));
  if (s3.endpoint.empty()) return std::shared_ptr<ObjectStore>();
  if (s3.access_key.empty()) {
    if (const char* env = std::getenv("AWS_ACCESS_KEY_ID")) s3.access_key = env;
  }
  if (s3.secret_key.empty()) {
    if (const char* env = std::getenv("AWS_SECRET_ACCESS_KEY")) s3.secret_key = env;
  }
  if (s3.access_key.empty() || s3.secret_key.empty()) {
    return Status::Validation("--s3-endpoint needs --s3-access-key and --s3-secret-key (or AWS_ACCESS_KEY_ID and "
                              "AWS_SECRET_ACCESS_KEY)");
  }
  MT_ASSIGN_OR_RETURN(S3Client client, S3Client::Create(std::move(s3)));
  return std::shared_ptr<ObjectStore>(NewS3Store(std::move(client)));
}

}  // namespace monotable::backup
