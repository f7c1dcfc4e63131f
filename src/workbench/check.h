// RunChecks: every static check of a model, with no server (`monotable model check`).
//
// Contract: RunChecks(model) returns the request planned for each access pattern (in file
// order), the cost of each write use case, and every finding; findings whose code the subject
// lists under `accept:` are marked accepted and counted as info. Deterministic: the same model
// gives the same report.
#pragma once

#include "workbench/findings.h"
#include "workbench/model.h"

namespace monotable::workbench {

CheckReport RunChecks(const Model& model);

}  // namespace monotable::workbench
