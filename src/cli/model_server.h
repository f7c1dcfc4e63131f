// `monotable model apply|seed|verify MODEL --endpoint URL`: a model against a running DynamoDB
// endpoint (monotable, DynamoDB Local, AWS: requests signed with the key the AWS CLI would use,
// cli/aws_credentials.h, or unsigned when there is none).
//
// - apply: CreateTable for each table of the model (on-demand billing, every GSI and LSI with its
//   projection, attribute definitions for every key attribute); a table that exists is reported
//   and left as it is; waits until each table is ACTIVE.
// - seed: writes the model scaled down so its largest entity has `--items N` items (default
//   2000), the others in their declared proportions (workbench/sampler.h), with BatchWriteItem;
//   values come from shared pools so patterns find them; --skew S favours some partitions; a
//   progress line on stderr when it is a terminal.
// - verify: runs every access pattern `--samples N` times (default 5) with the inputs of a seeded
//   item (give it the --items, --skew and --seed that seed used) (every
//   shard of a sharded key), ReturnConsumedCapacity TOTAL, following pages up to the pattern's
//   limit; reports per pattern the operation, items read (ScannedCount) vs items of the expected
//   entities returned (read amplification; items read from monotable's explain header when the
//   endpoint sends it, else from ScannedCount), pages and consumed capacity, and fails a pattern that
//   scans or whose amplification passes --max-amplification (default 1.5). Then scans each table
//   and reports items whose keys match no entity template (drift), which also fails.
// Exit status: 0 all good, 1 a pattern or drift failed, 2 bad usage, model or endpoint errors.
#pragma once

#include <map>
#include <string>

#include "cli/dynamo_client.h"
#include "workbench/model.h"

namespace monotable::cli {

struct ServerOptions {
  int64_t items = 2000;
  double skew = 0;
  int samples = 5;
  double max_amplification = 1.5;
  uint64_t seed = 42;
};

int ModelApply(const workbench::Model& model, const DynamoClient& client);
int ModelSeed(const workbench::Model& model, const DynamoClient& client, const ServerOptions& options);
int ModelVerify(const workbench::Model& model, const DynamoClient& client, const ServerOptions& options);
// Items of each entity in the model's tables on the endpoint (a full Scan; an item counts for the
// first entity whose table key templates it matches). For `model diff --endpoint`.
Result<std::map<std::string, int64_t>> CountItemsByEntity(const workbench::Model& model, const DynamoClient& client);

}  // namespace monotable::cli
