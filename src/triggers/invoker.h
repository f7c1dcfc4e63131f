// One invocation of a trigger's handler with one event, and the reading of its answer as Lambda
// reads a stream function's response.
//
// Contract:
// - A command succeeds when it exits 0 within the timeout; a URL when it answers 2xx. Anything
//   else (non-zero exit, a signal, timeout, cannot start, connection refused, non-2xx) fails
//   the whole batch ("Unhandled"). A command's failure message ends with the last non-empty line
//   it wrote to stderr (a Python or Node handler's exception), as Lambda reports errorMessage.
// - With ReportBatchItemFailures, a successful answer is read as {"batchItemFailures":
//   [{"itemIdentifier": "<SequenceNumber>"}]}: an empty answer, null, {} or an empty/null list is
//   a complete success; a list naming sequence numbers of the batch is a partial failure (the
//   lowest one is where the retry starts); an answer that is not JSON, or an identifier that is
//   empty, null, not a string or not in the batch, fails the whole batch. Without it the answer
//   is ignored.
#pragma once

#include <cstdint>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "triggers/config.h"

namespace monotable::triggers {

struct Outcome {
  bool ok = false;
  std::optional<uint64_t> first_failed;  // partial failure: retry from this sequence number
  int status_code = 200;                 // HTTP status (commands: 200 once started)
  std::string error;                     // why it failed, for the log and /metrics
};

// `sequences` are the batch's sequence numbers, in order.
Outcome ReadBatchResponse(std::string_view body, const std::vector<uint64_t>& sequences);

Outcome Invoke(const TriggerConfig& config, const std::string& event, const std::vector<uint64_t>& sequences,
               const std::vector<std::string>& env, std::stop_token stop);

}  // namespace monotable::triggers
