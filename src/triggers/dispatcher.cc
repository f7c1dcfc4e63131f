#include "triggers/dispatcher.h"

#include <cstdio>

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

std::string Dispatcher::RenderMetrics() const { return RenderTriggerMetrics(Stats(), db_.streams().NowMs()); }

}  // namespace monotable::triggers
