// Lease: which one of the servers sharing a store runs a singleton background job (the TTL
// passes), kept in the store so any server can take over when the holder stops.
//
// Contract:
// - A lease is a record in the system partition (key space 0, partition id "", sort key "L" +
//   name): the holder's id (random per Lease object, i.e. per server process) and the time its
//   hold ends (epoch ms, by the holder's clock: servers' clocks must agree well within the
//   duration).
// - TryHold() answers true when this server holds the lease after the call: it takes a lease that
//   is free or has run out, and renews its own, each by one commit guarded on the record it read
//   (two servers never both win). false while another server's hold lasts, or when the store
//   refuses (an error is answered as is).
// - A holder that stops is replaced at most `duration_ms` after its last renewal; a holder that
//   stalls longer than that may briefly run alongside its successor, so the job must tolerate it
//   (TTL deletions are guarded: a duplicate pass deletes nothing twice).
// - Thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "common/status.h"
#include "engine/engine.h"

namespace monotable::table {

class Lease {
 public:
  using Clock = std::function<int64_t()>;  // epoch milliseconds
  Lease(engine::PartitionStore& store, std::string name, int64_t duration_ms, Clock clock);

  Result<bool> TryHold();
  const std::string& holder() const { return holder_; }

 private:
  engine::PartitionStore& store_;
  std::string key_;
  std::string holder_;
  int64_t duration_ms_;
  Clock clock_;
};

}  // namespace monotable::table
