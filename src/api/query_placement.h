// QueryPlacement: whether a connection's next Query runs on its I/O thread or goes to a worker.
//
// Contract: Inline() is false until Record() is first called, then true exactly when the last
// recorded Query read at most kInlineItems items and kInlineBytes bytes (api/read_work.h: what
// the Query read, whatever its filter kept). One thread only (the connection's I/O thread).
//
// Why (bench/RESULTS.md, session 10): handing a request to a worker and its answer back costs two
// thread wake-ups and ~4 us of CPU, more than a Query of 10 items takes, and on a machine with few
// cores the extra threads waiting for a CPU make the tail: Query(10) at 32 connections had a p99
// of 1.1-3.7 ms on workers and 0.7-1.3 ms on the I/O thread, with 14-20 % less CPU a request; its
// rate was 6-9 % lower on a fresh table and 14-17 % lower once the queries read table files (the
// I/O thread, which shares the machine with the load generator, becomes the limit).
// Large queries stay on the workers, so a Query that reads hundreds of items does not hold up the
// other connections of its I/O thread, and several of them use several cores. A connection's
// queries tend to repeat their shape (one access pattern), so its last Query predicts the next;
// a misjudged one runs once in the wrong place.
//
// The size is what was read, not how long it took (session 16): a Query's wall time includes
// any wait of its thread for a CPU, and a worker shares the cores with the I/O thread and the
// clients, so a connection whose small Query once waited went to a worker and, timed there
// with the worker's waits, rarely came back.
#pragma once

#include <cstdint>

#include "api/read_work.h"

namespace monotable::api {

class QueryPlacement {
 public:
  // Server CPU at 32 connections (session 16): 30-36 us a Query of 10 items of ~150 B, 120-150
  // us one of 100 with a filter: about 1 us an item, so 32 such items take about the 40 us past
  // which session 10 found a worker pays off. The byte limit stands for larger items.
  static constexpr uint64_t kInlineItems = 32;
  static constexpr uint64_t kInlineBytes = 32 * 1024;

  bool Inline() const { return inline_; }
  void Record(const ReadWork& work) { inline_ = work.items <= kInlineItems && work.bytes <= kInlineBytes; }

 private:
  bool inline_ = false;
};

}  // namespace monotable::api
