// `monotable triggers (--endpoint URL | --data DIR)`: the state of the stream triggers, from a
// running server's /metrics (state, lag, deliveries, failures per trigger) or from the checkpoint
// file of a data directory (where each trigger has got to in each shard).
#pragma once

namespace monotable::cli {

int RunTriggersCommand(int argc, char** argv);

}  // namespace monotable::cli
