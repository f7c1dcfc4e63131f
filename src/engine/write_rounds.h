// Write rounds, the engines' side of the log rounds of engine.h (DeferLogWrites,
// WriteOutDeferredLogs): how an engine leaves a commit's log record to the calling thread's round.
//
// Contract: after a commit whose record an engine buffered, the engine calls DeferToRound(log):
// true when the calling thread is a round thread, which will call log.WriteOutLog() at its next
// WriteOutDeferredLogs(); false when the engine must write the record out before returning.
#pragma once

#include "common/status.h"
#include "engine/engine.h"

namespace monotable::engine {

// An engine whose commits can leave their log records buffered for a round.
class DeferredLog {
 public:
  virtual ~DeferredLog() = default;
  virtual Status WriteOutLog() = 0;  // hands every buffered record to the operating system
};

// For engines, after a commit whose record `log` buffered: true when the calling thread is a
// round thread, which will write `log` out; false when the engine must write it out now.
bool DeferToRound(DeferredLog& log);

}  // namespace monotable::engine
