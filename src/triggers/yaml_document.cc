#include "triggers/yaml_document.h"

#include <yaml-cpp/yaml.h>

#include <cstdlib>
#include <regex>
#include <string>

namespace monotable::triggers {
namespace {

using Allocator = rapidjson::Document::AllocatorType;

bool Matches(const std::string& s, const char* pattern) { return std::regex_match(s, std::regex(pattern)); }

Status Convert(const YAML::Node& node, rapidjson::Value& out, Allocator& alloc, int depth) {
  if (depth > 64) return Status::Validation("triggers file: YAML nested deeper than 64 levels");
  switch (node.Type()) {
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined:
      out.SetNull();
      return Status::Ok();
    case YAML::NodeType::Sequence:
      out.SetArray();
      for (const auto& e : node) {
        rapidjson::Value v;
        if (Status st = Convert(e, v, alloc, depth + 1); !st.ok()) return st;
        out.PushBack(v, alloc);
      }
      return Status::Ok();
    case YAML::NodeType::Map:
      out.SetObject();
      for (const auto& kv : node) {
        if (!kv.first.IsScalar()) return Status::Validation("triggers file: YAML keys must be scalars");
        rapidjson::Value key(kv.first.Scalar().c_str(), alloc);
        rapidjson::Value v;
        if (Status st = Convert(kv.second, v, alloc, depth + 1); !st.ok()) return st;
        out.AddMember(key, v, alloc);
      }
      return Status::Ok();
    case YAML::NodeType::Scalar: {
      const std::string& s = node.Scalar();
      if (node.Tag() != "?") {  // quoted (or explicitly tagged): a string
        out.SetString(s.c_str(), static_cast<rapidjson::SizeType>(s.size()), alloc);
        return Status::Ok();
      }
      if (s == "true" || s == "True" || s == "TRUE") {
        out.SetBool(true);
      } else if (s == "false" || s == "False" || s == "FALSE") {
        out.SetBool(false);
      } else if (s == "null" || s == "Null" || s == "NULL" || s == "~" || s.empty()) {
        out.SetNull();
      } else if (Matches(s, "[-+]?[0-9]+") && s.size() < 18) {
        out.SetInt64(std::strtoll(s.c_str(), nullptr, 10));
      } else if (Matches(s, R"([-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?)")) {
        out.SetDouble(std::strtod(s.c_str(), nullptr));
      } else {
        out.SetString(s.c_str(), static_cast<rapidjson::SizeType>(s.size()), alloc);
      }
      return Status::Ok();
    }
  }
  return Status::Ok();
}

}  // namespace

Status YamlToJson(std::string_view text, rapidjson::Document& out) {
  try {
    std::vector<YAML::Node> docs = YAML::LoadAll(std::string(text));
    if (docs.size() != 1) return Status::Validation("triggers file: expected one YAML document");
    return Convert(docs[0], out, out.GetAllocator(), 0);
  } catch (const YAML::Exception& e) {
    return Status::Validation("triggers file is not valid YAML: " + std::string(e.what()));
  } catch (const std::exception& e) {
    return Status::Validation("triggers file is not valid YAML: " + std::string(e.what()));
  }
}

}  // namespace monotable::triggers
