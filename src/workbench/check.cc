#include "workbench/check.h"

#include <algorithm>

#include "workbench/checks.h"

namespace monotable::workbench {
namespace {

const std::vector<std::string>* AcceptList(const Model& m, const Finding& f) {
  if (f.subject_kind == "pattern") {
    for (const auto& p : m.patterns)
      if (p.name == f.subject) return &p.accept;
  } else if (f.subject_kind == "entity") {
    for (const auto& e : m.entities)
      if (e.name == f.subject) return &e.accept;
  } else if (f.subject_kind == "write") {
    for (const auto& w : m.writes)
      if (w.name == f.subject) return &w.accept;
  } else if (f.subject_kind == "relationship") {
    for (const auto& r : m.relationships)
      if (r.name == f.subject) return &r.accept;
  }
  return nullptr;
}

}  // namespace

const char* SeverityName(Severity s) {
  switch (s) {
    case Severity::kInfo:
      return "info";
    case Severity::kWarning:
      return "warning";
    case Severity::kError:
      return "error";
  }
  return "error";
}

CheckReport RunChecks(const Model& model) {
  CheckReport report;
  report.model = model.name;
  ModelSizes sizes = EstimateSizes(model);
  CheckContext ctx{model, report, sizes};
  PlanAccessPatterns(ctx);
  CheckKeyCollisions(ctx);
  CheckSortOrder(ctx);
  CheckCosts(ctx);
  CheckHotPartitions(ctx);
  CheckRelationships(ctx);
  CheckLimits(ctx);
  for (auto& f : report.findings) {
    const auto* accept = AcceptList(model, f);
    if (accept && std::find(accept->begin(), accept->end(), f.code) != accept->end()) {
      f.accepted = true;
      f.severity = Severity::kInfo;
    }
  }
  return report;
}

}  // namespace monotable::workbench
