#include "common/aws_sigv4.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>

#include <algorithm>
#include <cctype>
#include <ctime>
#include <map>

namespace monotable::sigv4 {

std::string Hex(std::string_view bytes) {
  static const char* kDigits = "0123456789abcdef";
  std::string out(bytes.size() * 2, '0');
  for (size_t i = 0; i < bytes.size(); ++i) {
    const auto c = static_cast<unsigned char>(bytes[i]);
    out[2 * i] = kDigits[c >> 4];
    out[2 * i + 1] = kDigits[c & 15];
  }
  return out;
}

std::string Sha256Hex(std::string_view data) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(data.data()), data.size(), digest);
  return Hex(std::string_view(reinterpret_cast<const char*>(digest), sizeof digest));
}

std::string HmacSha256(std::string_view key, std::string_view data) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char*>(data.data()),
       data.size(), out, &len);
  return std::string(reinterpret_cast<char*>(out), len);
}

std::string SignatureFor(std::string_view secret, std::string_view date, std::string_view region,
                         std::string_view service, std::string_view string_to_sign) {
  std::string key = HmacSha256("AWS4" + std::string(secret), date);
  key = HmacSha256(key, region);
  key = HmacSha256(key, service);
  key = HmacSha256(key, "aws4_request");
  return Hex(HmacSha256(key, string_to_sign));
}

std::string UriEncode(std::string_view s, bool encode_slash) {
  static const char* kDigits = "0123456789ABCDEF";
  std::string out;
  out.reserve(s.size());
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~' || (c == '/' && !encode_slash)) {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(kDigits[c >> 4]);
      out.push_back(kDigits[c & 15]);
    }
  }
  return out;
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string TrimValue(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  std::string out;
  for (char c : s) {
    if (c == ' ' && !out.empty() && out.back() == ' ') continue;
    out.push_back(c);
  }
  return out;
}

std::string FormatAmzDate(std::chrono::system_clock::time_point t) {
  std::time_t secs = std::chrono::system_clock::to_time_t(t);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[20];
  std::strftime(buf, sizeof buf, "%Y%m%dT%H%M%SZ", &tm);
  return buf;
}

Signed Sign(const Credentials& key, std::string_view region, std::string_view service, const CanonicalInput& input,
            std::chrono::system_clock::time_point now) {
  Signed out;
  out.amz_date = FormatAmzDate(now);
  const std::string date = out.amz_date.substr(0, 8);
  std::map<std::string, std::string> headers;  // sorted by lower-cased name
  for (const auto& [name, value] : input.headers) headers[Lower(name)] = TrimValue(value);
  headers["host"] = TrimValue(input.host);
  headers["x-amz-date"] = out.amz_date;
  if (!key.session_token.empty()) headers["x-amz-security-token"] = key.session_token;

  std::vector<std::pair<std::string, std::string>> query;
  for (const auto& [k, v] : input.query) query.emplace_back(UriEncode(k), UriEncode(v));
  std::sort(query.begin(), query.end());
  std::string canonical = std::string(input.method) + "\n" +
                          (input.canonical_uri.empty() ? "/" : std::string(input.canonical_uri)) + "\n";
  for (size_t i = 0; i < query.size(); ++i) canonical += (i ? "&" : "") + query[i].first + "=" + query[i].second;
  canonical += "\n";
  std::string names;
  for (const auto& [name, value] : headers) {
    canonical += name + ":" + value + "\n";
    names += (names.empty() ? "" : ";") + name;
  }
  canonical += "\n" + names + "\n" + input.payload_hash;
  const std::string scope = date + "/" + std::string(region) + "/" + std::string(service) + "/aws4_request";
  out.string_to_sign = "AWS4-HMAC-SHA256\n" + out.amz_date + "\n" + scope + "\n" + Sha256Hex(canonical);
  out.canonical_request = std::move(canonical);
  out.authorization = "AWS4-HMAC-SHA256 Credential=" + key.access_key + "/" + scope + ", SignedHeaders=" + names +
                      ", Signature=" + SignatureFor(key.secret, date, region, service, out.string_to_sign);
  return out;
}

}  // namespace monotable::sigv4
