#include "api/metrics.h"

#include <cstdio>

namespace monotable::api {

Metrics::Metrics(std::vector<std::string> operations) : names_(std::move(operations)) {
  names_.push_back("Other");
  slots_ = std::make_unique<Slot[]>(names_.size());
}

size_t Metrics::SlotOf(std::string_view operation) const {
  for (size_t i = 0; i + 1 < names_.size(); ++i) {
    if (names_[i] == operation) return i;
  }
  return names_.size() - 1;
}

void Metrics::Record(size_t slot, int http_status, std::chrono::nanoseconds latency) {
  Slot& s = slots_[slot];
  s.requests.fetch_add(1, std::memory_order_relaxed);
  if (http_status >= 500) s.server_errors.fetch_add(1, std::memory_order_relaxed);
  else if (http_status >= 400) s.client_errors.fetch_add(1, std::memory_order_relaxed);
  s.latency_ns_sum.fetch_add(static_cast<uint64_t>(latency.count()), std::memory_order_relaxed);
  double seconds = static_cast<double>(latency.count()) / 1e9;
  size_t b = 0;
  while (b < kBuckets.size() && seconds > kBuckets[b]) ++b;
  s.buckets[b].fetch_add(1, std::memory_order_relaxed);
}

std::string Metrics::Render() const {
  std::string out;
  char line[256];
  out += "# HELP monotable_requests_total Requests answered, by operation.\n# TYPE monotable_requests_total counter\n";
  for (size_t i = 0; i < names_.size(); ++i) {
    std::snprintf(line, sizeof line, "monotable_requests_total{operation=\"%s\"} %llu\n", names_[i].c_str(),
                  static_cast<unsigned long long>(slots_[i].requests.load(std::memory_order_relaxed)));
    out += line;
  }
  out += "# HELP monotable_errors_total Error answers, by operation and kind (client 4xx, server 5xx).\n"
         "# TYPE monotable_errors_total counter\n";
  for (size_t i = 0; i < names_.size(); ++i) {
    for (auto [kind, value] : {std::pair{"client", &slots_[i].client_errors}, std::pair{"server", &slots_[i].server_errors}}) {
      std::snprintf(line, sizeof line, "monotable_errors_total{operation=\"%s\",kind=\"%s\"} %llu\n",
                    names_[i].c_str(), kind, static_cast<unsigned long long>(value->load(std::memory_order_relaxed)));
      out += line;
    }
  }
  out += "# HELP monotable_request_duration_seconds Time to answer a request, by operation.\n"
         "# TYPE monotable_request_duration_seconds histogram\n";
  for (size_t i = 0; i < names_.size(); ++i) {
    const Slot& s = slots_[i];
    uint64_t cumulative = 0;
    for (size_t b = 0; b <= kBuckets.size(); ++b) {
      cumulative += s.buckets[b].load(std::memory_order_relaxed);
      if (b < kBuckets.size()) {
        std::snprintf(line, sizeof line, "monotable_request_duration_seconds_bucket{operation=\"%s\",le=\"%g\"} %llu\n",
                      names_[i].c_str(), kBuckets[b], static_cast<unsigned long long>(cumulative));
      } else {
        std::snprintf(line, sizeof line, "monotable_request_duration_seconds_bucket{operation=\"%s\",le=\"+Inf\"} %llu\n",
                      names_[i].c_str(), static_cast<unsigned long long>(cumulative));
      }
      out += line;
    }
    std::snprintf(line, sizeof line, "monotable_request_duration_seconds_sum{operation=\"%s\"} %.9f\n",
                  names_[i].c_str(), static_cast<double>(s.latency_ns_sum.load(std::memory_order_relaxed)) / 1e9);
    out += line;
    std::snprintf(line, sizeof line, "monotable_request_duration_seconds_count{operation=\"%s\"} %llu\n",
                  names_[i].c_str(), static_cast<unsigned long long>(cumulative));
    out += line;
  }
  return out;
}

}  // namespace monotable::api
