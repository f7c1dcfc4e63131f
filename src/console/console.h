// Console: serves the web console (web/, embedded at build time, see console/assets.h) at
// /console/ on the server's own port, beside the DynamoDB API (POST /).
//
// Contract: Serve() answers a GET for a path IsConsolePath() accepts:
// - /console (no slash): 301 to /console/ (query string kept).
// - /console/ and /console/index.html: the page, Cache-Control no-cache (revalidated each load).
// - /console/assets/*: Vite's content-hashed files, Cache-Control public, max-age one year, immutable.
// - other files of the build: Cache-Control no-cache; a path with no extension that names no file
//   gets the page (client-side routes); any other missing file 404.
// Every file carries its Content-Type, a strong ETag (If-None-Match matching it answers 304),
// Vary: Accept-Encoding, X-Content-Type-Options: nosniff; it is sent gzip-compressed (as stored)
// when Accept-Encoding admits gzip, otherwise inflated. When the binary was built without the
// console (no npm), every console path answers 404 with a page that says so.
// Never throws; a method other than GET answers 405.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace monotable::console {

struct Response {
  int status = 200;
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
};

struct Request {
  std::string_view method;
  std::string_view url;  // path and query string
  std::string_view accept_encoding;
  std::string_view if_none_match;
};

bool IsConsolePath(std::string_view url);
// Whether this binary carries the console's files.
bool Present();
Response Serve(const Request& request);
// Content-Type for a file name, by its extension (application/octet-stream when unknown).
std::string_view ContentType(std::string_view path);
// Whether an Accept-Encoding header admits gzip (a gzip or * entry whose q is not 0).
bool AcceptsGzip(std::string_view accept_encoding);

}  // namespace monotable::console
