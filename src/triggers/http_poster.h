// POSTs one event to a handler listening on loopback (plain HTTP/1.1, one connection per call).
//
// Contract: PostJson() sends `body` as application/json to `url` (http://HOST[:PORT][/PATH],
// HOST one of 127.0.0.1, localhost, [::1]; port 80 by default) with "Connection: close", and
// returns the status code and the response body (Content-Length, chunked or read to the end).
// Connection failures, timeouts (`timeout_ms` for the whole exchange) and malformed responses
// come back as `error` with status 0, as does a stop request while waiting. Never throws.
#pragma once

#include <stop_token>
#include <string>
#include <string_view>

namespace monotable::triggers {

struct HttpResult {
  int status = 0;
  std::string body;
  std::string error;
};

HttpResult PostJson(std::string_view url, std::string_view body, int timeout_ms, std::stop_token stop = {});
// The same exchange as a GET without a body (`monotable triggers --endpoint`).
HttpResult GetText(std::string_view url, int timeout_ms);

}  // namespace monotable::triggers
