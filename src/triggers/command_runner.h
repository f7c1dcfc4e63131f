// Runs a handler command for one batch: the event JSON on its stdin, its stdout captured, its
// stderr passed through to the server's (and its last 4 KB kept), a time limit enforced.
//
// Contract: RunCommand() starts argv[0] (looked up on PATH) in its own process group with the
// server's environment plus `env` (entries "NAME=value", overriding), writes `input` to its stdin
// and closes it, and collects stdout (at most 6 MB, Lambda's response limit; beyond that the
// run counts as failed). After `timeout_ms` the whole process group is killed (SIGKILL).
// A stop request kills it like a timeout. It never throws; a command that cannot start reports started = false with the
// reason.
#pragma once

#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

namespace monotable::triggers {

struct CommandResult {
  bool started = false;
  bool timed_out = false;
  bool output_too_large = false;
  int exit_code = -1;  // valid when exited normally
  int signal = 0;      // set when killed by a signal
  std::string output;  // stdout
  std::string error_output;  // the last 4 KB of stderr (all of it also went to the server's stderr)
  std::string error;   // why it failed to start
};

CommandResult RunCommand(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                         std::string_view input, int timeout_ms, std::stop_token stop = {});

}  // namespace monotable::triggers
