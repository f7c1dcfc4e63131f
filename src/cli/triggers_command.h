// `monotable triggers (--endpoint URL | --data DIR)`: the state of the stream triggers, from a
// running server's GET /monotable/triggers (state, lag, deliveries, failures per trigger, then
// each shard's position and lag and the last error; signed with the key the AWS CLI would use, as
// a server with --credentials wants; a server without that endpoint is read from /metrics), or
// from the checkpoint file of a data directory (where each trigger has got to in each shard).
#pragma once

namespace monotable::cli {

int RunTriggersCommand(int argc, char** argv);

}  // namespace monotable::cli
