#include "engine/write_rounds.h"

#include <algorithm>
#include <vector>

namespace monotable::engine {
namespace {

struct RoundState {
  bool deferring = false;
  std::vector<DeferredLog*> pending;  // usually none or one: a server has one engine
};

thread_local RoundState t_round;

}  // namespace

void DeferLogWrites() { t_round.deferring = true; }

bool DeferToRound(DeferredLog& log) {
  if (!t_round.deferring) return false;
  if (std::find(t_round.pending.begin(), t_round.pending.end(), &log) == t_round.pending.end()) {
    t_round.pending.push_back(&log);
  }
  return true;
}

Status WriteOutDeferredLogs() {
  Status result = Status::Ok();
  for (DeferredLog* log : t_round.pending) {
    Status s = log->WriteOutLog();
    if (!s.ok() && result.ok()) result = s;
  }
  t_round.pending.clear();
  return result;
}

}  // namespace monotable::engine
