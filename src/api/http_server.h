// HttpServer: HTTP/1.1 keep-alive front end (Boost.Beast) over a Service.
//
// Contract: Listen() binds (port 0 picks a free port, see port()); Run() serves on `threads`
// I/O threads, with `workers` threads for the heavy operations, until Stop() (safe from any
// thread or a signal handler via asio). Requests on one connection are answered in order; a body
// over 16 MiB gets 413, a request target over 16 KiB or a header block over 64 KiB gets 400, and
// the connection is closed after; every answer carries `Server: Server` and a `Date`, as AWS's;
// a request (or an idle keep-alive wait) may take at most 120 s; connections beyond
// max_connections are refused. A failure inside an operation (an exception) answers 500
// InternalServerError for that request only. Stop() (SIGINT/SIGTERM) drains: no new
// connections, in-flight requests are answered, idle connections close, Run() returns.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "api/service.h"

namespace monotable::api {

struct ServerOptions {
  std::string host = "127.0.0.1";
  uint16_t port = 8000;
  int threads = 0;  // I/O threads; 0: one per two cores, at least one
  // Worker threads for the operations that read, write or evaluate many items (Query, Scan, the
  // batches, transactions, PartiQL); 0: those run on the I/O threads like the rest; -1: one per
  // core, none on a single core.
  int workers = -1;
  size_t max_connections = 4096;
  // Optional TLS listener (OpenSSL) beside the plain one: PEM certificate chain and private key.
  std::string tls_cert;
  std::string tls_key;
  uint16_t tls_port = 0;
};

class HttpServer {
 public:
  HttpServer(Service& service, ServerOptions options);
  ~HttpServer();

  Status Listen();
  uint16_t port() const;
  uint16_t tls_port() const;  // 0 without TLS
  void Run();
  void Stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace monotable::api
