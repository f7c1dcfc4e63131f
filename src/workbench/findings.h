// Findings and plans: what `monotable model check` establishes about a model.
//
// Contract:
// - A Finding has a stable `code` (family.name, listed in docs/workbench/model-format.md), a
//   severity, the kind and name of what it is about (pattern, entity, write, table,
//   relationship), a message saying what is wrong and a `fix` saying what to change. A code
//   listed in the subject's `accept:` is kept with accepted = true and counts as info.
// - A PatternPlan is the request that serves an access pattern, with its estimated cost; when no
//   request can serve it, `served` is false and the findings say why.
// - A WritePlan is the cost of one write use case: every item's base write and index arms.
// - CheckReport::Failed() is true when an error finding is not accepted (exit status 1).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace monotable::workbench {

enum class Severity { kInfo, kWarning, kError };

struct Finding {
  std::string code;
  Severity severity = Severity::kError;
  std::string subject_kind;  // pattern, entity, write, table, relationship
  std::string subject;
  std::string message;
  std::string fix;
  bool accepted = false;
};

struct EntityMatch {
  std::string entity;
  bool expected = false;
  double items = 0;  // estimated items of this entity one call reads
};

struct PatternPlan {
  std::string pattern;
  bool served = false;
  std::string operation;  // GetItem, Query, Scan
  std::string table;
  std::string index;                                        // "" for the table
  std::string key_condition;                                // "PK = :pk AND begins_with(SK, :sk)"
  std::vector<std::pair<std::string, std::string>> values;  // ":pk" -> "USER#{userId}"
  std::vector<std::string> options;                         // "ScanIndexForward=false", "Limit=20"
  // The same request for a client: the key condition with #pk/#sk names, the names, and the
  // sort operator ("", "=", "begins_with", "BETWEEN", "<", "<=", ">", ">=").
  std::string expression;
  std::vector<std::pair<std::string, std::string>> names;  // "#pk" -> "PK"
  std::string sort_operator;
  std::string partition_template;            // the partition value, "" for a Scan
  std::vector<std::string> shard_variables;  // placeholders the reader enumerates
  long long fan_out = 1;                     // requests per call (shards)
  std::vector<EntityMatch> matches;
  double items_read = 0;
  double items_returned = 0;
  double pages = 0;
  double rcu_per_call = 0;  // all fan-out requests together
  double rcu_per_second = 0;
  double partitions = 1;  // distinct partition values the calls spread over
};

struct WriteArm {
  std::string target;  // "Store" or "Store/GSI1"
  std::string entity;
  double wcu = 0;  // per call (count and transactions included)
};

struct WritePlan {
  std::string write;
  double wcu_per_call = 0;
  double wcu_per_second = 0;
  long long items = 0;
  std::vector<WriteArm> arms;
};

struct CheckReport {
  std::string model;
  std::vector<PatternPlan> patterns;
  std::vector<WritePlan> writes;
  std::vector<Finding> findings;

  bool Failed() const {
    for (const auto& f : findings)
      if (f.severity == Severity::kError && !f.accepted) return true;
    return false;
  }
};

const char* SeverityName(Severity s);

}  // namespace monotable::workbench
