#include "triggers/metrics.h"

namespace monotable::triggers {
namespace {

std::string Escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '\\' || c == '"') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

}  // namespace

void TriggerStats::SetState(std::string state, std::string error) {
  std::lock_guard lock(mu_);
  state_ = std::move(state);
  if (!error.empty()) last_error_ = std::move(error);
}

void TriggerStats::SetShard(const std::shared_ptr<table::StreamLog>& log, uint32_t shard) {
  std::lock_guard lock(mu_);
  shard_ = log;
  shard_index_ = shard;
}

uint32_t TriggerStats::shard_index() const {
  std::lock_guard lock(mu_);
  return shard_index_;
}

std::shared_ptr<table::StreamLog> TriggerStats::Shard() const {
  std::lock_guard lock(mu_);
  return shard_.lock();
}

int64_t TriggerStats::LagRecords() const {
  std::shared_ptr<table::StreamLog> log;
  uint32_t shard = 0;
  {
    std::lock_guard lock(mu_);
    log = shard_.lock();
    shard = shard_index_;
  }
  if (!log) return 0;
  uint64_t last = log->LastSeen(shard);
  uint64_t pos = checkpoint.load();
  return last >= pos ? static_cast<int64_t>(last - pos + 1) : 0;
}

std::string TriggerStats::state() const {
  std::lock_guard lock(mu_);
  return state_;
}

std::string TriggerStats::last_error() const {
  std::lock_guard lock(mu_);
  return last_error_;
}

std::string RenderTriggerMetrics(const std::vector<std::shared_ptr<TriggerStats>>& stats, int64_t now_ms) {
  if (stats.empty()) return "";
  std::string out;
  auto labels = [](const TriggerStats& s) {
    return "trigger=\"" + Escape(s.name) + "\",table=\"" + Escape(s.table) + "\"";
  };
  auto family = [&](const char* name, const char* type, const char* help, auto value) {
    out += std::string("# HELP ") + name + " " + help + "\n# TYPE " + name + " " + type + "\n";
    for (const auto& s : stats) out += std::string(name) + "{" + labels(*s) + "} " + value(*s) + "\n";
  };
  out +=
      "# HELP monotable_trigger_state Stream trigger state (1 for the current one).\n"
      "# TYPE monotable_trigger_state gauge\n";
  for (const auto& s : stats) {
    out += "monotable_trigger_state{" + labels(*s) + ",state=\"" + Escape(s->state()) + "\"} 1\n";
  }
  family("monotable_trigger_invocations_total", "counter", "Handler invocations.",
         [](const TriggerStats& s) { return std::to_string(s.invocations.load()); });
  family("monotable_trigger_invocation_errors_total", "counter",
         "Handler invocations that failed (error exit, timeout, non-2xx, invalid response, partial failure).",
         [](const TriggerStats& s) { return std::to_string(s.invocation_errors.load()); });
  family("monotable_trigger_batches_delivered_total", "counter", "Invocations that acknowledged their whole batch.",
         [](const TriggerStats& s) { return std::to_string(s.batches_delivered.load()); });
  family("monotable_trigger_records_delivered_total", "counter", "Records the handler acknowledged.",
         [](const TriggerStats& s) { return std::to_string(s.records_delivered.load()); });
  family("monotable_trigger_records_filtered_total", "counter", "Records no filter matched (not delivered).",
         [](const TriggerStats& s) { return std::to_string(s.records_filtered.load()); });
  family("monotable_trigger_records_failed_total", "counter",
         "Records given up on (retries or age exhausted) and sent to the on-failure destination.",
         [](const TriggerStats& s) { return std::to_string(s.records_failed.load()); });
  family("monotable_trigger_batches_bisected_total", "counter", "Failed batches split in two.",
         [](const TriggerStats& s) { return std::to_string(s.batches_bisected.load()); });
  family("monotable_trigger_lag_records", "gauge", "Stream records past the trigger's checkpoint.",
         [](const TriggerStats& s) { return std::to_string(s.LagRecords()); });
  family("monotable_trigger_oldest_unacknowledged_age_seconds", "gauge",
         "Age of the oldest record not yet acknowledged (0: none).", [&](const TriggerStats& s) {
           int64_t t = s.oldest_unacked_ms.load();
           return std::to_string(t == 0 ? 0.0 : std::max<int64_t>(0, now_ms - t) / 1000.0);
         });
  return out;
}

}  // namespace monotable::triggers
