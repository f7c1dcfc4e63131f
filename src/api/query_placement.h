// QueryPlacement: whether a connection's next Query runs on its I/O thread or goes to a worker.
//
// Contract: Inline() is false until Record() is first called, then true exactly when the last
// recorded Query took less than kInlineLimit (wall time of the operation's own work). One thread
// only (the connection's I/O thread).
//
// Why (bench/RESULTS.md, session 10): handing a request to a worker and its answer back costs two
// thread wake-ups and ~4 us of CPU, more than a Query of 10 items takes, and on a machine with few
// cores the extra threads waiting for a CPU make the tail: Query(10) at 32 connections had a p99
// of 1.1-3.7 ms on workers and 0.7-1.3 ms on the I/O thread, with 14-20 % less CPU a request; its
// rate is 6-9 % lower on a fresh table and 14-17 % lower once the queries read table files (the I/O
// thread, which shares the machine with the load generator, becomes the limit).
// Large queries stay on the workers, so a Query that reads hundreds of items does not hold up the
// other connections of its I/O thread, and several of them use several cores. A connection's
// queries tend to repeat their shape (one access pattern), so its last Query predicts the next;
// a misjudged one runs once in the wrong place.
#pragma once

#include <chrono>

namespace monotable::api {

class QueryPlacement {
 public:
  static constexpr std::chrono::microseconds kInlineLimit{40};

  bool Inline() const { return inline_; }
  void Record(std::chrono::steady_clock::duration took) { inline_ = took < kInlineLimit; }

 private:
  bool inline_ = false;
};

}  // namespace monotable::api
