// Model file parser: YAML (or JSON, which the YAML parser reads too) -> workbench::Model.
//
// Contract:
// - ParseModel(text) accepts format version 1 (docs/workbench/model-format.md,
//   docs/workbench/model.schema.json) and returns the validated Model, or a Validation status
//   whose message names the place ("entities[Order].keys.SK: ...") and the problem: YAML syntax
//   (with line and column), a missing or unknown field, a wrong type, a reference to an unknown
//   table, index, entity or attribute, or an entity without a template for a key attribute.
// - LoadModelFile reads a file and parses it; never throws.
#pragma once

#include <string>
#include <string_view>

#include "common/status.h"
#include "workbench/model.h"

namespace monotable::workbench {

Result<Model> ParseModel(std::string_view text);
Result<Model> LoadModelFile(const std::string& path);

}  // namespace monotable::workbench
