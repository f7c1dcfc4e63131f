// A storage write stall (engine::Engine::WritesStalled) does not freeze an I/O thread: with one
// I/O thread and no workers, a PutItem held back by the engine leaves the thread free, and a
// GetItem on another connection (another table) is answered meanwhile; the PutItem is answered
// once the engine lets writes through.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "api/http_server.h"
#include "api/service.h"
#include "table/database.h"

namespace monotable::api {
namespace {

// The memory engine, with a switch that stalls writes: while on, WritesStalled() is true and
// every Commit waits until it is turned off (as RocksDB holds writes back).
class StallingEngine : public engine::Engine {
 public:
  explicit StallingEngine(std::unique_ptr<engine::Engine> inner) : inner_(std::move(inner)) {}
  void SetStalled(bool on) {
    {
      std::lock_guard lock(mu_);
      stalled_ = on;
    }
    cv_.notify_all();
  }
  std::shared_ptr<const engine::Snapshot> GetSnapshot() override { return inner_->GetSnapshot(); }
  Result<std::optional<std::string>> Get(std::string_view key, const engine::Snapshot* snapshot) override {
    return inner_->Get(key, snapshot);
  }
  Result<std::optional<std::string>> GetForWrite(std::string_view key) override { return inner_->GetForWrite(key); }
  std::unique_ptr<engine::Iterator> NewIterator(std::string lower, std::string upper,
                                                std::shared_ptr<const engine::Snapshot> snapshot) override {
    return inner_->NewIterator(std::move(lower), std::move(upper), std::move(snapshot));
  }
  Status Commit(const engine::WriteBatch& batch) override {
    std::unique_lock lock(mu_);
    cv_.wait(lock, [&] { return !stalled_; });
    lock.unlock();
    return inner_->Commit(batch);
  }
  uint64_t ReadToken(std::string_view key) override { return inner_->ReadToken(key); }
  Status DeleteRange(std::string_view lower, std::string_view upper) override {
    return inner_->DeleteRange(lower, upper);
  }
  uint64_t ApproximateSize(std::string_view lower, std::string_view upper) override {
    return inner_->ApproximateSize(lower, upper);
  }
  std::string Name() const override { return "stalling"; }
  bool WritesStalled() const override {
    std::lock_guard lock(mu_);
    return stalled_;
  }

 private:
  std::unique_ptr<engine::Engine> inner_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool stalled_ = false;
};

// One keep-alive connection with a receive timeout.
class Connection {
 public:
  explicit Connection(uint16_t port) : fd_(socket(AF_INET, SOCK_STREAM, 0)) {
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    EXPECT_EQ(connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    timeval timeout{5, 0};
    setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  }
  ~Connection() { close(fd_); }
  void Send(const std::string& op, const std::string& body) {
    std::string request = "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-amz-json-1.0\r\n"
                          "X-Amz-Target: DynamoDB_20120810." + op + "\r\nContent-Length: " +
                          std::to_string(body.size()) + "\r\n\r\n" + body;
    ASSERT_EQ(send(fd_, request.data(), request.size(), 0), static_cast<ssize_t>(request.size()));
  }
  // The whole answer (head and body), or "" when none came within the timeout.
  std::string Receive() {
    std::string got;
    char buf[4096];
    while (true) {
      size_t head_end = got.find("\r\n\r\n");
      if (head_end != std::string::npos) {
        size_t at = got.find("Content-Length: ");
        if (at != std::string::npos && got.size() >= head_end + 4 + std::stoul(got.substr(at + 16))) return got;
      }
      ssize_t n = recv(fd_, buf, sizeof buf, 0);
      if (n <= 0) return "";
      got.append(buf, static_cast<size_t>(n));
    }
  }

 private:
  int fd_;
};

TableDescription PkTable(const std::string& name) {
  TableDescription t;
  t.name = name;
  t.attribute_definitions = {{"pk", AttrType::kS}};
  t.key_schema = {{"pk", KeyRole::kHash}};
  t.billing_mode = BillingMode::kPayPerRequest;
  return t;
}

TEST(WriteStallTest, ReadsOnOtherConnectionsAreAnsweredWhileAWriteWaits) {
  auto owned = std::make_unique<StallingEngine>(engine::NewMemoryEngine());
  StallingEngine& engine = *owned;
  table::Database db(std::move(owned));
  ASSERT_TRUE(db.catalog().Load().ok());
  ASSERT_TRUE(db.catalog().Create(PkTable("writes")).ok());
  ASSERT_TRUE(db.catalog().Create(PkTable("reads")).ok());
  Service service(db, ServerIdentity{});
  ServerOptions options;
  options.port = 0;
  options.threads = 1;  // one I/O thread serves both connections
  options.workers = 0;  // and every request
  HttpServer server(service, options);
  ASSERT_TRUE(server.Listen().ok());
  std::thread run([&] { server.Run(); });
  {
    Connection reader(server.port());
    reader.Send("PutItem", R"({"TableName":"reads","Item":{"pk":{"S":"k"},"v":{"S":"there"}}})");
    ASSERT_NE(reader.Receive().find("HTTP/1.1 200"), std::string::npos);

    engine.SetStalled(true);
    Connection writer(server.port());
    writer.Send("PutItem", R"({"TableName":"writes","Item":{"pk":{"S":"w"}}})");
    std::this_thread::sleep_for(std::chrono::milliseconds(100));  // the write is waiting now
    reader.Send("GetItem", R"({"TableName":"reads","Key":{"pk":{"S":"k"}}})");
    std::string answer = reader.Receive();
    EXPECT_NE(answer.find("HTTP/1.1 200"), std::string::npos) << "no answer while a write was stalled";
    EXPECT_NE(answer.find(R"("v":{"S":"there"})"), std::string::npos) << answer;

    engine.SetStalled(false);
    EXPECT_NE(writer.Receive().find("HTTP/1.1 200"), std::string::npos);
    reader.Send("GetItem", R"({"TableName":"writes","Key":{"pk":{"S":"w"}}})");
    EXPECT_NE(reader.Receive().find(R"("pk":{"S":"w"})"), std::string::npos);
  }
  engine.SetStalled(false);
  server.Stop();
  run.join();
}

}  // namespace
}  // namespace monotable::api
