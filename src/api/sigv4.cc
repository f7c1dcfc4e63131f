#include "api/sigv4.h"

#include <algorithm>
#include <cctype>
#include <ctime>
#include <fstream>
#include <sstream>


namespace monotable::api {
namespace {

using sigv4::FormatAmzDate;
using sigv4::Lower;
using sigv4::UriEncode;
std::string Trim(std::string_view s) { return sigv4::TrimValue(s); }


int FromHex(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string UrlDecode(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && FromHex(s[i + 1]) >= 0 && FromHex(s[i + 2]) >= 0) {
      out.push_back(static_cast<char>(FromHex(s[i + 1]) * 16 + FromHex(s[i + 2])));
      i += 2;
    } else if (s[i] == '+') {
      out.push_back(' ');
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

struct Parsed {
  std::string algorithm, access_key, date, region, service, terminator, signature, amz_date;
  std::vector<std::string> signed_headers;
  std::vector<std::pair<std::string, std::string>> query;  // decoded, for the canonical query
  bool presigned = false;
  long expires = 0;
};

Status Incomplete(std::string m) { return Status(ErrorCode::kIncompleteSignature, std::move(m)); }
Status Invalid(std::string m) { return Status(ErrorCode::kInvalidSignature, std::move(m)); }

std::vector<std::string> Split(std::string_view s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    size_t pos = s.find(sep, start);
    out.emplace_back(s.substr(start, pos == std::string_view::npos ? std::string_view::npos : pos - start));
    if (pos == std::string_view::npos) return out;
    start = pos + 1;
  }
}

std::string_view HeaderOf(const SignedRequest& r, std::string_view name) {
  for (const auto& [k, v] : r.headers) {
    if (k.size() == name.size() && std::equal(k.begin(), k.end(), name.begin(), [](char a, char b) {
          return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
        })) {
      return v;
    }
  }
  return {};
}

Status ParseCredential(std::string_view credential, Parsed& p) {
  auto parts = Split(credential, '/');
  while (!parts.empty() && parts.back().empty()) parts.pop_back();
  if (parts.size() != 5) {
    return Incomplete(
        "Credential must have exactly 5 slash-delimited elements, e.g. keyid/date/region/service/term, got '" +
        std::string(credential) + "'");
  }
  p.access_key = parts[0];
  p.date = parts[1];
  p.region = parts[2];
  p.service = parts[3];
  p.terminator = parts[4];
  return Status::Ok();
}

Result<Parsed> ParseRequest(const SignedRequest& r) {
  Parsed p;
  std::string_view url = r.url;
  std::string_view query;
  if (auto q = url.find('?'); q != std::string_view::npos) query = url.substr(q + 1);
  std::map<std::string, std::string> params;
  if (!query.empty()) {
    for (const auto& pair : Split(query, '&')) {
      if (pair.empty()) continue;
      auto eq = pair.find('=');
      std::string k = UrlDecode(pair.substr(0, eq)), v = eq == std::string::npos ? "" : UrlDecode(pair.substr(eq + 1));
      p.query.emplace_back(k, v);
      params[k] = v;
    }
  }
  std::string_view auth = HeaderOf(r, "Authorization");
  bool query_auth = params.count("X-Amz-Algorithm") > 0;
  if (!auth.empty() && query_auth) {
    return Invalid("Found both 'X-Amz-Algorithm' as a query-string param and 'Authorization' as HTTP header.");
  }
  if (auth.empty() && !query_auth) {
    return Status(ErrorCode::kMissingAuthenticationToken, "Request is missing Authentication Token");
  }
  if (!auth.empty()) {
    std::string_view a = auth;
    while (!a.empty() && a.front() == ' ') a.remove_prefix(1);
    if (a.substr(0, 5) != "AWS4-") {
      return Status(ErrorCode::kMissingAuthenticationToken, "Request is missing Authentication Token");
    }
    auto space = a.find(' ');
    p.algorithm = std::string(a.substr(0, space));
    // The components may be separated by commas, by whitespace or by both (AWS accepts
    // "Credential=.. SignedHeaders=.. Signature=.." as well as boto3's ", " and bare commas).
    std::map<std::string, std::string> kv;
    std::string_view rest = space == std::string_view::npos ? std::string_view() : a.substr(space + 1);
    std::string_view missing_equal;
    while (!rest.empty()) {
      const size_t start = rest.find_first_not_of(", \t");
      if (start == std::string_view::npos) break;
      rest.remove_prefix(start);
      const size_t end = std::min(rest.find_first_of(", \t"), rest.size());
      std::string_view item = rest.substr(0, end);
      rest.remove_prefix(end);
      auto eq = item.find('=');
      if (eq == std::string_view::npos) {
        if (missing_equal.empty()) missing_equal = item;
        continue;
      }
      kv[std::string(item.substr(0, eq))] = std::string(item.substr(eq + 1));
    }
    if (!missing_equal.empty()) {
      return Incomplete("'" + std::string(missing_equal) +
                        "' not a valid key=value pair (missing equal-sign) in Authorization header: '" +
                        std::string(auth) + "'.");
    }
    std::string msg;
    for (const char* param : {"Credential", "Signature", "SignedHeaders"}) {
      if (kv[param].empty()) msg += "Authorization header requires '" + std::string(param) + "' parameter. ";
    }
    p.amz_date = std::string(HeaderOf(r, "X-Amz-Date"));
    if (p.amz_date.empty() && HeaderOf(r, "Date").empty()) {
      msg += "Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header. ";
    }
    if (!msg.empty()) return Incomplete(msg + "Authorization=" + std::string(auth));
    MT_RETURN_IF_ERROR(ParseCredential(kv["Credential"], p));
    p.signature = kv["Signature"];
    p.signed_headers = Split(kv["SignedHeaders"], ';');
  } else {
    std::string msg;
    for (const char* param : {"X-Amz-Algorithm", "X-Amz-Credential", "X-Amz-Signature", "X-Amz-SignedHeaders",
                              "X-Amz-Date"}) {
      if (params[param].empty()) msg += "AWS query-string parameters must include '" + std::string(param) + "'. ";
    }
    if (!msg.empty()) return Incomplete(msg + "Re-examine the query-string parameters.");
    p.presigned = true;
    p.algorithm = params["X-Amz-Algorithm"];
    MT_RETURN_IF_ERROR(ParseCredential(params["X-Amz-Credential"], p));
    p.signature = params["X-Amz-Signature"];
    p.signed_headers = Split(params["X-Amz-SignedHeaders"], ';');
    p.amz_date = params["X-Amz-Date"];
    p.expires = params.count("X-Amz-Expires") ? std::atol(params["X-Amz-Expires"].c_str()) : 900;
  }
  if (p.algorithm != "AWS4-HMAC-SHA256") {
    return Incomplete("Unsupported AWS 'algorithm': '" + p.algorithm + "' (only AWS4-HMAC-SHA256 for now). ");
  }
  return p;
}

// Parses "20240101T000000Z" into a time in seconds (a system_clock time_point counts nanoseconds
// and cannot hold dates past 2262, which clients may send: year 3020 must read as the future).
bool ParseAmzDate(const std::string& s, std::chrono::sys_seconds& out) {
  if (s.size() != 16 || s[8] != 'T' || s[15] != 'Z') return false;
  std::tm tm{};
  if (std::sscanf(s.c_str(), "%4d%2d%2dT%2d%2d%2dZ", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour, &tm.tm_min,
                  &tm.tm_sec) != 6) {
    return false;
  }
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  out = std::chrono::sys_seconds(std::chrono::seconds(timegm(&tm)));
  return true;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> SignRequest(
    const SigningKey& key, std::string_view region, std::string_view service, std::string_view method,
    std::string_view path, std::string_view host, const std::vector<std::pair<std::string, std::string>>& headers,
    std::string_view body, std::chrono::system_clock::time_point now) {
  sigv4::CanonicalInput input;
  input.method = method;
  input.canonical_uri = path;
  input.headers = headers;
  input.host = host;
  input.payload_hash = Sha256Hex(body);
  sigv4::Signed s = sigv4::Sign(key, region, service, input, now);
  std::vector<std::pair<std::string, std::string>> out = {{"X-Amz-Date", s.amz_date}};
  if (!key.session_token.empty()) out.emplace_back("X-Amz-Security-Token", key.session_token);
  out.emplace_back("Authorization", std::move(s.authorization));
  return out;
}

void Authenticator::AddKey(std::string access_key, std::string secret, std::vector<std::string> table_patterns) {
  keys_[std::move(access_key)] = Key{std::move(secret), std::move(table_patterns)};
}

Result<Authenticator> Authenticator::FromFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Status::Io("cannot read credentials file " + path);
  Authenticator auth;
  std::string line;
  while (std::getline(in, line)) {
    if (auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    std::istringstream words(line);
    std::string key, secret, pattern;
    if (!(words >> key)) continue;
    if (!(words >> secret)) return Status::Io("credentials file " + path + ": a key without a secret: " + key);
    std::vector<std::string> patterns;
    while (words >> pattern) patterns.push_back(pattern);
    auth.AddKey(key, secret, std::move(patterns));
  }
  return auth;
}

Result<Authenticator> Authenticator::FromEnvironment(std::string_view spec) {
  Authenticator auth;
  for (const auto& entry : Split(spec, ',')) {
    if (entry.empty()) continue;
    auto colon = entry.find(':');
    if (colon == std::string::npos) return Status::Io("MONOTABLE_CREDENTIALS entries are KEY:SECRET");
    auth.AddKey(entry.substr(0, colon), entry.substr(colon + 1));
  }
  return auth;
}

bool Authenticator::CanAccess(const std::string& access_key, std::string_view table) const {
  auto it = keys_.find(access_key);
  if (it == keys_.end()) return !enabled();
  if (it->second.tables.empty()) return true;
  for (const auto& pattern : it->second.tables) {
    if (!pattern.empty() && pattern.back() == '*') {
      if (table.substr(0, pattern.size() - 1) == std::string_view(pattern).substr(0, pattern.size() - 1)) return true;
    } else if (table == pattern) {
      return true;
    }
  }
  return false;
}

Result<std::string> Authenticator::Verify(const SignedRequest& r, std::chrono::system_clock::time_point now) const {
  MT_ASSIGN_OR_RETURN(Parsed p, ParseRequest(r));
  std::chrono::sys_seconds signed_at;
  if (!ParseAmzDate(p.amz_date, signed_at)) {
    return Incomplete("Date must be in ISO-8601 'basic format'. Got '" + p.amz_date +
                      "'. See http://en.wikipedia.org/wiki/ISO_8601");
  }
  auto minutes = std::chrono::minutes(15);
  const auto now_s = std::chrono::floor<std::chrono::seconds>(now);  // compared in seconds (see ParseAmzDate)
  if (p.presigned) {
    if (now_s > signed_at + std::chrono::seconds(std::clamp<long>(p.expires, -(1L << 40), 1L << 40))) {
      return Invalid("Signature expired: " + p.amz_date + " is now earlier than " + FormatAmzDate(now - std::chrono::seconds(p.expires)) +
                     " (" + FormatAmzDate(now) + " - " + std::to_string(p.expires) + " sec.)");
    }
  } else if (signed_at < now_s - minutes) {
    return Invalid("Signature expired: " + p.amz_date + " is now earlier than " + FormatAmzDate(now - minutes) + " (" +
                   FormatAmzDate(now) + " - 15 min.)");
  } else if (signed_at > now_s + minutes) {
    return Invalid("Signature not yet current: " + p.amz_date + " is still later than " +
                   FormatAmzDate(now + minutes) + " (" + FormatAmzDate(now) + " + 15 min.)");
  }
  std::string scope_problems;
  if (p.terminator != "aws4_request") {
    scope_problems += "Credential should be scoped with a valid terminator: 'aws4_request', not '" + p.terminator + "'. ";
  }
  if (p.service != "dynamodb") scope_problems += "Credential should be scoped to correct service: 'dynamodb'. ";
  if (p.date != p.amz_date.substr(0, 8)) {
    scope_problems += "Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP: '" +
                      p.date + "' != '" + p.amz_date.substr(0, 8) + "', from '" + p.amz_date + "'.";
  }
  if (!scope_problems.empty()) return Invalid(scope_problems);
  bool host_signed = std::find(p.signed_headers.begin(), p.signed_headers.end(), "host") != p.signed_headers.end();
  if (!host_signed) return Invalid("'Host' must be a 'SignedHeader' in the AWS Authorization.");

  auto key = keys_.find(p.access_key);
  if (key == keys_.end()) {
    return Status(ErrorCode::kUnrecognizedClient, "The security token included in the request is invalid.");
  }

  // Canonical request.
  std::string_view url = r.url;
  std::string_view path = url.substr(0, url.find('?'));
  std::string canonical = std::string(r.method) + "\n" + (path.empty() ? "/" : std::string(path)) + "\n";
  std::vector<std::pair<std::string, std::string>> query;
  for (const auto& [k, v] : p.query) {
    if (k != "X-Amz-Signature") query.emplace_back(UriEncode(k), UriEncode(v));
  }
  std::sort(query.begin(), query.end());
  for (size_t i = 0; i < query.size(); ++i) canonical += (i ? "&" : "") + query[i].first + "=" + query[i].second;
  canonical += "\n";
  for (const auto& h : p.signed_headers) canonical += h + ":" + Trim(HeaderOf(r, h)) + "\n";
  canonical += "\n";
  for (size_t i = 0; i < p.signed_headers.size(); ++i) canonical += (i ? ";" : "") + p.signed_headers[i];
  canonical += "\n";
  // The payload hash: the client's X-Amz-Content-Sha256 when it sent one (it is then signed too).
  // Presigned requests may leave the payload unsigned: SDKs sign "UNSIGNED-PAYLOAD" or the hash
  // of an empty payload there.
  std::string_view payload_hash = HeaderOf(r, "X-Amz-Content-Sha256");
  std::vector<std::string> payloads = {payload_hash.empty() ? Sha256Hex(r.body) : std::string(payload_hash)};
  if (p.presigned && payload_hash.empty()) {
    payloads.push_back("UNSIGNED-PAYLOAD");
    payloads.push_back(Sha256Hex(""));
  }
  std::string scope = p.date + "/" + p.region + "/" + p.service + "/" + p.terminator;
  bool matched = false;
  for (const auto& payload : payloads) {
    std::string string_to_sign =
        "AWS4-HMAC-SHA256\n" + p.amz_date + "\n" + scope + "\n" + Sha256Hex(canonical + payload);
    matched = matched || SignatureFor(key->second.secret, p.date, p.region, p.service, string_to_sign) ==
                             Lower(p.signature);
  }
  if (!matched) {
    return Invalid(
        "The request signature we calculated does not match the signature you provided. Check your AWS Secret "
        "Access Key and signing method. Consult the service documentation for details.");
  }
  return p.access_key;
}

}  // namespace monotable::api
