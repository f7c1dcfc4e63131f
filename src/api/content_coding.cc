#include "api/content_coding.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <memory>

#include <libdeflate.h>
#include <zlib.h>

namespace monotable::api {
namespace {

std::string_view TrimSpaces(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool IEquals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

Status Undecodable(std::string_view coding) {
  return Status::Serialization("The request body is not valid " + std::string(coding) + " data");
}

struct InflateStream {
  z_stream z{};
  bool open = false;
  ~InflateStream() {
    if (open) inflateEnd(&z);
  }
};

// Inflates `in` (window_bits as zlib's inflateInit2) into `out`, at most `limit` bytes. With
// `members`, a gzip member that ends is followed by the next one when the rest starts with
// gzip's magic bytes; other trailing bytes are ignored.
Status Inflate(std::string_view in, int window_bits, bool members, size_t limit, std::string& out,
               std::string_view coding) {
  InflateStream s;
  if (inflateInit2(&s.z, window_bits) != Z_OK) return Status::Internal("inflateInit2 failed");
  s.open = true;
  s.z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  s.z.avail_in = static_cast<uInt>(in.size());
  out.clear();
  size_t produced = 0;
  bool ended = false;
  while (true) {
    // Room for the next piece, never more than one byte past the limit.
    if (produced == out.size()) {
      if (produced > limit) return Status(ErrorCode::kRequestTooLarge, "Request Entity Too Large");
      const size_t grow = std::min<size_t>(std::max<size_t>(out.size(), 64 * 1024), limit + 1 - produced);
      out.resize(produced + std::max<size_t>(grow, 1));
    }
    s.z.next_out = reinterpret_cast<Bytef*>(out.data() + produced);
    s.z.avail_out = static_cast<uInt>(std::min<size_t>(out.size() - produced, 1u << 30));
    const uInt before = s.z.avail_out;
    const int rc = inflate(&s.z, Z_NO_FLUSH);
    produced += before - s.z.avail_out;
    if (produced > limit) return Status(ErrorCode::kRequestTooLarge, "Request Entity Too Large");
    if (rc == Z_STREAM_END) {
      ended = true;
      if (members && s.z.avail_in >= 2 && s.z.next_in[0] == 0x1f && s.z.next_in[1] == 0x8b) {
        if (inflateReset(&s.z) != Z_OK) return Undecodable(coding);
        ended = false;
        continue;
      }
      break;
    }
    if (rc == Z_BUF_ERROR && s.z.avail_in == 0) break;  // the input ended inside a stream
    if (rc != Z_OK && rc != Z_BUF_ERROR) return Undecodable(coding);
    if (s.z.avail_in == 0 && s.z.avail_out != 0) break;  // all input taken, stream not ended
  }
  if (!ended) return Undecodable(coding);
  out.resize(produced);
  return Status::Ok();
}

// q of one Accept-Encoding element's parameters: the first q=... counts; absent or malformed is 1.
double QualityOf(std::string_view params) {
  while (!params.empty()) {
    size_t semi = params.find(';');
    std::string_view param = TrimSpaces(params.substr(0, semi));
    params = semi == std::string_view::npos ? std::string_view() : params.substr(semi + 1);
    size_t eq = param.find('=');
    if (eq == std::string_view::npos || !IEquals(TrimSpaces(param.substr(0, eq)), "q")) continue;
    std::string value(TrimSpaces(param.substr(eq + 1)));
    if (value.empty()) return 1;
    char* end = nullptr;
    double q = std::strtod(value.c_str(), &end);
    if (end != value.c_str() + value.size()) return 1;
    return std::clamp(q, 0.0, 1.0);
  }
  return 1;
}

}  // namespace

Status DecodeRequestBody(std::string_view content_encoding, std::string& body, size_t limit) {
  std::string_view coding = TrimSpaces(content_encoding);
  if (coding.empty() || IEquals(coding, "identity")) return Status::Ok();
  std::string out;
  if (IEquals(coding, "gzip")) {
    MT_RETURN_IF_ERROR(Inflate(body, 16 + MAX_WBITS, true, limit, out, "gzip"));
  } else if (IEquals(coding, "deflate")) {
    // HTTP's "deflate" is the zlib format; some clients send raw deflate data under that name.
    Status zlib = Inflate(body, MAX_WBITS, false, limit, out, "deflate");
    if (zlib.code() == ErrorCode::kRequestTooLarge) return zlib;
    if (!zlib.ok()) MT_RETURN_IF_ERROR(Inflate(body, -MAX_WBITS, false, limit, out, "deflate"));
  } else {
    return Status::Serialization("Unsupported Content-Encoding: " + std::string(coding));
  }
  body = std::move(out);
  return Status::Ok();
}

ContentCoding ChooseResponseCoding(std::string_view accept_encoding) {
  struct Offer {
    double q = -1;  // -1: not named
    size_t position = 0;
  };
  Offer gzip, deflate, any;
  size_t position = 0;
  while (!accept_encoding.empty()) {
    size_t comma = accept_encoding.find(',');
    std::string_view element = accept_encoding.substr(0, comma);
    accept_encoding = comma == std::string_view::npos ? std::string_view() : accept_encoding.substr(comma + 1);
    size_t semi = element.find(';');
    std::string_view name = TrimSpaces(element.substr(0, semi));
    if (name.empty()) continue;
    double q = QualityOf(semi == std::string_view::npos ? std::string_view() : element.substr(semi + 1));
    Offer* offer = IEquals(name, "gzip") ? &gzip : IEquals(name, "deflate") ? &deflate : name == "*" ? &any : nullptr;
    ++position;
    if (offer && q > offer->q) *offer = {q, position};
  }
  // A coding's standing: its own q when named, else the wildcard's (ranked after named ones).
  struct Standing {
    double q;
    bool named;
    size_t position;
  };
  auto standing = [&](const Offer& o) {
    if (o.q >= 0) return Standing{o.q, true, o.position};
    return Standing{any.q >= 0 ? any.q : 0.0, false, any.position};
  };
  const Standing g = standing(gzip), d = standing(deflate);
  auto better = [](const Standing& a, const Standing& b) {  // a preferred over b
    if (a.q != b.q) return a.q > b.q;
    if (a.named != b.named) return a.named;
    return a.position <= b.position;
  };
  const bool gzip_first = better(g, d);
  const Standing& best = gzip_first ? g : d;
  if (best.q <= 0) return ContentCoding::kIdentity;
  return gzip_first ? ContentCoding::kGzip : ContentCoding::kDeflate;
}

std::string_view EncodeResponseBody(ContentCoding coding, std::string& body) {
  if (coding == ContentCoding::kIdentity) return {};
  // One compressor per thread: allocating one costs more than compressing a small answer.
  thread_local std::unique_ptr<libdeflate_compressor, void (*)(libdeflate_compressor*)> compressor(
      libdeflate_alloc_compressor(1), libdeflate_free_compressor);
  if (!compressor) return {};
  const bool gzip = coding == ContentCoding::kGzip;
  const size_t bound = gzip ? libdeflate_gzip_compress_bound(compressor.get(), body.size())
                            : libdeflate_zlib_compress_bound(compressor.get(), body.size());
  std::string out(bound, '\0');
  const size_t n = gzip ? libdeflate_gzip_compress(compressor.get(), body.data(), body.size(), out.data(), bound)
                        : libdeflate_zlib_compress(compressor.get(), body.data(), body.size(), out.data(), bound);
  if (n == 0) return {};
  out.resize(n);
  body = std::move(out);
  return gzip ? "gzip" : "deflate";
}

}  // namespace monotable::api
