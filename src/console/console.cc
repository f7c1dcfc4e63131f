#include "console/console.h"

#include <libdeflate.h>

#include <algorithm>
#include <cctype>
#include <memory>

#include "console/assets.h"

namespace monotable::console {
namespace {

constexpr std::string_view kPrefix = "/console";

const Asset* Find(std::string_view path) {
  for (size_t i = 0; i < kAssetCount; ++i) {
    if (kAssets[i].path == path) return &kAssets[i];
  }
  return nullptr;
}

bool IEquals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// The ETag of one encoding of an asset: the identity bytes' own, or with "-gzip" inside the quotes.
std::string ETagOf(const Asset& asset, bool gzip) {
  std::string tag(asset.etag);
  if (gzip && tag.size() >= 2) tag.insert(tag.size() - 1, "-gzip");
  return tag;
}

bool Matches(std::string_view if_none_match, std::string_view etag) {
  while (!if_none_match.empty()) {
    size_t comma = if_none_match.find(',');
    std::string_view one = Trim(if_none_match.substr(0, comma));
    if (one.substr(0, 2) == "W/") one.remove_prefix(2);
    if (one == "*" || one == etag) return true;
    if (comma == std::string_view::npos) break;
    if_none_match.remove_prefix(comma + 1);
  }
  return false;
}

Response Text(int status, std::string body, std::string_view type) {
  Response out;
  out.status = status;
  out.body = std::move(body);
  out.headers.emplace_back("Content-Type", std::string(type));
  out.headers.emplace_back("Cache-Control", "no-cache");
  return out;
}

Response Absent() {
  return Text(404,
              "<!doctype html><meta charset=\"utf-8\"><title>monotable console absent</title>"
              "<h1>The web console is absent from this build</h1>"
              "<p>This monotable binary was built without Node.js and npm, so the console (web/) was not "
              "built into it. Install them (Debian: <code>apt-get install nodejs npm</code>) and rebuild "
              "(<code>scripts/dev.sh build</code>). The DynamoDB API at <code>POST /</code> works as usual.</p>\n",
              "text/html; charset=utf-8");
}

}  // namespace

std::string_view ContentType(std::string_view path) {
  const size_t dot = path.rfind('.');
  const std::string_view ext = dot == std::string_view::npos ? std::string_view() : path.substr(dot + 1);
  if (ext == "html") return "text/html; charset=utf-8";
  if (ext == "js" || ext == "mjs") return "text/javascript; charset=utf-8";
  if (ext == "css") return "text/css; charset=utf-8";
  if (ext == "json" || ext == "map") return "application/json";
  if (ext == "svg") return "image/svg+xml";
  if (ext == "png") return "image/png";
  if (ext == "ico") return "image/x-icon";
  if (ext == "woff2") return "font/woff2";
  if (ext == "txt") return "text/plain; charset=utf-8";
  if (ext == "wasm") return "application/wasm";
  return "application/octet-stream";
}

bool AcceptsGzip(std::string_view accept_encoding) {
  while (!accept_encoding.empty()) {
    size_t comma = accept_encoding.find(',');
    std::string_view entry = Trim(accept_encoding.substr(0, comma));
    size_t semi = entry.find(';');
    std::string_view coding = Trim(entry.substr(0, semi));
    if (IEquals(coding, "gzip") || coding == "*") {
      bool refused = false;
      if (semi != std::string_view::npos) {
        std::string_view params = Trim(entry.substr(semi + 1));
        if (params.size() >= 2 && (params[0] == 'q' || params[0] == 'Q') &&
            params.find('=') != std::string_view::npos) {
          std::string_view q = Trim(params.substr(params.find('=') + 1));
          refused = !q.empty() && q.find_first_not_of("0.") == std::string_view::npos;  // q=0, q=0.0, q=0.000
        }
      }
      if (!refused) return true;
    }
    if (comma == std::string_view::npos) break;
    accept_encoding.remove_prefix(comma + 1);
  }
  return false;
}

bool IsConsolePath(std::string_view url) {
  std::string_view path = url.substr(0, url.find('?'));
  return path == kPrefix || path.substr(0, kPrefix.size() + 1) == "/console/";
}

bool Present() { return kAssetCount > 0; }

Response Serve(const Request& request) {
  if (request.method != "GET") {
    Response out = Text(405, "Method Not Allowed\n", "text/plain; charset=utf-8");
    out.headers.emplace_back("Allow", "GET");
    return out;
  }
  const size_t question = request.url.find('?');
  const std::string_view path = request.url.substr(0, question);
  if (path == kPrefix) {
    Response out = Text(301, "", "text/plain; charset=utf-8");
    std::string location = "/console/";
    if (question != std::string_view::npos) location += request.url.substr(question);
    out.headers.emplace_back("Location", std::move(location));
    return out;
  }
  if (!Present()) return Absent();
  std::string_view file = path.substr(kPrefix.size() + 1);
  if (file.empty()) file = "index.html";
  const Asset* asset = Find(file);
  if (!asset) {
    const size_t slash = file.rfind('/');
    const std::string_view last = slash == std::string_view::npos ? file : file.substr(slash + 1);
    if (last.find('.') != std::string_view::npos) return Text(404, "Not Found\n", "text/plain; charset=utf-8");
    file = "index.html";  // a client-side route
    asset = Find(file);
    if (!asset) return Text(404, "Not Found\n", "text/plain; charset=utf-8");
  }

  const bool gzip = AcceptsGzip(request.accept_encoding);
  Response out;
  const std::string etag = ETagOf(*asset, gzip);
  out.headers.emplace_back("Content-Type", std::string(ContentType(file)));
  out.headers.emplace_back("Cache-Control",
                           file.substr(0, 7) == "assets/" ? "public, max-age=31536000, immutable" : "no-cache");
  out.headers.emplace_back("ETag", etag);
  out.headers.emplace_back("Vary", "Accept-Encoding");
  out.headers.emplace_back("X-Content-Type-Options", "nosniff");
  if (file == "index.html") {
    // The page loads only its own files and talks only to this server.
    out.headers.emplace_back("Content-Security-Policy",
                             "default-src 'self'; img-src 'self' data:; "
                             "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'");
  }
  if (!request.if_none_match.empty() && Matches(request.if_none_match, etag)) {
    out.status = 304;
    return out;
  }
  if (gzip) {
    out.headers.emplace_back("Content-Encoding", "gzip");
    out.body.assign(asset->gzip);
  } else {
    out.body.resize(asset->size);
    std::unique_ptr<libdeflate_decompressor, void (*)(libdeflate_decompressor*)> inflater(
        libdeflate_alloc_decompressor(), libdeflate_free_decompressor);
    size_t written = 0;
    if (!inflater ||
        libdeflate_gzip_decompress(inflater.get(), asset->gzip.data(), asset->gzip.size(), out.body.data(),
                                   out.body.size(), &written) != LIBDEFLATE_SUCCESS ||
        written != asset->size) {
      return Text(500, "console asset damaged\n", "text/plain; charset=utf-8");
    }
  }
  return out;
}

}  // namespace monotable::console
