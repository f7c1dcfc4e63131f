#include "api/http_server.h"

#include <atomic>
#include <cstdio>
#include <functional>
#include <mutex>
#include <unordered_set>
#include <thread>
#include <vector>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

namespace monotable::api {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

constexpr uint64_t kMaxBody = 16 * 1024 * 1024;
// Time a connection may take to deliver one whole request (also the idle keep-alive limit), so
// slow or stuck clients cannot hold connections forever.
constexpr auto kRequestTimeout = std::chrono::seconds(120);

class Session;

// Live sessions, so a shutdown can close idle ones and let busy ones finish their request.
struct SessionRegistry {
  std::mutex mutex;
  std::unordered_set<Session*> sessions;
  std::atomic<size_t> count{0};
  std::atomic<bool> draining{false};
  std::function<void()> on_drained;  // set before draining starts; runs when the last session ends
};

class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket socket, Service& service, SessionRegistry& registry)
      : stream_(std::move(socket)), service_(service), registry_(registry) {
    std::lock_guard lock(registry_.mutex);
    registry_.sessions.insert(this);
    ++registry_.count;
  }
  ~Session() {
    std::lock_guard lock(registry_.mutex);
    registry_.sessions.erase(this);
    if (--registry_.count == 0 && registry_.draining && registry_.on_drained) registry_.on_drained();
  }

  void Start() { ReadRequest(); }

  // Called (from any thread) when the server drains: an idle session closes now, a busy one
  // after it has answered its current request.
  void Drain() {
    asio::post(stream_.get_executor(), [self = shared_from_this()] {
      if (!self->busy_) self->Close();
    });
  }

 private:
  void ReadRequest() {
    if (registry_.draining) return Close();
    parser_.emplace();
    parser_->body_limit(kMaxBody);
    parser_->header_limit(64 * 1024);
    stream_.expires_after(kRequestTimeout);
    busy_ = false;
    http::async_read(stream_, buffer_, *parser_,
                     [self = shared_from_this()](beast::error_code ec, size_t) { self->OnRead(ec); });
  }

  void OnRead(beast::error_code ec) {
    if (ec == http::error::body_limit) return SendTooLarge();
    if (ec) return Close();
    busy_ = true;
    auto& req = parser_->get();
    HttpRequestView view;
    auto method = req.method_string();
    view.method = std::string_view(method.data(), method.size());
    auto header = [&](std::string_view name) -> std::string_view {
      auto it = req.find(beast::string_view(name.data(), name.size()));
      return it == req.end() ? std::string_view() : std::string_view(it->value().data(), it->value().size());
    };
    view.url = std::string_view(req.target().data(), req.target().size());
    for (const auto& field : req) {
      view.headers.emplace_back(std::string_view(field.name_string().data(), field.name_string().size()),
                                std::string_view(field.value().data(), field.value().size()));
    }
    view.target = header("X-Amz-Target");
    view.content_type = header("Content-Type");
    view.origin = header("Origin");
    view.cors_request_headers = header("Access-Control-Request-Headers");
    view.cors_request_method = header("Access-Control-Request-Method");
    view.body = std::move(req.body());
    bool keep_alive = req.keep_alive();
    unsigned version = req.version();

    HttpResponse out;
    try {
      out = service_.Handle(view);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "monotable: request failed: %s\n", e.what());
      out = InternalError();
    }
    auto res = std::make_shared<http::response<http::string_body>>(static_cast<http::status>(out.status), version);
    for (auto& [name, value] : out.headers) res->set(name, value);
    res->body() = std::move(out.body);
    if (registry_.draining) keep_alive = false;
    res->keep_alive(keep_alive);
    res->prepare_payload();
    http::async_write(stream_, *res, [self = shared_from_this(), res, keep_alive](beast::error_code ec, size_t) {
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

  // Answers 413 and then reads (and drops) the rest of the body for a bounded time and size, so
  // a client that sends its whole body before reading the answer sees the 413, not a reset.
  void SendTooLarge() {
    auto res = std::make_shared<http::response<http::string_body>>(http::status::payload_too_large, 11);
    res->set(http::field::content_type, "text/plain");
    res->set("x-amzn-RequestId", "TOOLARGE" + std::to_string(reinterpret_cast<uintptr_t>(this)));
    res->body() = "Request Entity Too Large";
    res->keep_alive(false);
    res->prepare_payload();
    http::async_write(stream_, *res, [self = shared_from_this(), res](beast::error_code ec, size_t) {
      if (ec) return self->Close();
      self->stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
      self->stream_.expires_after(std::chrono::seconds(10));
      self->Drain(0);
    });
  }

  void Drain(size_t drained) {
    constexpr size_t kMaxDrain = 64 * 1024 * 1024;
    if (drained > kMaxDrain) return Close();
    if (!drain_buffer_) drain_buffer_ = std::make_unique<char[]>(64 * 1024);
    stream_.async_read_some(asio::buffer(drain_buffer_.get(), 64 * 1024),
                            [self = shared_from_this(), drained](beast::error_code ec, size_t n) {
                              if (ec) return self->Close();
                              self->Drain(drained + n);
                            });
  }

  void Close() {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
    stream_.close();
  }

  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  std::unique_ptr<char[]> drain_buffer_;
  Service& service_;
  SessionRegistry& registry_;
  bool busy_ = false;  // touched only on the session's strand
};

}  // namespace

struct HttpServer::Impl {
  Impl(Service& s, ServerOptions o)
      : service(s), options(std::move(o)), io(options.threads > 0 ? options.threads : 2), acceptor(io) {}

  void Accept() {
    acceptor.async_accept(asio::make_strand(io), [this](beast::error_code ec, tcp::socket socket) {
      if (ec == asio::error::operation_aborted) return;
      if (!ec) {
        if (registry.count >= options.max_connections) {
          socket.close(ec);  // over the connection cap: refuse rather than starve the others
        } else {
          socket.set_option(tcp::no_delay(true), ec);
          std::make_shared<Session>(std::move(socket), service, registry)->Start();
        }
      }
      Accept();
    });
  }

  Service& service;
  ServerOptions options;
  asio::io_context io;
  tcp::acceptor acceptor;
  SessionRegistry registry;
  std::unique_ptr<asio::steady_timer> deadline;
};

HttpServer::HttpServer(Service& service, ServerOptions options)
    : impl_(std::make_unique<Impl>(service, std::move(options))) {
  if (impl_->options.threads <= 0) {
    impl_->options.threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  }
}

HttpServer::~HttpServer() = default;

Status HttpServer::Listen() {
  beast::error_code ec;
  auto address = asio::ip::make_address(impl_->options.host, ec);
  if (ec) {
    tcp::resolver resolver(impl_->io);
    auto results = resolver.resolve(impl_->options.host, std::to_string(impl_->options.port), ec);
    if (ec || results.empty()) return Status::Io("cannot resolve host " + impl_->options.host);
    address = results.begin()->endpoint().address();
  }
  tcp::endpoint endpoint(address, impl_->options.port);
  auto& acceptor = impl_->acceptor;
  acceptor.open(endpoint.protocol(), ec);
  if (!ec) acceptor.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) acceptor.bind(endpoint, ec);
  if (!ec) acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) {
    return Status::Io("cannot listen on " + impl_->options.host + ":" + std::to_string(impl_->options.port) + ": " +
                      ec.message());
  }
  return Status::Ok();
}

uint16_t HttpServer::port() const { return impl_->acceptor.local_endpoint().port(); }

void HttpServer::Run() {
  impl_->Accept();
  // SIGINT/SIGTERM stop the server gracefully: no new connections, then the I/O loop ends.
  asio::signal_set signals(impl_->io, SIGINT, SIGTERM);
  signals.async_wait([this](beast::error_code ec, int) {
    if (!ec) Stop();
  });
  std::vector<std::thread> threads;
  for (int i = 1; i < impl_->options.threads; ++i) threads.emplace_back([this] { impl_->io.run(); });
  impl_->io.run();
  for (auto& t : threads) t.join();
}

void HttpServer::Stop() {
  asio::post(impl_->io, [this] {
    if (impl_->registry.draining) return;
    impl_->deadline = std::make_unique<asio::steady_timer>(impl_->io, std::chrono::seconds(10));
    impl_->registry.on_drained = [this] { asio::post(impl_->io, [this] { impl_->deadline->cancel(); }); };
    impl_->registry.draining = true;
    beast::error_code ignored;
    impl_->acceptor.close(ignored);
    // In-flight requests finish and are answered; idle connections close. The I/O loop ends when
    // nothing is left, or after a grace period at the latest.
    std::vector<std::shared_ptr<Session>> live;
    {
      std::lock_guard lock(impl_->registry.mutex);
      for (Session* s : impl_->registry.sessions) {
        if (auto p = s->weak_from_this().lock()) live.push_back(std::move(p));
      }
    }
    impl_->deadline->async_wait([this](beast::error_code ec) {
      if (!ec) impl_->io.stop();
    });
    for (auto& s : live) s->Drain();
    if (live.empty()) impl_->deadline->cancel();
  });
}

}  // namespace monotable::api
