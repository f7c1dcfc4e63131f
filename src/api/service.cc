#include "api/service.h"

#include <cstring>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <random>

#include <libdeflate.h>

#include "api/errors.h"
#include "api/ops/operations.h"
#include "api/request_fields.h"
#include "expr/partiql/parser.h"

namespace monotable::api {
namespace {

constexpr std::string_view kAmzJson = "application/x-amz-json-1.0";
constexpr std::string_view kDynamoPrefix = "DynamoDB_20120810.";
constexpr std::string_view kStreamsPrefix = "DynamoDBStreams_20120810.";

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
      idempotency_(db.engine()),
      auth_(std::move(auth)),
      metrics_(OperationNames()) {
  // Keyed by the whole X-Amz-Target: the Streams API answers on the same endpoint.
  for (const Operation* op : AllOperations()) operations_.emplace(std::string(kDynamoPrefix) + std::string(op->name), op);
  for (const Operation* op : StreamOperations()) {
    operations_.emplace(std::string(kStreamsPrefix) + std::string(op->name), op);
  }
}

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
    response.headers.emplace_back("Access-Control-Max-Age", "172800");
    return response;
  }
  std::string_view response_type = kAmzJson;
  auto with_cors = [&](HttpResponse response) {
    if (response_type != kAmzJson) response = WithContentType(std::move(response), response_type);
    if (!request.origin.empty()) response.headers.emplace_back("Access-Control-Allow-Origin", "*");
    return response;
  };
  if (request.method == "GET") {
    std::string_view path = request.url.substr(0, request.url.find('?'));
    if (path == "/metrics") return Finish(200, metrics_.Render(), "text/plain; version=0.0.4");
    if (path == "/health") return Finish(200, R"({"status":"ok"})", "application/json");
    if (path == "/monotable/heat") {
      // Per-partition traffic of one table and its indexes: GET /monotable/heat?table=NAME
      std::string_view query = request.url.substr(std::min(request.url.size(), request.url.find('?') + 1));
      std::string_view name;
      if (query.substr(0, 6) == "table=") name = query.substr(6, query.find('&') - 6);
      auto handle = db_.catalog().Find(name);
      if (!handle) return Finish(404, R"({"message":"no such table"})", "application/json");
      return Finish(200, db_.throughput().HeatJson(*handle->description), "application/json");
    }
    return with_cors(Finish(200, "healthy: dynamodb." + identity_.region + ".amazonaws.com ", "text/plain"));
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
  OperationContext ctx{db_, identity_, doc, writer, idempotency_, nullptr, {}};
  Status result = op->validate ? op->validate(ctx) : Status::Ok();
  if (result.ok()) result = op->run(ctx);
  if (!result.ok()) return with_cors(Error(result, ctx.error_details));
  HttpResponse response = Finish(200, std::string(buffer.GetString(), buffer.GetSize()), kAmzJson);
  response.read_work = ctx.read_work;
  return with_cors(std::move(response));
}

}  // namespace monotable::api
