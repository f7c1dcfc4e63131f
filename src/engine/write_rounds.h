// Write rounds: one write-out of the commit log for all the commits a thread made in a round.
//
// A thread that answers requests in rounds (an HTTP server I/O thread handles every request that
// was ready, then sends their answers together) calls DeferLogWrites() once. From then on, a
// commit made on that thread returns as soon as it is applied and visible, before its log record
// is handed to the operating system, and WriteOutDeferredLogs() hands over every such record (one
// write for the whole round). The thread must not acknowledge those commits before
// WriteOutDeferredLogs() returns OK: then a crash of the process loses nothing acknowledged, as
// when each commit writes its own record. On every other thread a commit hands its record over
// before returning. Engines without a log (the memory engine) and durable commits
// (EngineOptions::sync, synced one by one) ignore rounds.
//
// Reads see a commit once it is applied: a request on another thread may read a commit of an
// open round and answer before the round's write-out; a crash of the process in between loses
// that commit, which nobody was told had happened.
#pragma once

#include "common/status.h"

namespace monotable::engine {

// An engine whose commits can leave their log records buffered for a round.
class DeferredLog {
 public:
  virtual ~DeferredLog() = default;
  virtual Status WriteOutLog() = 0;  // hands every buffered record to the operating system
};

// Makes the calling thread a round thread (see above). There is no way back.
void DeferLogWrites();

// For engines, after a commit whose record `log` buffered: true when the calling thread is a
// round thread, which will write `log` out; false when the engine must write it out now.
bool DeferToRound(DeferredLog& log);

// Writes out every log the calling thread's commits left buffered since the last call.
Status WriteOutDeferredLogs();

}  // namespace monotable::engine
