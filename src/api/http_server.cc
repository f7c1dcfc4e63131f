#include "api/http_server.h"

#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <functional>
#include <mutex>
#include <optional>
#include <unordered_set>
#include <thread>
#include <vector>

#include <unistd.h>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/asio/ssl.hpp>

#include "api/query_placement.h"
#include "common/status.h"
#include "engine/engine.h"

namespace monotable::api {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

constexpr uint64_t kMaxBody = 16 * 1024 * 1024;
// A request's target and its header block may take at most this much (the header limit includes
// the request line). Longer ones are answered 400, as AWS answers them.
constexpr size_t kMaxTarget = 16 * 1024;
constexpr uint32_t kMaxHeader = 64 * 1024;
constexpr size_t kKeptBodyCapacity = 256 * 1024;  // a connection keeps a request buffer up to this size
// Beast reads as much as the read buffer's free capacity, which it does not grow while the parser
// keeps consuming: with its first 512 bytes, every request longer than that (a PutItem of a 200-byte
// item) took two recv calls. 8 KB takes most requests (a 4 KB item too) in one.
constexpr size_t kReadBufferBytes = 8 * 1024;
// Time a connection may take to deliver one whole request (also the idle keep-alive limit), so
// slow or stuck clients cannot hold connections forever.
constexpr auto kRequestTimeout = std::chrono::seconds(120);

class SessionBase;

// Live sessions, so a shutdown can close idle ones and let busy ones finish their request, and a
// periodic sweep can close connections that stopped making progress.
struct SessionRegistry {
  std::mutex mutex;
  std::unordered_set<SessionBase*> sessions;
  std::atomic<size_t> count{0};
  std::atomic<bool> draining{false};
  std::function<void()> on_drained;  // set before draining starts; runs when the last session ends
};

int64_t NowTicks() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// The Date header's value (RFC 9110 IMF-fixdate), formatted once a second per thread.
std::string_view HttpDate() {
  thread_local std::time_t formatted_at = -1;
  thread_local char text[32];
  thread_local size_t length = 0;
  const std::time_t now = std::time(nullptr);
  if (now != formatted_at) {
    std::tm tm{};
    gmtime_r(&now, &tm);
    length = std::strftime(text, sizeof text, "%a, %d %b %Y %H:%M:%S GMT", &tm);
    formatted_at = now;
  }
  return {text, length};
}

// Headers of every answer, as DynamoDB sends them: "Server: Server" and the date.
void AppendServerAndDate(std::string& head) {
  head.append("Server: Server\r\nDate: ");
  head.append(HttpDate());
  head.append("\r\n");
}

const char* Reason(int status) {
  switch (status) {
    case 200: return "OK";
    case 301: return "Moved Permanently";
    case 304: return "Not Modified";
    case 405: return "Method Not Allowed";
    case 400: return "Bad Request";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 413: return "Payload Too Large";
    case 500: return "Internal Server Error";
    case 503: return "Service Unavailable";
    default: return "Unknown";
  }
}

// Parses one request into buffers its connection reuses: the method, target and header fields are
// copied into one arena string (no per-field allocation, unlike Beast's basic_fields), the body
// into the connection's body string. Spans are offsets into the arena, turned into views once the
// header is complete (the arena may grow while fields arrive).
class RequestParser : public http::basic_parser<true> {
 public:
  struct Span {
    uint32_t offset = 0, size = 0;
  };
  struct Field {
    Span name, value;
    http::field known;
  };

  RequestParser(std::string& arena, std::vector<Field>& fields, std::string& body)
      : arena_(arena), fields_(fields), body_(body) {
    arena_.clear();
    fields_.clear();
    body_.clear();
  }

  std::string_view View(Span s) const { return std::string_view(arena_).substr(s.offset, s.size); }
  Span method, target;
  int version = 11;

 private:
  Span Append(beast::string_view v) {
    Span s{static_cast<uint32_t>(arena_.size()), static_cast<uint32_t>(v.size())};
    arena_.append(v.data(), v.size());
    return s;
  }
  void on_request_impl(http::verb, beast::string_view method_text, beast::string_view target_text, int http_version,
                       beast::error_code& ec) override {
    if (target_text.size() > kMaxTarget) {
      ec = http::error::header_limit;
      return;
    }
    method = Append(method_text);
    target = Append(target_text);
    version = http_version;
  }
  void on_response_impl(int, beast::string_view, int, beast::error_code&) override {}
  void on_field_impl(http::field known, beast::string_view name, beast::string_view value,
                     beast::error_code&) override {
    Span n = Append(name);
    fields_.push_back({n, Append(value), known});
  }
  void on_header_impl(beast::error_code&) override {}
  void on_body_init_impl(const boost::optional<uint64_t>& length, beast::error_code&) override {
    if (length) body_.reserve(*length + 16);  // within body_limit (checked before); +16: the JSON pad
  }
  size_t on_body_impl(beast::string_view piece, beast::error_code&) override {
    body_.append(piece.data(), piece.size());
    return piece.size();
  }
  void on_chunk_header_impl(uint64_t, beast::string_view, beast::error_code&) override {}
  size_t on_chunk_body_impl(uint64_t, beast::string_view piece, beast::error_code&) override {
    body_.append(piece.data(), piece.size());
    return piece.size();
  }
  void on_finish_impl(beast::error_code&) override {}

  std::string& arena_;
  std::vector<Field>& fields_;
  std::string& body_;
};

// What the registry needs of a connection, whatever its stream (plain TCP or TLS).
class SessionBase : public std::enable_shared_from_this<SessionBase> {
 public:
  explicit SessionBase(SessionRegistry& registry) : registry_(registry), last_activity_(NowTicks()) {
    std::lock_guard lock(registry_.mutex);
    registry_.sessions.insert(this);
    ++registry_.count;
  }
  virtual ~SessionBase() {
    std::lock_guard lock(registry_.mutex);
    registry_.sessions.erase(this);
    if (--registry_.count == 0 && registry_.draining && registry_.on_drained) registry_.on_drained();
  }
  virtual void Drain() = 0;
  virtual void CloseIfStale(int64_t now, int64_t limit_ms) = 0;
  virtual void SendAnswer() = 0;  // the answer the session left with its AnswerBatch
  virtual void FailAnswer() = 0;  // replaces that answer with an internal error

 protected:
  SessionRegistry& registry_;
  std::atomic<int64_t> last_activity_;
};

// The answers an I/O thread computed, sent together once the thread has handled every request
// that was ready: one handler posted per batch runs after the batch's requests (and the next poll
// of the sockets). Measured against sending each answer as soon as it is computed (bench/RESULTS.md):
// PutItem takes ~15 % less server CPU a request and GetItem ~7 %, and their p99 halves: the
// requests' work runs back to back, and a client woken by the first answer finds the others there.
// The batch is also a write round (engine/engine.h, log rounds): the log records of the writes among
// its requests go out together, before any answer.
class AnswerBatch {
 public:
  explicit AnswerBatch(asio::io_context& io) : io_(io) {}

  // On the batch's I/O thread only.
  void Add(std::shared_ptr<SessionBase> session) {
    pending_.push_back(std::move(session));
    if (pending_.size() == 1) asio::post(io_, [this] { SendAll(); });
  }

 private:
  void SendAll() {
    sending_.swap(pending_);
    Status written = engine::WriteOutDeferredLogs();
    if (!written.ok()) {
      // The writes are applied but may not survive a crash: none of them is acknowledged.
      std::fprintf(stderr, "monotable: writing out the log failed: %s\n", written.message().c_str());
      for (auto& session : sending_) session->FailAnswer();
    }
    for (auto& session : sending_) session->SendAnswer();
    sending_.clear();  // keeps the capacity
  }

  asio::io_context& io_;
  std::vector<std::shared_ptr<SessionBase>> pending_;
  std::vector<std::shared_ptr<SessionBase>> sending_;
};

// Requests that may write: while the engine stalls writes (Service::WritesStalled), they run on a
// thread of their own instead of the connection's I/O thread, so a write held back by RocksDB does
// not hold back every other connection of that thread (their reads are answered meanwhile).
bool MayWrite(std::string_view target) {
  static constexpr std::string_view kPrefix = "DynamoDB_20120810.";
  if (target.substr(0, kPrefix.size()) != kPrefix) return false;
  const std::string_view op = target.substr(kPrefix.size());
  return op == "PutItem" || op == "UpdateItem" || op == "DeleteItem" || op == "BatchWriteItem" ||
         op == "TransactWriteItems" || op == "ExecuteStatement" || op == "BatchExecuteStatement" ||
         op == "ExecuteTransaction";
}

// Plain connections use their io_context's own executor type rather than the type-erased
// any_io_executor of tcp::socket: every read and write otherwise copies, wraps and destroys
// type-erased executors for its work tracking.
using PlainSocket = asio::basic_stream_socket<tcp, asio::io_context::executor_type>;

PlainSocket& LowestLayer(PlainSocket& s) { return s; }
tcp::socket& LowestLayer(asio::ssl::stream<tcp::socket>& s) { return s.next_layer(); }

constexpr std::string_view kQueryTarget = "DynamoDB_20120810.Query";

// Operations whose work can be large next to the cost of handing them to a worker thread and back:
// many items read, written or evaluated per request. A connection's small queries run on its I/O
// thread (api/query_placement.h).
bool RunsOnWorker(std::string_view target) {
  static constexpr std::string_view kPrefix = "DynamoDB_20120810.";
  if (target.substr(0, kPrefix.size()) != kPrefix) return false;
  const std::string_view op = target.substr(kPrefix.size());
  return op == "Query" || op == "Scan" || op == "BatchGetItem" || op == "BatchWriteItem" ||
         op == "TransactGetItems" || op == "TransactWriteItems" || op == "ExecuteStatement" ||
         op == "BatchExecuteStatement" || op == "ExecuteTransaction";
}

// One connection. Reads requests with Beast's parser straight from the stream and writes each
// answer as two buffers (a hand-built head and the body): no per-operation timers or serializer
// machinery on the hot path. Timeouts come from the registry's sweep (last_activity_).
template <typename Stream>
class Session : public SessionBase {
 public:
  Session(Stream stream, Service& service, SessionRegistry& registry, AnswerBatch& answers,
          asio::thread_pool* workers, asio::thread_pool& stalled_writes)
      : SessionBase(registry),
        socket_(std::move(stream)),
        service_(service),
        answers_(answers),
        workers_(workers),
        stalled_writes_(stalled_writes) {
    buffer_.reserve(kReadBufferBytes);
  }

  std::shared_ptr<Session> self() { return std::static_pointer_cast<Session>(shared_from_this()); }

  void Start() {
    if constexpr (std::is_same_v<Stream, PlainSocket>) {
      ReadRequest();
    } else {
      socket_.async_handshake(asio::ssl::stream_base::server, [self = self()](beast::error_code ec) {
        if (ec) return self->Close();
        self->ReadRequest();
      });
    }
  }

  // Called (from any thread) when the server drains: an idle session closes now, a busy one
  // after it has answered its current request.
  void Drain() override {
    asio::post(socket_.get_executor(), [self = self()] {
      if (!self->busy_) self->Close();
    });
  }

  // Called by the sweep: closes the connection if it made no progress for `limit_ms`.
  void CloseIfStale(int64_t now, int64_t limit_ms) override {
    if (now - last_activity_.load(std::memory_order_relaxed) <= limit_ms) return;
    asio::post(socket_.get_executor(), [self = self()] { self->Close(); });
  }

 private:
  void ReadRequest() {
    if (registry_.draining) return Close();
    parser_.emplace(arena_, fields_, body_in_);
    parser_->body_limit(kMaxBody);
    parser_->header_limit(kMaxHeader);
    busy_ = false;
    last_activity_.store(NowTicks(), std::memory_order_relaxed);
    ParseOrRead();
  }

  // The loop of Beast's http::async_read, written out with the parser's buffer interface: parse
  // what the buffer holds (a pipelined request may already be there), read more until the request
  // is complete. (Beast's composed operations wrap every read in several handler and executor
  // layers: ~1,000 instructions a request.)
  void ParseOrRead() {
    while (buffer_.size() > 0) {
      beast::error_code ec;
      size_t used = parser_->put(buffer_.data(), ec);
      buffer_.consume(used);
      if (ec == http::error::need_more) break;
      if (ec) return OnRead(ec);
      if (parser_->is_done()) return OnRead({});
    }
    size_t size = beast::read_size(buffer_, 65536);
    if (size == 0) return OnRead(http::error::buffer_overflow);
    socket_.async_read_some(buffer_.prepare(size), [self = self()](beast::error_code ec, size_t bytes) {
      self->buffer_.commit(bytes);
      if (ec == asio::error::eof) {  // as Beast: the parser decides whether the request is complete
        if (!self->parser_->got_some()) return self->OnRead(http::error::end_of_stream);
        ec = {};
        self->parser_->put_eof(ec);
        return self->OnRead(ec);
      }
      if (ec) return self->OnRead(ec);
      self->ParseOrRead();
    });
  }

  void OnRead(beast::error_code ec) {
    if (ec == http::error::body_limit) return SendRefusal(413, "Request Entity Too Large");
    if (ec == http::error::header_limit || ec == http::error::buffer_overflow) {
      return SendRefusal(400, "Bad Request: the request line or the header fields are too large");
    }
    if (ec) return Close();
    busy_ = true;
    last_activity_.store(NowTicks(), std::memory_order_relaxed);
    RequestParser& req = *parser_;
    HttpRequestView& view = view_;
    view.method = req.View(req.method);
    view.url = req.View(req.target);
    view.headers.clear();
    view.target = view.content_type = view.origin = view.cors_request_headers = view.cors_request_method = {};
    view.host = view.content_encoding = view.accept_encoding = {};
    for (const auto& field : fields_) {
      std::string_view name = req.View(field.name);
      std::string_view value = req.View(field.value);
      view.headers.emplace_back(name, value);
      switch (field.known) {
        case http::field::content_type: view.content_type = value; break;
        case http::field::origin: view.origin = value; break;
        case http::field::access_control_request_headers: view.cors_request_headers = value; break;
        case http::field::access_control_request_method: view.cors_request_method = value; break;
        case http::field::host: view.host = value; break;
        case http::field::content_encoding: view.content_encoding = value; break;
        case http::field::accept_encoding: view.accept_encoding = value; break;
        default:
          if (name.size() == 12 && beast::iequals(beast::string_view(name.data(), name.size()), "X-Amz-Target")) view.target = value;
      }
    }
    view.body = std::move(body_in_);
    bool keep_alive = req.keep_alive() && !registry_.draining;
    bool http10 = req.version == 10;

    const bool is_query = view.target == kQueryTarget;
    asio::thread_pool* elsewhere = nullptr;
    if (MayWrite(view.target) && service_.WritesStalled()) {
      elsewhere = &stalled_writes_;
    } else if (workers_ != nullptr && RunsOnWorker(view.target) && !(is_query && query_placement_.Inline())) {
      elsewhere = workers_;
    }
    if (elsewhere != nullptr) {
      // The connection reads nothing more until this request is answered, so the worker has the
      // request view (and the buffers it points into) to itself until it posts the answer back.
      asio::post(*elsewhere, [self = self(), keep_alive, http10, is_query] {
        auto out = std::make_shared<HttpResponse>(self->Handle());
        asio::post(self->socket_.get_executor(), [self, out, keep_alive, http10, is_query] {
          if (is_query) self->query_placement_.Record(out->read_work);
          self->Answer(*out, keep_alive, http10);
        });
      });
      return;
    }
    answer_ = Handle();
    if (is_query) query_placement_.Record(answer_.read_work);
    answer_keep_alive_ = keep_alive;
    answer_http10_ = http10;
    answers_.Add(self());
  }

  void SendAnswer() override { Answer(answer_, answer_keep_alive_, answer_http10_); }
  void FailAnswer() override { answer_ = InternalError(); }

  HttpResponse Handle() {
    try {
      return service_.Handle(view_);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "monotable: request failed: %s\n", e.what());
      return InternalError();
    }
  }

  void Answer(HttpResponse& out, bool keep_alive, bool http10) {
    body_in_ = std::move(view_.body);  // keeps its capacity for the next request, unless it is large
    if (body_in_.capacity() > kKeptBodyCapacity) std::string().swap(body_in_);
    WriteResponse(out, keep_alive, http10);
  }

  void WriteResponse(HttpResponse& out, bool keep_alive, bool http10) {
    head_.clear();
    head_.append(http10 ? "HTTP/1.0 " : "HTTP/1.1 ");
    head_.append(std::to_string(out.status));
    head_.push_back(' ');
    head_.append(Reason(out.status));
    head_.append("\r\n");
    AppendServerAndDate(head_);
    for (const auto& [name, value] : out.headers) {
      head_.append(name);
      head_.append(": ");
      head_.append(value);
      head_.append("\r\n");
    }
    head_.append("Content-Length: ");
    head_.append(std::to_string(out.body.size()));
    head_.append(keep_alive ? (http10 ? "\r\nConnection: keep-alive\r\n\r\n" : "\r\n\r\n")
                            : "\r\nConnection: close\r\n\r\n");
    body_ = std::move(out.body);
    std::array<asio::const_buffer, 2> buffers{asio::buffer(head_), asio::buffer(body_)};
    asio::async_write(socket_, buffers, [self = self(), keep_alive](beast::error_code ec, size_t) {
      if (ec || !keep_alive) return self->Close();
      self->ReadRequest();
    });
  }

  static HttpResponse InternalError() {
    HttpResponse out;
    out.status = 500;
    out.body = R"({"__type":"com.amazonaws.dynamodb.v20120810#InternalServerError","message":"Internal server error"})";
    out.headers.emplace_back("Content-Type", "application/x-amz-json-1.0");
    return out;
  }

  // Answers a request the connection cannot read on (a body over the limit: 413; a request line
  // or header block over its limit: 400, as AWS's front end), then reads and drops what the client
  // still sends for a bounded size (the sweep bounds the time), so a client that sends its whole
  // request before reading sees the answer, not a reset. The connection closes after.
  void SendRefusal(int status, std::string_view body) {
    head_ = "HTTP/1.1 " + std::to_string(status) + " " + Reason(status) + "\r\n";
    AppendServerAndDate(head_);
    head_ += "Content-Type: text/plain\r\n";
    head_ += "x-amzn-RequestId: REFUSED" + std::to_string(reinterpret_cast<uintptr_t>(this)) + "\r\n";
    head_ += "Content-Length: " + std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n";
    body_ = std::string(body);
    std::array<asio::const_buffer, 2> buffers{asio::buffer(head_), asio::buffer(body_)};
    asio::async_write(socket_, buffers, [self = self()](beast::error_code ec, size_t) {
      if (ec) return self->Close();
      LowestLayer(self->socket_).shutdown(tcp::socket::shutdown_send, ec);
      self->Drain(0);
    });
  }

  void Drain(size_t drained) {
    constexpr size_t kMaxDrain = 64 * 1024 * 1024;
    if (drained > kMaxDrain) return Close();
    if (!drain_buffer_) drain_buffer_ = std::make_unique<char[]>(64 * 1024);
    last_activity_.store(NowTicks(), std::memory_order_relaxed);
    socket_.async_read_some(asio::buffer(drain_buffer_.get(), 64 * 1024),
                            [self = self(), drained](beast::error_code ec, size_t n) {
                              if (ec) return self->Close();
                              self->Drain(drained + n);
                            });
  }

  void Close() {
    beast::error_code ignored;
    LowestLayer(socket_).shutdown(tcp::socket::shutdown_both, ignored);
    LowestLayer(socket_).close(ignored);
  }

  Stream socket_;
  beast::flat_buffer buffer_;
  std::optional<RequestParser> parser_;
  // Reused from request to request: header bytes, field spans, request body, the request view.
  std::string arena_;
  std::vector<RequestParser::Field> fields_;
  std::string body_in_;
  HttpRequestView view_;
  std::string head_;
  std::string body_;
  std::unique_ptr<char[]> drain_buffer_;
  HttpResponse answer_;  // computed on the I/O thread, waiting for its AnswerBatch
  bool answer_keep_alive_ = false;
  bool answer_http10_ = false;
  Service& service_;
  AnswerBatch& answers_;  // the session's I/O thread's
  asio::thread_pool* workers_;  // nullptr: every request runs on the I/O thread
  asio::thread_pool& stalled_writes_;  // writes while the engine stalls them (MayWrite)
  bool busy_ = false;  // touched only on the session's own I/O thread
  QueryPlacement query_placement_;  // I/O thread only
};

}  // namespace

// One io_context per I/O thread, each run by exactly that thread (like nginx's workers): a
// connection lives on the context it was accepted onto, so its handlers never hop threads; only a
// heavy operation (RunsOnWorker, less a connection's small queries) goes to the worker pool and
// its answer comes back to the connection's context. Context 0 also holds the acceptors, the
// sweep, the signals and the drain.
struct HttpServer::Impl {
  Impl(Service& s, ServerOptions o) : service(s), options(std::move(o)) {
    const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    // Defaults: an I/O thread per two cores and a worker per core (none on one core). Measured on
    // 2 cores shared with wrk (bench/RESULTS.md): one I/O thread serving every connection takes
    // 15-25 % less CPU a request than two and has a lower p99 for point reads and writes (it
    // rarely sleeps, and each wake-up finds many requests); with the heavy operations on workers,
    // Query of 10 items gains 23-32 % (parsing and sending overlap the reads) and Query of 100
    // items and BatchWriteItem still get both cores.
    int n = options.threads > 0 ? options.threads : std::max(1, cores / 2);
    options.threads = n;
    for (int i = 0; i < n; ++i) {
      ios.push_back(std::make_unique<asio::io_context>(1));
      answer_batches.push_back(std::make_unique<AnswerBatch>(*ios.back()));
    }
    const int worker_count = options.workers >= 0 ? options.workers : (cores >= 2 ? cores : 0);
    if (worker_count > 0) workers = std::make_unique<asio::thread_pool>(worker_count);
    acceptor.emplace(*ios[0]);
    tls_acceptor.emplace(*ios[0]);
  }

  asio::io_context& main_io() { return *ios[0]; }

  void Accept(tcp::acceptor& from, bool secure) {
    const size_t index = next_io++ % ios.size();
    from.async_accept(*ios[index], [this, &from, secure, index](beast::error_code ec, tcp::socket socket) {
      if (ec == asio::error::operation_aborted) return;
      if (!ec) {
        if (registry.count >= options.max_connections) {
          socket.close(ec);  // over the connection cap: refuse rather than starve the others
        } else {
          socket.set_option(tcp::no_delay(true), ec);
          if (secure) {
            std::make_shared<Session<asio::ssl::stream<tcp::socket>>>(
                asio::ssl::stream<tcp::socket>(std::move(socket), *tls), service, registry, *answer_batches[index],
                workers.get(), stalled_writes)
                ->Start();
          } else {
            PlainSocket plain(ios[index]->get_executor());
            const tcp protocol = socket.local_endpoint(ec).protocol();
            if (!ec) {
              const int fd = socket.release(ec);
              if (!ec) {
                plain.assign(protocol, fd, ec);
                if (ec) ::close(fd);  // not adopted
              }
            }
            if (!ec) {
              std::make_shared<Session<PlainSocket>>(std::move(plain), service, registry, *answer_batches[index],
                                                     workers.get(), stalled_writes)
                  ->Start();
            }
          }
        }
      }
      if (from.is_open()) Accept(from, secure);
    });
  }

  // Ends every I/O loop (the drain finished or its grace period ran out).
  void StopAll() {
    for (auto& guard : guards) guard.reset();
    for (auto& io : ios) io->stop();
  }

  Service& service;
  ServerOptions options;
  SessionRegistry registry;  // before the loops: sessions they still hold unregister on destruction
  std::vector<std::unique_ptr<asio::io_context>> ios;
  std::vector<std::unique_ptr<AnswerBatch>> answer_batches;  // one per I/O thread, as ios
  std::unique_ptr<asio::thread_pool> workers;  // null when heavy operations stay on the I/O threads
  asio::thread_pool stalled_writes{1};  // MayWrite requests while the engine stalls writes
  std::vector<std::optional<asio::executor_work_guard<asio::io_context::executor_type>>> guards;
  size_t next_io = 0;  // touched only by the accept handlers on context 0
  std::optional<tcp::acceptor> acceptor;
  std::optional<tcp::acceptor> tls_acceptor;
  std::unique_ptr<asio::ssl::context> tls;  // only with a TLS listener: OpenSSL costs memory
  std::unique_ptr<asio::steady_timer> deadline;
  std::unique_ptr<asio::steady_timer> sweep;
  std::unique_ptr<asio::signal_set> signals;

  // Every few seconds: close connections that made no progress within the request timeout.
  void Sweep() {
    sweep->expires_after(std::chrono::seconds(5));
    sweep->async_wait([this](beast::error_code ec) {
      if (ec || registry.draining) return;
      int64_t now = NowTicks();
      int64_t limit = std::chrono::duration_cast<std::chrono::milliseconds>(kRequestTimeout).count();
      std::vector<std::shared_ptr<SessionBase>> live;
      {
        std::lock_guard lock(registry.mutex);
        for (SessionBase* s : registry.sessions) {
          if (auto p = s->weak_from_this().lock()) live.push_back(std::move(p));
        }
      }
      for (auto& s : live) s->CloseIfStale(now, limit);
      Sweep();
    });
  }
};

HttpServer::HttpServer(Service& service, ServerOptions options)
    : impl_(std::make_unique<Impl>(service, std::move(options))) {}

HttpServer::~HttpServer() = default;

namespace {

Status Bind(asio::io_context& io, tcp::acceptor& acceptor, const std::string& host, uint16_t port) {
  beast::error_code ec;
  auto address = asio::ip::make_address(host, ec);
  if (ec) {
    tcp::resolver resolver(io);
    auto results = resolver.resolve(host, std::to_string(port), ec);
    if (ec || results.empty()) return Status::Io("cannot resolve host " + host);
    address = results.begin()->endpoint().address();
  }
  tcp::endpoint endpoint(address, port);
  acceptor.open(endpoint.protocol(), ec);
  if (!ec) acceptor.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) acceptor.bind(endpoint, ec);
  if (!ec) acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) return Status::Io("cannot listen on " + host + ":" + std::to_string(port) + ": " + ec.message());
  return Status::Ok();
}

}  // namespace

Status HttpServer::Listen() {
  MT_RETURN_IF_ERROR(Bind(impl_->main_io(), *impl_->acceptor, impl_->options.host, impl_->options.port));
  if (!impl_->options.tls_cert.empty()) {
    beast::error_code ec;
    impl_->tls = std::make_unique<asio::ssl::context>(asio::ssl::context::tls_server);
    impl_->tls->set_options(asio::ssl::context::default_workarounds | asio::ssl::context::no_sslv2 |
                           asio::ssl::context::no_sslv3 | asio::ssl::context::no_tlsv1 |
                           asio::ssl::context::no_tlsv1_1);
    impl_->tls->use_certificate_chain_file(impl_->options.tls_cert, ec);
    if (!ec) impl_->tls->use_private_key_file(impl_->options.tls_key, asio::ssl::context::pem, ec);
    if (ec) return Status::Io("TLS certificate or key: " + ec.message());
    MT_RETURN_IF_ERROR(
        Bind(impl_->main_io(), *impl_->tls_acceptor, impl_->options.host, impl_->options.tls_port));
  }
  return Status::Ok();
}

uint16_t HttpServer::tls_port() const {
  return impl_->tls_acceptor->is_open() ? impl_->tls_acceptor->local_endpoint().port() : 0;
}

uint16_t HttpServer::port() const { return impl_->acceptor->local_endpoint().port(); }

void HttpServer::Run() {
  impl_->Accept(*impl_->acceptor, false);
  if (impl_->tls_acceptor->is_open()) impl_->Accept(*impl_->tls_acceptor, true);
  impl_->sweep = std::make_unique<asio::steady_timer>(impl_->main_io());
  impl_->Sweep();
  // SIGINT/SIGTERM stop the server gracefully: no new connections, then the I/O loops end.
  impl_->signals = std::make_unique<asio::signal_set>(impl_->main_io(), SIGINT, SIGTERM);
  impl_->signals->async_wait([this](beast::error_code ec, int) {
    if (!ec) Stop();
  });
  // Every loop stays up until StopAll(), even while it has no connection.
  for (auto& io : impl_->ios) impl_->guards.emplace_back(asio::make_work_guard(*io));
  std::vector<std::thread> threads;
  // I/O threads leave their commits' log records to their AnswerBatch, which writes them out
  // before sending the answers (engine/engine.h, log rounds).
  for (size_t i = 1; i < impl_->ios.size(); ++i) {
    threads.emplace_back([this, i] {
      engine::DeferLogWrites();
      impl_->ios[i]->run();
    });
  }
  engine::DeferLogWrites();
  impl_->main_io().run();
  for (auto& t : threads) t.join();
  // A worker still running a request after the drain's grace period posts its answer to a loop
  // that has ended; the loops (and the sessions they hold) outlive this join.
  if (impl_->workers) impl_->workers->join();
  impl_->stalled_writes.join();
}

void HttpServer::Stop() {
  asio::post(impl_->main_io(), [this] {
    if (impl_->registry.draining) return;
    impl_->deadline = std::make_unique<asio::steady_timer>(impl_->main_io(), std::chrono::seconds(10));
    impl_->registry.on_drained = [this] { asio::post(impl_->main_io(), [this] { impl_->deadline->cancel(); }); };
    impl_->registry.draining = true;
    beast::error_code ignored;
    impl_->acceptor->close(ignored);
    impl_->tls_acceptor->close(ignored);
    if (impl_->sweep) impl_->sweep->cancel();
    if (impl_->signals) impl_->signals->cancel(ignored);
    // In-flight requests finish and are answered; idle connections close. The I/O loops end when
    // no connection is left (the deadline is cancelled), or after a grace period at the latest.
    std::vector<std::shared_ptr<SessionBase>> live;
    {
      std::lock_guard lock(impl_->registry.mutex);
      for (SessionBase* s : impl_->registry.sessions) {
        if (auto p = s->weak_from_this().lock()) live.push_back(std::move(p));
      }
    }
    impl_->deadline->async_wait([this](beast::error_code) { impl_->StopAll(); });
    for (auto& s : live) s->Drain();
    if (live.empty()) impl_->deadline->cancel();
  });
}

}  // namespace monotable::api
