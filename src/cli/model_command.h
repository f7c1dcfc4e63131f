// `monotable model`: the workbench's commands on a model file (docs/workbench/model-format.md).
//
//   monotable model check FILE [--json]
//   monotable model diff OLD NEW [--json]                 (workbench/diff.h)
//   monotable model export FILE --format cloudformation|terraform|cdk|nosql-workbench|onetable
//   monotable model import FILE --from nosql-workbench|onetable [--table NAME]
//   monotable model apply|seed|verify FILE --endpoint URL ...            (cli/model_server.h)
//
// check: static, no server. Prints, per access pattern, the request that serves it or why none
// can, the cost of each write, and every finding. Exit status: 0 when no unaccepted finding is an
// error, 1 otherwise, 2 when the file cannot be read or is not a valid model (the message names
// the place). --json prints the report as JSON on standard output (an invalid model:
// {"error": "..."}).
#pragma once

namespace monotable::cli {

int RunModelCommand(int argc, char** argv);

}  // namespace monotable::cli
