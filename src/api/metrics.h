// Metrics: request counts, errors and latency histograms per operation, in Prometheus text
// format (GET /metrics). Recording is lock-free (relaxed atomics in fixed per-operation slots).
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace monotable::api {

class Metrics {
 public:
  static constexpr std::array<double, 12> kBuckets = {0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005,
                                                      0.01,   0.025,   0.05,   0.1,   0.5,    1.0};

  // `operations` fixes the slot of each operation name (the dispatch table's order).
  explicit Metrics(std::vector<std::string> operations);

  size_t SlotOf(std::string_view operation) const;  // unknown names share the last slot
  void Record(size_t slot, int http_status, std::chrono::nanoseconds latency);
  std::string Render() const;

 private:
  struct Slot {
    std::atomic<uint64_t> requests{0};
    std::atomic<uint64_t> client_errors{0};
    std::atomic<uint64_t> server_errors{0};
    std::atomic<uint64_t> latency_ns_sum{0};
    std::array<std::atomic<uint64_t>, kBuckets.size() + 1> buckets{};
  };
  std::vector<std::string> names_;
  std::unique_ptr<Slot[]> slots_;
};

}  // namespace monotable::api
