// Service: turns one HTTP request (method, headers, body) into one HTTP response, independent of
// the transport. Follows DynamoDB's order of checks: CORS preflight, GET health check, method
// and content type, JSON syntax, X-Amz-Target, request shape, operation rules, operation.
// A GET of /console or /console/... is the web console's (console/console.h answers it).
//
// Contract: Handle() never throws and never answers a client mistake with a 5xx; every response
// but the console's files carries x-amzn-RequestId and x-amz-crc32 (CRC32 of the body bytes) and
// the DynamoDB content type.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/metrics.h"
#include "api/operation.h"
#include "api/sigv4.h"
#include "table/database.h"

namespace monotable::backup {
class BackupService;
}

namespace monotable::api {

struct HttpRequestView {
  std::string_view method;
  std::string_view url;  // path and query string
  std::vector<std::pair<std::string_view, std::string_view>> headers;  // all of them, for SigV4
  std::string_view target;        // X-Amz-Target
  std::string_view content_type;  // Content-Type
  std::string_view origin;        // Origin (CORS)
  std::string_view cors_request_headers;
  std::string_view cors_request_method;
  std::string_view host;              // Host
  std::string_view content_encoding;  // Content-Encoding
  std::string_view accept_encoding;   // Accept-Encoding (the last one, when repeated, as DynamoDB)
  std::string body;  // owned: parsed in situ
};

struct HttpResponse {
  int status = 200;
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
  ReadWork read_work;  // what a Query or Scan read (zero for other requests and for errors)
};

class Service {
 public:
  Service(table::Database& db, ServerIdentity identity, Authenticator auth = {});
  ~Service();
  // Backups, PITR, export and import of this server (src/backup).
  // Backups, PITR, exports and imports (on every storage engine).
  backup::BackupService* backups() { return backups_.get(); }

  // Answers one request and records it in the metrics (and the request log, when enabled).
  HttpResponse Handle(HttpRequestView& request);
  // One JSON line per request on stderr: time, request id, operation, status, milliseconds.
  void set_log_requests(bool on) { log_requests_ = on; }
  const Metrics& metrics() const { return metrics_; }
  // Text appended to GET /metrics (e.g. the stream triggers'); set before serving.
  void set_extra_metrics(std::function<std::string()> render) { extra_metrics_ = std::move(render); }
  // GET /monotable/triggers answers what this renders (the stream triggers' status JSON) for the
  // triggers of tables the caller may read; unset, it answers {"configured":false,"triggers":[]}.
  // With credentials configured it wants a signed request, as GET /monotable/heat does.
  using TriggersStatus = std::function<std::string(const std::function<bool(const std::string& table)>& visible)>;
  void set_triggers_status(TriggersStatus render) { triggers_status_ = std::move(render); }
  // The storage engine holds writes back now (engine::Engine::WritesStalled): the HTTP server
  // keeps write requests off its I/O threads meanwhile.
  bool WritesStalled() const { return db_.has_engine() && db_.engine().WritesStalled(); }

 private:
  HttpResponse Dispatch(HttpRequestView& request);
  HttpResponse Console(const HttpRequestView& request);
  HttpResponse Finish(int status, std::string body, std::string_view content_type);
  Status Authorize(const std::string& access_key, std::string_view op, const rapidjson::Value& request) const;
  HttpResponse Error(const Status& status, const std::function<void(JsonWriter&)>& details = nullptr);

  table::Database& db_;
  ServerIdentity identity_;
  txn::IdempotencyCache idempotency_;
  Authenticator auth_;
  Metrics metrics_;
  bool log_requests_ = false;
  std::function<std::string()> extra_metrics_;
  TriggersStatus triggers_status_;
  std::map<std::string, const Operation*, std::less<>> operations_;
  std::unique_ptr<backup::BackupService> backups_;
};

}  // namespace monotable::api
