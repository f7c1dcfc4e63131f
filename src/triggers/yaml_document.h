// YAML triggers files: a YAML document turned into the JSON value the triggers parser reads.
//
// Contract: YamlToJson() converts mappings to objects, sequences to arrays and scalars by YAML
// 1.2's core schema when plain (true/false, null/~/empty, integers and floats; anything else a
// string) and to strings when quoted. Keys are strings. Aliases are resolved. Malformed YAML,
// several documents, or nesting deeper than 64 levels give a kValidation Status naming the line;
// yaml-cpp's exceptions never leave this file.
#pragma once

#include <rapidjson/document.h>

#include <string_view>

#include "common/status.h"

namespace monotable::triggers {

Status YamlToJson(std::string_view text, rapidjson::Document& out);

}  // namespace monotable::triggers
