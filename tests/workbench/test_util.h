// Helpers for the workbench tests: check a model given as YAML text, look for findings.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "workbench/check.h"
#include "workbench/parser.h"

namespace monotable::workbench::testing {

inline CheckReport CheckYaml(const std::string& yaml) {
  auto model = ParseModel(yaml);
  EXPECT_TRUE(model.ok()) << model.status().message();
  if (!model.ok()) return {};
  return RunChecks(*model);
}

inline const Finding* FindCode(const CheckReport& r, const std::string& code) {
  for (const auto& f : r.findings)
    if (f.code == code) return &f;
  return nullptr;
}

inline std::string Codes(const CheckReport& r) {
  std::string s;
  for (const auto& f : r.findings) s += f.code + "(" + f.subject + "): " + f.message + "\n";
  return s;
}

inline const PatternPlan* FindPlan(const CheckReport& r, const std::string& name) {
  for (const auto& p : r.patterns)
    if (p.pattern == name) return &p;
  return nullptr;
}

}  // namespace monotable::workbench::testing
