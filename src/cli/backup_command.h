// `monotable backup`, `monotable export`, `monotable import`: the backup, PITR, export and import
// operations from the command line, against a running server (--endpoint URL, default
// http://127.0.0.1:8000) or, with the server stopped, against its data directory (--data DIR: the
// same operations run in-process, through the same request handling as the server's).
//
//   monotable backup create TABLE NAME [--wait]        monotable backup list [TABLE]
//   monotable backup describe ARN                      monotable backup delete ARN
//   monotable backup restore ARN TARGET [--wait]
//   monotable backup pitr TABLE on|off|status
//   monotable backup restore-pitr TABLE TARGET [--time EPOCH_SECONDS] [--wait]   (default: latest)
//   monotable export TABLE --bucket B [--prefix P] [--time EPOCH_SECONDS] [--wait]
//   monotable import TARGET --bucket B [--prefix P] [--format DYNAMODB_JSON|CSV] [--gzip]
//                    --key NAME:TYPE[,NAME:TYPE] [--wait]
//
// Answers are printed as the server's JSON. --wait polls until the work ends, drawing a progress
// bar on stderr (items loaded against the backup's item count for restores, the status for the
// rest). Exit status: 0 on success, 1 when the server refused or the work failed, 2 on usage.
#pragma once

namespace monotable::cli {

int RunBackupCommand(int argc, char** argv);
int RunExportCommand(int argc, char** argv);
int RunImportCommand(int argc, char** argv);

}  // namespace monotable::cli
