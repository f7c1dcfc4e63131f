#include "api/service.h"

#include "backup/backup_service.h"

#include <cstring>
#include <strings.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <random>

#include <libdeflate.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "api/content_coding.h"
#include "api/errors.h"
#include "api/explain.h"
#include "api/ops/operations.h"
#include "api/request_fields.h"
#include "console/console.h"
#include "expr/partiql/parser.h"

namespace monotable::api {
namespace {

constexpr std::string_view kAmzJson = "application/x-amz-json-1.0";
constexpr std::string_view kDynamoPrefix = "DynamoDB_20120810.";
constexpr std::string_view kStreamsPrefix = "DynamoDBStreams_20120810.";
// DynamoDB's limit on a request body, also applied to a compressed body once inflated.
constexpr size_t kMaxRequestBody = 16 * 1024 * 1024;
// The response headers a browser script may read on a CORS response (the SDKs read the request
// id, the error type and the checksum).
constexpr const char* kCorsExposedHeaders = "x-amzn-RequestId,x-amzn-ErrorType,x-amzn-ErrorMessage,x-amz-crc32,Date";

// Every pair of the 32 characters request ids use, indexed by 10 random bits.
struct CharPairs {
  char pairs[1024][2];
  constexpr CharPairs() : pairs() {
    constexpr char kChars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    for (int i = 0; i < 1024; ++i) pairs[i][0] = kChars[i & 31], pairs[i][1] = kChars[i >> 5];
  }
};
constexpr CharPairs kRequestIdPairs;

// 52 characters of [A-Z0-9], as AWS's request ids look (drawn from the 32 of RFC 4648's base32
// alphabet: five random bits a character, two characters a table lookup). The bits come from
// SplitMix64 seeded once a thread: ids need to be distinct, not unpredictable, and mt19937_64 cost
// ~850 instructions an id (this: ~300).
std::string RequestId() {
  thread_local uint64_t state = (uint64_t{std::random_device{}()} << 32) ^ std::random_device{}();
  auto next = [] {
    uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  };
  std::string id(52, 'A');
  char* out = id.data();
  auto take = [&out](uint64_t r, int pairs) {
    for (int j = 0; j < pairs; ++j, r >>= 10, out += 2) std::memcpy(out, kRequestIdPairs.pairs[r & 1023], 2);
  };
  for (int word = 0; word < 4; ++word) take(next(), 6);
  take(next(), 2);
  return id;
}

bool IsAscii(std::string_view bytes) {
  uint64_t high = 0;
  size_t i = 0;
  for (; i + 8 <= bytes.size(); i += 8) {
    uint64_t word;
    std::memcpy(&word, bytes.data() + i, 8);
    high |= word;
  }
  for (; i < bytes.size(); ++i) high |= static_cast<uint8_t>(bytes[i]);
  return (high & 0x8080808080808080ULL) == 0;
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// True when a string escape \uDC00..\uDFFF stands alone (not after a \uD800..\uDBFF): a lone
// low surrogate is no Unicode character. RapidJSON refuses a lone high surrogate but turns a lone
// low one into three bytes that are not UTF-8, which every answer holding the string would then
// carry to clients that cannot decode it. Only bodies with backslashes pay for the walk.
bool HasLoneLowSurrogateEscape(std::string_view body) {
  const char* p = body.data();
  const char* end = p + body.size();
  bool after_high = false;  // the previous escape was a high surrogate, right before this one
  while (true) {
    const char* slash = static_cast<const char*>(std::memchr(p, '\\', end - p));
    if (slash == nullptr || end - slash < 2) return false;
    if (slash != p) after_high = false;
    if (slash[1] != 'u' || end - slash < 6) {
      after_high = false;
      p = slash + 2;
      continue;
    }
    int unit = 0;
    for (int i = 2; i < 6; ++i) {
      const int digit = HexDigit(slash[i]);
      if (digit < 0) return false;  // the parser refuses the escape
      unit = unit * 16 + digit;
    }
    if (unit >= 0xDC00 && unit <= 0xDFFF && !after_high) return true;
    after_high = unit >= 0xD800 && unit <= 0xDBFF;
    p = slash + 6;
  }
}

// True when the body holds a raw byte 0x1A..0x1F. JSON text never may (between tokens only space,
// tab, CR and LF; in strings every control character is escaped), and RapidJSON refuses the other
// control characters, but its SSE2 string scan (RAPIDJSON_SSE2) compares with 0x19 and takes
// these six raw inside aligned 16-byte blocks. DynamoDB refuses them (SerializationException).
bool HasRawControl1AToF(std::string_view body) {
  size_t i = 0;
#ifdef __SSE2__
  const __m128i low = _mm_set1_epi8(0x1A), span = _mm_set1_epi8(5);
  for (; i + 16 <= body.size(); i += 16) {
    const __m128i x = _mm_sub_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(body.data() + i)), low);
    if (_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(x, span), x)) != 0) return true;  // x - 0x1A <= 5
  }
#endif
  for (; i < body.size(); ++i) {
    const auto c = static_cast<unsigned char>(body[i]);
    if (c >= 0x1A && c <= 0x1F) return true;
  }
  return false;
}

std::string_view MediaType(std::string_view content_type) {
  auto semi = content_type.find(';');
  if (semi != std::string_view::npos) content_type = content_type.substr(0, semi);
  while (!content_type.empty() && content_type.back() == ' ') content_type.remove_suffix(1);
  while (!content_type.empty() && content_type.front() == ' ') content_type.remove_prefix(1);
  return content_type;
}

// DynamoDB answers in the content type it was spoken to in: application/x-amz-json-1.0 when the
// request said so, application/json otherwise (also when the request named no content type).
std::string_view ResponseContentType(std::string_view media) {
  return media == kAmzJson ? kAmzJson : std::string_view("application/json");
}

HttpResponse WithContentType(HttpResponse response, std::string_view content_type) {
  for (auto& [name, value] : response.headers) {
    if (name == "Content-Type") value = std::string(content_type);
  }
  return response;
}

}  // namespace

namespace {

std::vector<std::string> OperationNames() {
  std::vector<std::string> names;
  for (const Operation* op : AllOperations()) names.emplace_back(op->name);
  return names;
}

std::string_view OperationOf(std::string_view target) {
  auto dot = target.rfind('.');
  return dot == std::string_view::npos ? std::string_view() : target.substr(dot + 1);
}

}  // namespace

Service::Service(table::Database& db, ServerIdentity identity, Authenticator auth)
    : db_(db),
      identity_(std::move(identity)),
      idempotency_(db.store()),
      auth_(std::move(auth)),
      metrics_(OperationNames()) {
  // Keyed by the whole X-Amz-Target: the Streams API answers on the same endpoint.
  for (const Operation* op : AllOperations()) operations_.emplace(std::string(kDynamoPrefix) + std::string(op->name), op);
  for (const Operation* op : StreamOperations()) {
    operations_.emplace(std::string(kStreamsPrefix) + std::string(op->name), op);
  }
  // Backups, PITR, exports and imports run over the partition store (every engine).
  backups_ = std::make_unique<backup::BackupService>(db_);
}

Service::~Service() = default;

HttpResponse Service::Finish(int status, std::string body, std::string_view content_type) {
  HttpResponse response;
  response.status = status;
  response.headers.reserve(4);
  response.headers.emplace_back("x-amzn-RequestId", RequestId());
  response.headers.emplace_back("x-amz-crc32", std::to_string(libdeflate_crc32(0, body.data(), body.size())));
  response.headers.emplace_back("Content-Type", std::string(content_type));
  response.body = std::move(body);
  return response;
}

HttpResponse Service::Error(const Status& status, const std::function<void(JsonWriter&)>& details) {
  if (status.code() == ErrorCode::kInternal || status.code() == ErrorCode::kIo ||
      status.code() == ErrorCode::kCorruption) {
    std::fprintf(stderr, "monotable: internal error: %s\n", status.message().c_str());
  }
  WireError wire = ToWireError(status, details);
  return Finish(wire.http_status, std::move(wire.body), kAmzJson);
}

namespace {

// Every table a request names: TableName, RequestItems keys, TransactItems[*].<action>.TableName,
// and the table of every PartiQL Statement (ExecuteStatement, BatchExecuteStatement, ExecuteTransaction).
void CollectTables(const rapidjson::Value& v, int depth, std::vector<std::string>& out) {
  if (depth > 4) return;
  if (v.IsObject()) {
    for (auto it = v.MemberBegin(); it != v.MemberEnd(); ++it) {
      std::string_view name(it->name.GetString(), it->name.GetStringLength());
      if ((name == "TableName" || name == "ResourceArn") && it->value.IsString()) {
        out.emplace_back(it->value.GetString(), it->value.GetStringLength());
      } else if (name == "Statement" && it->value.IsString()) {
        auto statement = expr::partiql::ParseStatement({it->value.GetString(), it->value.GetStringLength()});
        // An unparsable statement names no table; the operation refuses it with its own error.
        if (statement.ok()) out.push_back(statement->table);
      } else if (name == "RequestItems" && it->value.IsObject()) {
        for (auto t = it->value.MemberBegin(); t != it->value.MemberEnd(); ++t) out.emplace_back(t->name.GetString());
      } else if (name == "TransactItems" || name == "Statements" || name == "TransactStatements" || depth > 0) {
        CollectTables(it->value, depth + 1, out);
      }
    }
  } else if (v.IsArray()) {
    for (const auto& e : v.GetArray()) CollectTables(e, depth + 1, out);
  }
}

}  // namespace

Status Service::Authorize(const std::string& access_key, std::string_view op, const rapidjson::Value& request) const {
  std::vector<std::string> tables;
  CollectTables(request, 0, tables);
  for (std::string& table : tables) {
    if (table.substr(0, 4) == "arn:") table = table.substr(table.find(":table/") + 7);
    table = table.substr(0, table.find('/'));
    if (!auth_.CanAccess(access_key, table)) {
      return Status(ErrorCode::kAccessDenied, "User: arn:aws:iam::" + identity_.account + ":user/" + access_key +
                                                  " is not authorized to perform: dynamodb:" + std::string(op) +
                                                  " on resource: " + TableArn(identity_, table));
    }
  }
  return Status::Ok();
}

HttpResponse Service::Handle(HttpRequestView& request) {
  auto start = std::chrono::steady_clock::now();
  std::string_view operation = OperationOf(request.target);
  size_t slot = metrics_.SlotOf(operation);
  HttpResponse response = Dispatch(request);
  // Responses that carry their own coding (the console's precompressed files) are sent as they are.
  bool already_coded = false;
  for (const auto& header : response.headers) already_coded |= header.first == "Content-Encoding";
  if (!already_coded && !request.accept_encoding.empty() && response.body.size() >= kResponseCompressionThreshold) {
    // The checksum covers the bytes sent, as DynamoDB's: the SDKs check it before inflating.
    std::string_view coding = EncodeResponseBody(ChooseResponseCoding(request.accept_encoding), response.body);
    if (!coding.empty()) {
      for (auto& [name, value] : response.headers) {
        if (name == "x-amz-crc32") value = std::to_string(libdeflate_crc32(0, response.body.data(), response.body.size()));
      }
      response.headers.emplace_back("Content-Encoding", std::string(coding));
    }
  }
  auto elapsed = std::chrono::steady_clock::now() - start;
  if (request.method == "POST") metrics_.Record(slot, response.status, elapsed);
  if (log_requests_ || response.status >= 500) {
    std::string_view id;
    for (const auto& [k, v] : response.headers) {
      if (k == "x-amzn-RequestId") id = v;
    }
    std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    char when[32];
    std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
    std::fprintf(stderr, "{\"time\":\"%s\",\"requestId\":\"%.*s\",\"operation\":\"%.*s\",\"status\":%d,\"ms\":%.3f}\n",
                 when, static_cast<int>(id.size()), id.data(), static_cast<int>(operation.size()), operation.data(),
                 response.status, std::chrono::duration<double, std::milli>(elapsed).count());
  }
  return response;
}

// The web console's files (console/console.h), on the API's port.
HttpResponse Service::Console(const HttpRequestView& request) {
  console::Request console_request{request.method, request.url, {}, {}};
  for (const auto& [name, value] : request.headers) {
    if (name.size() == 15 && strncasecmp(name.data(), "Accept-Encoding", 15) == 0) {
      console_request.accept_encoding = value;
    } else if (name.size() == 13 && strncasecmp(name.data(), "If-None-Match", 13) == 0) {
      console_request.if_none_match = value;
    }
  }
  console::Response served = console::Serve(console_request);
  HttpResponse response;
  response.status = served.status;
  response.body = std::move(served.body);
  response.headers = std::move(served.headers);
  return response;
}

HttpResponse Service::Dispatch(HttpRequestView& request) {
  if (!request.origin.empty() && request.method == "OPTIONS") {
    HttpResponse response = Finish(200, "", kAmzJson);
    response.headers.emplace_back("Access-Control-Allow-Origin", "*");
    if (!request.cors_request_headers.empty()) {
      response.headers.emplace_back("Access-Control-Allow-Headers", std::string(request.cors_request_headers));
    }
    if (!request.cors_request_method.empty()) {
      response.headers.emplace_back("Access-Control-Allow-Methods", std::string(request.cors_request_method));
    }
    response.headers.emplace_back("Access-Control-Expose-Headers", kCorsExposedHeaders);
    response.headers.emplace_back("Access-Control-Max-Age", "172800");
    return response;
  }
  std::string_view response_type = kAmzJson;
  auto with_cors = [&](HttpResponse response) {
    if (response_type != kAmzJson) response = WithContentType(std::move(response), response_type);
    if (!request.origin.empty()) {
      response.headers.emplace_back("Access-Control-Allow-Origin", "*");
      response.headers.emplace_back("Access-Control-Expose-Headers", kCorsExposedHeaders);
    }
    return response;
  };
  if (request.method == "GET") {
    std::string_view path = request.url.substr(0, request.url.find('?'));
    if (path == "/metrics") {
      return Finish(200, metrics_.Render() + (extra_metrics_ ? extra_metrics_() : ""), "text/plain; version=0.0.4");
    }
    if (path == "/health") return Finish(200, R"({"status":"ok"})", "application/json");
    if (console::IsConsolePath(path)) return Console(request);
    if (path == "/monotable/heat") {
      // Per-partition traffic of one table and its indexes: GET /monotable/heat?table=NAME
      std::string_view query = request.url.substr(std::min(request.url.size(), request.url.find('?') + 1));
      std::string_view name;
      if (query.substr(0, 6) == "table=") name = query.substr(6, query.find('&') - 6);
      // It shows key values: with credentials configured, it wants a request signed like POST /
      // (an empty body, its query string signed) by a key that may read the table.
      if (auth_.enabled()) {
        auto caller = auth_.Verify({request.method, request.url, request.headers, request.body});
        Status allowed = caller.ok() ? Status::Ok() : caller.status();
        if (allowed.ok() && !auth_.CanAccess(*caller, name)) {
          allowed = Status(ErrorCode::kAccessDenied, "User: arn:aws:iam::" + identity_.account + ":user/" + *caller +
                                                          " is not authorized to perform: dynamodb:DescribeTable on "
                                                          "resource: " + TableArn(identity_, std::string(name)));
        }
        if (!allowed.ok()) {
          HttpResponse refused = Error(allowed);
          refused.status = 403;
          return refused;
        }
      }
      auto handle = db_.catalog().Find(name);
      if (!handle) return Finish(404, R"({"message":"no such table"})", "application/json");
      return Finish(200, db_.throughput().HeatJson(*handle->description), "application/json");
    }
    if (path == "/monotable/triggers") {
      // The stream triggers' state, lag and failures (the console's Triggers view). Its errors may
      // quote handler output: with credentials configured it wants a signed request, and shows
      // the triggers of the tables the key may read.
      std::optional<std::string> caller;
      if (auth_.enabled()) {
        auto verified = auth_.Verify({request.method, request.url, request.headers, request.body});
        if (!verified.ok()) {
          HttpResponse refused = Error(verified.status());
          refused.status = 403;
          return refused;
        }
        caller = std::move(verified).value();
      }
      if (!triggers_status_) return Finish(200, R"({"configured":false,"triggers":[]})", "application/json");
      auto visible = [&](const std::string& table) { return !caller || auth_.CanAccess(*caller, table); };
      return Finish(200, triggers_status_(visible), "application/json");
    }
    // DynamoDB's health check answers on / only, naming the host the client addressed (AWS:
    // "healthy: dynamodb.<region>.amazonaws.com ", the trailing space is AWS's).
    if (path != "/" && !path.empty()) return with_cors(Finish(404, "<UnknownOperationException/>\n", "text/xml"));
    std::string host = request.host.empty() ? "dynamodb." + identity_.region + ".amazonaws.com" : std::string(request.host);
    return with_cors(Finish(200, "healthy: " + host + " ", "text/plain"));
  }
  std::string_view media = MediaType(request.content_type);
  if (request.method != "POST" ||
      (!request.body.empty() && media != "application/json" && media != kAmzJson)) {
    return with_cors(Finish(404, "<UnknownOperationException/>\n", "text/xml"));
  }
  response_type = ResponseContentType(media);

  // Signatures cover the body as sent: verify before the in-situ parse, report in AWS's order.
  std::optional<Result<std::string>> caller;
  if (auth_.enabled()) caller.emplace(auth_.Verify({request.method, request.url, request.headers, request.body}));
  // A compressed body is inflated after the signature check (it covers the bytes as sent) and
  // before the parse; one that does not inflate is refused as a body that does not parse.
  if (!request.content_encoding.empty()) {
    Status decoded = DecodeRequestBody(request.content_encoding, request.body, kMaxRequestBody);
    if (!decoded.ok()) return with_cors(Error(decoded));
  }

  // The document's values come from a per-thread block reused by every request (more, if a big
  // request needs it, from the heap for that request only): no allocator, base allocator and
  // 64 KB chunk allocated and freed per request. (Dispatch never runs inside itself on a thread.)
  constexpr size_t kPoolBytes = 32 << 10;
  thread_local std::unique_ptr<char[]> pool_block(new char[kPoolBytes]);
  rapidjson::MemoryPoolAllocator<> pool(pool_block.get(), kPoolBytes);
  // The parse and write stacks take their memory through this one allocator (malloc and free, no
  // state): given none, each of the document, its reader and the writer allocates one of its own.
  static rapidjson::CrtAllocator stack_allocator;
  rapidjson::Document doc(&pool, 1024, &stack_allocator);
  if (!request.body.empty()) {
    // Padding the parser may read: UTF-8 validation looks up to three bytes past a truncated
    // sequence at the very end, and the SSE2 string scan reads whole aligned 16-byte blocks, up
    // to 15 bytes past the closing NUL. Sixteen NULs keep every such read inside the buffer.
    if (HasLoneLowSurrogateEscape(request.body) || HasRawControl1AToF(request.body)) {
      return with_cors(Error(Status::Serialization("")));
    }
    request.body.append(16, '\0');
    // A body of plain ASCII is valid UTF-8 as it stands: only other bodies pay for the parser's
    // byte-by-byte validation.
    if (IsAscii(request.body)) {
      doc.ParseInsitu<rapidjson::kParseIterativeFlag>(request.body.data());
    } else {
      doc.ParseInsitu<rapidjson::kParseIterativeFlag | rapidjson::kParseValidateEncodingFlag>(request.body.data());
    }
    if (doc.HasParseError()) return with_cors(Error(Status::Serialization("")));
  }

  std::string_view target = request.target;
  const Operation* op = nullptr;
  if (auto it = operations_.find(target); it != operations_.end()) op = it->second;
  if (!op) return with_cors(Error(Status(ErrorCode::kUnknownOperation, "")));
  if (caller && !caller->ok()) return with_cors(Error(caller->status()));
  if (request.body.empty()) return with_cors(Error(Status::Serialization("")));

  Status checked = CheckRequest(op->shape.get(), doc, doc.GetAllocator());
  if (!checked.ok()) return with_cors(Error(checked));
  if (caller) {
    Status allowed = Authorize(**caller, op->name, doc);
    if (!allowed.ok()) return with_cors(Error(allowed));
  }

  // The answer is written into a per-thread buffer that keeps its capacity (up to 64 KB) from
  // one request to the next, then copied out once.
  constexpr size_t kKeptAnswerCapacity = 64 << 10;
  thread_local rapidjson::StringBuffer buffer(nullptr, 4096);
  buffer.Clear();
  struct ShrinkLarge {
    rapidjson::StringBuffer& buffer;
    ~ShrinkLarge() {
      if (buffer.GetSize() > kKeptAnswerCapacity) buffer.Clear(), buffer.ShrinkToFit();
    }
  } shrink_large{buffer};
  JsonWriter writer(buffer, &stack_allocator);
  OperationContext ctx{db_, identity_, doc, writer, idempotency_, nullptr, {}, request.host, backups_.get()};
  Status result = op->validate ? op->validate(ctx) : Status::Ok();
  if (result.ok()) result = op->run(ctx);
  if (!result.ok()) return with_cors(Error(result, ctx.error_details));
  HttpResponse response = Finish(200, std::string(buffer.GetString(), buffer.GetSize()), kAmzJson);
  response.read_work = ctx.read_work;
  if (WantsExplain(request.headers)) {
    response.headers.emplace_back("x-monotable-explain", ExplainJson(op->name, doc, ctx.read_work, response.body));
  }
  return with_cors(std::move(response));
}

}  // namespace monotable::api
