// Report printers for `monotable model check`: a text report for people, JSON for tools.
//
// Contract:
// - PrintText lists each access pattern with the request that serves it (operation, table or
//   index, key condition with placeholders, options) and its estimated cost, or "NOT SERVED";
//   the findings under the pattern they are about; then the writes with their write units, the
//   other findings, and a closing line with the counts and OK / FAILED.
// - ReportJson gives the same as one JSON object: model, ok, errors, warnings, patterns[],
//   writes[], findings[] (each: code, severity, accepted, subjectKind, subject, the subject under
//   its kind's name too ("pattern": "getUser"), message, fix). Field names are stable.
#pragma once

#include <cstdio>
#include <string>

#include "workbench/findings.h"

namespace monotable::workbench {

void PrintText(const CheckReport& report, std::FILE* out);
std::string ReportJson(const CheckReport& report);

}  // namespace monotable::workbench
