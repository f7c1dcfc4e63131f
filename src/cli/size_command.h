// `monotable size`: item size and capacity calculator (the same arithmetic the server bills with).
//
//   monotable size [--table DESCRIBE_TABLE_JSON] [FILE ...]     (no FILE: standard input)
//
// Input: one item, an array of items, or one item per line; each item in DynamoDB JSON
// ({"id": {"S": "a"}}) or plain JSON ({"id": "a"}: strings S, numbers N, booleans BOOL, null NULL,
// arrays L, objects M). With --table (the output of `aws dynamodb describe-table`), also prints
// each index's entry size and write cost when the item is inserted.
#pragma once

namespace monotable::cli {

int RunSizeCommand(int argc, char** argv);

}  // namespace monotable::cli
