// Dispatcher::Work: one trigger's delivery loop (see dispatcher.h for the semantics).
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>

#include "streams/stream_reader.h"
#include "triggers/dispatcher.h"
#include "triggers/event_builder.h"
#include "triggers/failure_destination.h"
#include "triggers/invoker.h"

namespace monotable::triggers {
namespace {

struct Pending {
  uint64_t seq = 0;
  int64_t created_ms = 0;
  std::string json;
};

struct SubBatch {
  std::vector<Pending> records;
  uint64_t end = 0;  // the checkpoint once this sub-batch is acknowledged
  int attempts = 0;  // failed invocations counted against MaximumRetryAttempts
};

// Sleeps up to `ms`; false when a stop was requested.
bool Sleep(std::stop_token stop, int64_t ms) {
  std::mutex m;
  std::condition_variable_any cv;
  std::unique_lock lock(m);
  cv.wait_for(lock, stop, std::chrono::milliseconds(ms), [] { return false; });
  return !stop.stop_requested();
}

bool Passes(const TriggerConfig& config, const std::string& json) {
  if (config.filters.empty()) return true;
  rapidjson::Document doc;
  doc.Parse(json.data(), json.size());
  for (const auto& f : config.filters) {
    if (f->Matches(doc)) return true;
  }
  return false;
}

std::vector<std::string> HandlerEnvironment(const TriggerConfig& config, const DispatcherOptions& options) {
  std::vector<std::string> env = {"AWS_LAMBDA_FUNCTION_NAME=" + config.name, "AWS_REGION=" + options.region,
                                  "AWS_DEFAULT_REGION=" + options.region, "MONOTABLE_TRIGGER=" + config.name};
  if (!options.endpoint.empty()) {
    env.push_back("MONOTABLE_ENDPOINT=" + options.endpoint);
    if (!std::getenv("AWS_ENDPOINT_URL_DYNAMODB")) env.push_back("AWS_ENDPOINT_URL_DYNAMODB=" + options.endpoint);
    if (!std::getenv("AWS_ENDPOINT_URL_DYNAMODB_STREAMS")) {
      env.push_back("AWS_ENDPOINT_URL_DYNAMODB_STREAMS=" + options.endpoint);
    }
  }
  if (!std::getenv("AWS_ACCESS_KEY_ID")) {
    env.push_back("AWS_ACCESS_KEY_ID=monotable");
    env.push_back("AWS_SECRET_ACCESS_KEY=monotable");
  }
  return env;
}

}  // namespace

void Dispatcher::Work(const TriggerConfig& config, TriggerStats& stats, std::stop_token stop) {
  table::StreamCatalog& streams = db_.streams();
  const int64_t started_ms = streams.NowMs();
  bool first_start = true;
  size_t open_turn = 0;  // which open shard the next round reads
  for (const auto& [key, next] : checkpoints_.All()) {
    if (key.compare(0, config.name.size() + 1, config.name + "/") == 0) first_start = false;
  }
  const std::vector<std::string> env = HandlerEnvironment(config, options_);
  const std::string function_arn =
      "arn:aws:lambda:" + options_.region + ":" + options_.account + ":function:" + config.name;
  auto log_error = [&](const std::string& what) {
    std::fprintf(stderr, "monotable: trigger %s: %s\n", config.name.c_str(), what.c_str());
    std::fflush(stderr);
  };
  auto save = [&](const std::string& shard, uint64_t next) {
    if (Status st = checkpoints_.Save(config.name, shard, next); !st.ok()) log_error("checkpoint: " + st.message());
    stats.checkpoint.store(next);
  };

  while (!stop.stop_requested()) {
    // The oldest closed shard of the table not read to its end; else the open stream's shards
    // in turn (one on the embedded engines, several on logged stores).
    std::shared_ptr<table::StreamLog> log;
    uint32_t shard_index = 0;
    uint64_t pos = 0;
    std::string shard;
    bool any = false;
    struct OpenShard {
      std::shared_ptr<table::StreamLog> log;
      uint32_t index;
      std::string id;
      uint64_t pos;
    };
    std::vector<OpenShard> open;
    for (const auto& l : streams.List()) {
      table::StreamInfo info = l->info();
      if (info.table_name != config.table) continue;
      any = true;
      bool closed = info.disabled_ms != 0;
      for (uint32_t s = 0; s < l->shard_count() && !log; ++s) {
        std::string id = streams::ShardId(info, s);
        auto last = streams.Last(*l, s);
        if (!last.ok()) {
          log_error("reading the stream: " + last.status().message());
          continue;
        }
        uint64_t p;
        if (auto cp = checkpoints_.Load(config.name, id)) {
          p = *cp;
        } else if (first_start && config.starting_position == StartingPosition::kLatest &&
                   info.created_ms <= started_ms) {
          p = *last + 1;
          save(id, p);
        } else {
          auto horizon = streams.Horizon(*l, s);
          p = horizon.ok() ? *horizon : table::ShardFirstSequence(info.start, s);
        }
        if (closed && p > *last) continue;
        if (!closed) {
          open.push_back({l, s, id, p});
          continue;
        }
        log = l;
        shard_index = s;
        pos = p;
        shard = id;
      }
      if (log) break;
    }
    if (!log && !open.empty()) {
      OpenShard& next = open[open_turn++ % open.size()];
      log = next.log;
      shard_index = next.index;
      pos = next.pos;
      shard = next.id;
    }
    if (!log) {
      stats.SetState(any ? "idle" : "waiting-for-stream");
      stats.SetShard(nullptr, 0);
      stats.oldest_unacked_ms.store(0);
      if (!Sleep(stop, options_.poll_ms)) return;
      continue;
    }
    stats.checkpoint.store(pos);
    stats.SetShard(log, shard_index);
    const table::StreamInfo info = log->info();
    const std::string arn = StreamArn(options_.region, options_.account, info);
    if (auto horizon = streams.Horizon(*log, shard_index); horizon.ok() && pos < *horizon) {
      log_error("records before " + streams::FormatSequenceNumber(*horizon) + " were trimmed before delivery");
      pos = *horizon;
      save(shard, pos);
    }

    // Gather one batch.
    std::vector<Pending> batch;
    uint64_t scan = pos;
    std::optional<std::chrono::steady_clock::time_point> window_end;
    bool read_failed = false;
    while (!stop.stop_requested()) {
      size_t want = static_cast<size_t>(config.batch_size) - batch.size();
      auto page = streams.Read(*log, scan, want, 5u << 20);
      if (!page.ok()) {
        log_error("reading the stream: " + page.status().message());
        read_failed = true;
        break;
      }
      for (const auto& change : page.value().changes) {
        std::string json = RecordJson(info, arn, options_.region, change);
        if (!Passes(config, json)) {
          stats.records_filtered.fetch_add(1);
          continue;
        }
        batch.push_back({change.seq, change.record.created_ms, std::move(json)});
      }
      bool progressed = page.value().next != scan;
      scan = page.value().next;
      if (batch.size() >= static_cast<size_t>(config.batch_size) || page.value().shard_end) break;
      if (batch.empty()) {
        if (!progressed) break;
        continue;
      }
      if (config.batching_window_s == 0) {
        if (page.value().changes.size() < want) break;  // caught up with the stream
        continue;                                       // filtered records made room: read on
      }
      auto now = std::chrono::steady_clock::now();
      if (!window_end) window_end = now + std::chrono::seconds(config.batching_window_s);
      if (now >= *window_end) break;
      if (!progressed) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(*window_end - now).count();
        if (!Sleep(stop, std::min<int64_t>(left, options_.poll_ms))) return;
      }
    }
    if (stop.stop_requested()) return;
    stats.oldest_unacked_ms.store(batch.empty() ? 0 : batch.front().created_ms);
    if (batch.empty()) {
      if (scan != pos) save(shard, scan);  // only filtered-out records: acknowledged unseen
      stats.SetState(read_failed ? "error" : "idle");
      if (scan == pos && !Sleep(stop, options_.poll_ms)) return;
      continue;
    }

    // Deliver it: sub-batches in order, one in flight.
    std::deque<SubBatch> queue;
    queue.push_back({std::move(batch), scan, 0});
    int last_status = 200;
    while (!queue.empty() && !stop.stop_requested()) {
      SubBatch& b = queue.front();
      stats.oldest_unacked_ms.store(b.records.front().created_ms);
      auto give_up = [&](size_t count, const char* condition, uint64_t next, const std::string& event) {
        FailureInfo f;
        f.trigger = config.name;
        f.function_arn = function_arn;
        f.condition = condition;
        f.invoke_count = b.attempts;
        f.status_code = last_status;
        f.function_error = b.attempts > 0 ? "Unhandled" : "";
        f.shard_id = shard;
        f.stream_arn = arn;
        f.first_seq = b.records.front().seq;
        f.last_seq = b.records[count - 1].seq;
        f.first_created_ms = b.records.front().created_ms;
        f.last_created_ms = b.records[count - 1].created_ms;
        f.batch_size = count;
        f.payload = event;
        f.now_ms = streams.NowMs();
        int64_t backoff = options_.backoff_initial_ms;
        while (true) {
          Status st = SendToDestination(db_, config.on_failure, f);
          if (st.ok()) break;
          stats.SetState("destination-error", st.message());
          log_error("on-failure destination: " + st.message());
          if (!Sleep(stop, backoff)) return false;
          backoff = std::min<int64_t>(backoff * 2, options_.backoff_max_ms);
        }
        log_error(std::string(condition) + ": " + std::to_string(count) + " record(s) from " +
                  streams::FormatSequenceNumber(f.first_seq) + " given up");
        stats.records_failed.fetch_add(count);
        save(shard, next);
        b.records.erase(b.records.begin(), b.records.begin() + static_cast<ptrdiff_t>(count));
        return true;
      };
      auto event_of = [](const std::vector<Pending>& records, size_t count) {
        std::vector<const std::string*> parts;
        for (size_t i = 0; i < count; ++i) parts.push_back(&records[i].json);
        return EventJson(parts);
      };
      if (config.max_record_age_s >= 0) {
        int64_t now = streams.NowMs();
        size_t expired = 0;
        while (expired < b.records.size() && now - b.records[expired].created_ms > config.max_record_age_s * 1000LL) {
          ++expired;
        }
        if (expired > 0) {
          uint64_t next = expired == b.records.size() ? b.end : b.records[expired].seq;
          if (!give_up(expired, "RecordAgeExceeded", next, event_of(b.records, expired))) return;
          if (b.records.empty()) queue.pop_front();
          continue;
        }
      }
      std::string event = event_of(b.records, b.records.size());
      std::vector<uint64_t> seqs;
      for (const auto& r : b.records) seqs.push_back(r.seq);
      stats.SetState(b.attempts > 0 ? "retrying" : "delivering");
      stats.invocations.fetch_add(1);
      Outcome outcome = Invoke(config, event, seqs, env, stop);
      last_status = outcome.status_code;
      if (stop.stop_requested()) return;  // not acknowledged: delivered again after the restart
      if (outcome.ok) {
        stats.batches_delivered.fetch_add(1);
        stats.records_delivered.fetch_add(b.records.size());
        save(shard, b.end);
        queue.pop_front();
        continue;
      }
      stats.invocation_errors.fetch_add(1);
      stats.SetState("retrying", outcome.error);
      log_error("invocation failed: " + outcome.error);
      if (outcome.first_failed) {
        size_t acked = 0;
        while (acked < b.records.size() && b.records[acked].seq < *outcome.first_failed) ++acked;
        if (acked > 0) {
          stats.records_delivered.fetch_add(acked);
          save(shard, *outcome.first_failed);
          b.records.erase(b.records.begin(), b.records.begin() + static_cast<ptrdiff_t>(acked));
        }
      }
      // A failed invocation is split in two; a partial batch response is already split at the
      // reported record (Lambda: "bisected at the returned sequence number").
      if (config.bisect_on_error && b.records.size() > 1 && !outcome.first_failed) {
        size_t half = b.records.size() / 2;
        SubBatch left{{}, b.records[half].seq, b.attempts};
        SubBatch right{{}, b.end, b.attempts};
        left.records.assign(std::make_move_iterator(b.records.begin()),
                            std::make_move_iterator(b.records.begin() + static_cast<ptrdiff_t>(half)));
        right.records.assign(std::make_move_iterator(b.records.begin() + static_cast<ptrdiff_t>(half)),
                             std::make_move_iterator(b.records.end()));
        queue.pop_front();
        queue.push_front(std::move(right));
        queue.push_front(std::move(left));
        stats.batches_bisected.fetch_add(1);
        continue;
      }
      b.attempts++;
      if (config.max_retry_attempts >= 0 && b.attempts > config.max_retry_attempts) {
        if (!give_up(b.records.size(), "RetryAttemptsExhausted", b.end, event_of(b.records, b.records.size()))) {
          return;
        }
        queue.pop_front();
        continue;
      }
      int64_t backoff = options_.backoff_initial_ms;
      for (int i = 1; i < b.attempts && backoff < options_.backoff_max_ms; ++i) backoff *= 2;
      if (!Sleep(stop, std::min<int64_t>(backoff, options_.backoff_max_ms))) return;
    }
  }
}

}  // namespace monotable::triggers
