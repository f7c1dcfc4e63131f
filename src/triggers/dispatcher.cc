#include "triggers/dispatcher.h"

#include <algorithm>
#include <cstdio>

#include "streams/stream_reader.h"

namespace monotable::triggers {

Dispatcher::Dispatcher(table::Database& db, CheckpointStore& checkpoints, DispatcherOptions options)
    : db_(db), checkpoints_(checkpoints), options_(std::move(options)) {}

Dispatcher::~Dispatcher() {
  std::map<std::string, std::unique_ptr<Running>> running;
  {
    std::lock_guard lock(mu_);
    for (auto& [name, r] : running_) r->thread.request_stop();
    running.swap(running_);
  }
  running.clear();  // joins
}

void Dispatcher::Apply(std::vector<TriggerConfig> configs) {
  std::lock_guard apply_lock(apply_mu_);
  std::unique_lock lock(mu_);
  std::map<std::string, TriggerConfig> wanted;
  for (auto& c : configs) wanted.emplace(c.name, std::move(c));
  // Stop the removed and the changed ones first (all at once, then join).
  std::vector<std::unique_ptr<Running>> stopping;
  for (auto it = running_.begin(); it != running_.end();) {
    auto w = wanted.find(it->first);
    if (w == wanted.end() || !(w->second == it->second->config)) {
      it->second->thread.request_stop();
      stopping.push_back(std::move(it->second));
      it = running_.erase(it);
    } else {
      ++it;
    }
  }
  // Joined without holding mu_: /metrics (Stats) must not wait for a handler to notice the stop.
  lock.unlock();
  for (auto& r : stopping) {
    r->stats->SetState("stopped");
    if (r->thread.joinable()) r->thread.join();
  }
  stopping.clear();
  lock.lock();
  for (auto& [name, config] : wanted) {
    if (running_.count(name)) continue;
    auto& stats = stats_[name];
    if (!stats) stats = std::make_shared<TriggerStats>();
    stats->name = name;
    stats->table = config.table;
    stats->SetState("starting");
    auto r = std::make_unique<Running>();
    r->config = config;
    r->stats = stats;
    Running* raw = r.get();
    r->thread = std::jthread([this, raw](std::stop_token stop) { Work(raw->config, *raw->stats, stop); });
    running_.emplace(name, std::move(r));
  }
  // Triggers no longer configured drop out of /metrics.
  for (auto it = stats_.begin(); it != stats_.end();) {
    it = running_.count(it->first) ? std::next(it) : stats_.erase(it);
  }
}

std::vector<std::shared_ptr<TriggerStats>> Dispatcher::Stats() const {
  std::lock_guard lock(mu_);
  std::vector<std::shared_ptr<TriggerStats>> out;
  for (const auto& [name, s] : stats_) out.push_back(s);
  return out;
}

std::vector<TriggerStatus> Dispatcher::Snapshot(const std::function<bool(const std::string& table)>& visible) const {
  std::vector<TriggerStatus> out;
  {
    std::lock_guard lock(mu_);
    for (const auto& [name, r] : running_) {
      if (visible && !visible(r->config.table)) continue;
      out.push_back({r->config, r->stats, {}});
    }
  }
  const auto logs = db_.streams().List();
  for (auto& t : out) {
    std::shared_ptr<table::StreamLog> current = t.stats->Shard();
    const uint32_t current_shard = t.stats->shard_index();
    for (const auto& log : logs) {
      table::StreamInfo info = log->info();
      if (info.table_name != t.config.table) continue;
      for (uint32_t shard = 0; shard < log->shard_count(); ++shard) {
        ShardStatus s;
        s.shard_id = streams::ShardId(info, shard);
        s.closed = info.disabled_ms != 0;
        s.current = log == current && shard == current_shard;
        const uint64_t first = table::ShardFirstSequence(info.start, shard);
        uint64_t last = log->LastSeen(shard);
        if (last >= first) s.last = last;
        // The worker's position in the shard it reads; otherwise the saved checkpoint, or where a
        // shard not started yet begins (its oldest untrimmed record).
        s.next = s.current ? std::optional<uint64_t>(t.stats->checkpoint.load())
                           : checkpoints_.Load(t.config.name, s.shard_id);
        uint64_t pos = s.next.value_or(log->numbered_in_store() ? first : std::max(first, log->horizon()));
        s.lag = s.last && *s.last >= pos ? static_cast<int64_t>(*s.last - pos + 1) : 0;
        t.shards.push_back(std::move(s));
      }
    }
  }
  return out;
}

std::string Dispatcher::StatusJson(const std::function<bool(const std::string& table)>& visible) const {
  return TriggersStatusJson(Snapshot(visible), db_.streams().NowMs());
}

std::string Dispatcher::RenderMetrics() const { return RenderTriggerMetrics(Stats(), db_.streams().NowMs()); }

}  // namespace monotable::triggers
