#include "triggers/http_poster.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <optional>

namespace monotable::triggers {
namespace {

using Clock = std::chrono::steady_clock;

int LeftMs(Clock::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return left > 0 ? static_cast<int>(left) : 0;
}

bool WaitFor(int fd, short events, Clock::time_point deadline, const std::stop_token& stop) {
  while (true) {
    int left = LeftMs(deadline);
    if (left == 0 || stop.stop_requested()) return false;
    pollfd p{fd, events, 0};
    int r = poll(&p, 1, std::min(left, 100));
    if (r == 0) continue;
    if (r > 0) return true;
    if (r < 0 && errno != EINTR) return false;
  }
}

bool DecodeChunked(std::string_view in, std::string& out) {
  while (true) {
    auto eol = in.find("\r\n");
    if (eol == std::string_view::npos) return false;
    size_t size = 0;
    for (char c : in.substr(0, eol)) {
      if (c == ';') break;
      int d = (c >= '0' && c <= '9')   ? c - '0'
              : (c >= 'a' && c <= 'f') ? c - 'a' + 10
              : (c >= 'A' && c <= 'F') ? c - 'A' + 10
                                       : -1;
      if (d < 0) return false;
      size = size * 16 + static_cast<size_t>(d);
      if (size > (64u << 20)) return false;
    }
    in.remove_prefix(eol + 2);
    if (size == 0) return true;
    if (in.size() < size + 2) return false;
    out.append(in.substr(0, size));
    in.remove_prefix(size + 2);
  }
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

static HttpResult Exchange(std::string_view method, std::string_view url, std::string_view body, int timeout_ms,
                           const std::stop_token& stop) {
  HttpResult result;
  auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  if (url.substr(0, 7) != "http://") {
    result.error = "not an http:// URL";
    return result;
  }
  std::string_view rest = url.substr(7);
  auto slash = rest.find('/');
  std::string_view authority = rest.substr(0, slash);
  std::string path = slash == std::string_view::npos ? "/" : std::string(rest.substr(slash));
  bool v6 = false;
  std::string host;
  std::string_view port_text;
  if (!authority.empty() && authority[0] == '[') {
    auto close = authority.find(']');
    if (close == std::string_view::npos) {
      result.error = "bad host";
      return result;
    }
    host = std::string(authority.substr(1, close - 1));
    v6 = true;
    if (close + 1 < authority.size() && authority[close + 1] == ':') port_text = authority.substr(close + 2);
  } else {
    auto colon = authority.find(':');
    host = std::string(authority.substr(0, colon));
    if (colon != std::string_view::npos) port_text = authority.substr(colon + 1);
  }
  int port = 80;
  if (!port_text.empty()) {
    port = 0;
    for (char c : port_text) {
      if (c < '0' || c > '9' || port > 65535) {
        result.error = "bad port";
        return result;
      }
      port = port * 10 + (c - '0');
    }
  }
  if (host == "localhost") host = "127.0.0.1";
  int fd = socket(v6 ? AF_INET6 : AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) {
    result.error = std::string("socket: ") + std::strerror(errno);
    return result;
  }
  sockaddr_storage addr{};
  socklen_t len = 0;
  if (v6) {
    auto* a = reinterpret_cast<sockaddr_in6*>(&addr);
    a->sin6_family = AF_INET6;
    a->sin6_port = htons(static_cast<uint16_t>(port));
    inet_pton(AF_INET6, host.c_str(), &a->sin6_addr);
    len = sizeof *a;
  } else {
    auto* a = reinterpret_cast<sockaddr_in*>(&addr);
    a->sin_family = AF_INET;
    a->sin_port = htons(static_cast<uint16_t>(port));
    if (inet_pton(AF_INET, host.c_str(), &a->sin_addr) != 1) {
      close(fd);
      result.error = "bad host " + host;
      return result;
    }
    len = sizeof *a;
  }
  auto fail = [&](std::string why) {
    close(fd);
    result.status = 0;
    result.error = std::move(why);
    return result;
  };
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), len) != 0 && errno != EINPROGRESS) {
    return fail(std::string("connect: ") + std::strerror(errno));
  }
  if (!WaitFor(fd, POLLOUT, deadline, stop)) return fail("connect timed out");
  int err = 0;
  socklen_t errlen = sizeof err;
  getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &errlen);
  if (err != 0) return fail(std::string("connect: ") + std::strerror(err));
  std::string request = std::string(method) + " " + path + " HTTP/1.1\r\nHost: " + std::string(authority) +
                        "\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) +
                        "\r\nConnection: close\r\nUser-Agent: monotable-triggers\r\n\r\n";
  request.append(body);
  size_t sent = 0;
  while (sent < request.size()) {
    if (!WaitFor(fd, POLLOUT, deadline, stop)) return fail("send timed out");
    ssize_t w = send(fd, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
    if (w > 0)
      sent += static_cast<size_t>(w);
    else if (w < 0 && errno != EAGAIN && errno != EINTR)
      return fail(std::string("send: ") + std::strerror(errno));
  }
  std::string response;
  char buf[65536];
  size_t header_end = std::string::npos;
  std::optional<size_t> content_length;
  bool chunked = false;
  while (true) {
    if (header_end != std::string::npos && content_length && response.size() - header_end - 4 >= *content_length) break;
    if (!WaitFor(fd, POLLIN, deadline, stop)) return fail("response timed out");
    ssize_t r = recv(fd, buf, sizeof buf, 0);
    if (r == 0) break;
    if (r < 0) {
      if (errno == EAGAIN || errno == EINTR) continue;
      return fail(std::string("recv: ") + std::strerror(errno));
    }
    response.append(buf, static_cast<size_t>(r));
    if (response.size() > (7u << 20)) return fail("response larger than 6 MB");
    if (header_end == std::string::npos) {
      header_end = response.find("\r\n\r\n");
      if (header_end != std::string::npos) {
        std::string headers = Lower(std::string_view(response).substr(0, header_end));
        auto cl = headers.find("\r\ncontent-length:");
        if (cl != std::string::npos) content_length = std::strtoull(headers.c_str() + cl + 17, nullptr, 10);
        chunked = headers.find("\r\ntransfer-encoding: chunked") != std::string::npos;
        if (chunked) content_length.reset();
      }
    }
  }
  close(fd);
  if (header_end == std::string::npos || response.substr(0, 5) != "HTTP/") {
    result.error = "malformed HTTP response";
    return result;
  }
  auto space = response.find(' ');
  if (space == std::string::npos || space > header_end) {
    result.error = "malformed HTTP status line";
    return result;
  }
  result.status = std::atoi(response.c_str() + space + 1);
  std::string_view payload = std::string_view(response).substr(header_end + 4);
  if (chunked) {
    if (!DecodeChunked(payload, result.body)) {
      result.status = 0;
      result.error = "malformed chunked body";
    }
  } else {
    if (content_length) payload = payload.substr(0, *content_length);
    result.body = std::string(payload);
  }
  return result;
}

}  // namespace monotable::triggers

namespace monotable::triggers {

HttpResult PostJson(std::string_view url, std::string_view body, int timeout_ms, std::stop_token stop) {
  return Exchange("POST", url, body, timeout_ms, stop);
}

HttpResult GetText(std::string_view url, int timeout_ms) { return Exchange("GET", url, "", timeout_ms, {}); }

}  // namespace monotable::triggers
