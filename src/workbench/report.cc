#include "workbench/report.h"

#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>

#include <cmath>

#include "workbench/checks.h"

namespace monotable::workbench {
namespace {

void PrintFinding(const Finding& f, std::FILE* out, const char* indent) {
  std::fprintf(out, "%s%s %s%s: %s\n", indent, SeverityName(f.severity), f.code.c_str(),
               f.accepted ? " (accepted)" : "", f.message.c_str());
  std::fprintf(out, "%s  fix: %s\n", indent, f.fix.c_str());
}

std::string Units(double v) { return Figure(v); }

void Counts(const CheckReport& r, int* errors, int* warnings, int* accepted) {
  *errors = *warnings = *accepted = 0;
  for (const auto& f : r.findings) {
    if (f.accepted)
      ++*accepted;
    else if (f.severity == Severity::kError)
      ++*errors;
    else if (f.severity == Severity::kWarning)
      ++*warnings;
  }
}

}  // namespace

void PrintText(const CheckReport& r, std::FILE* out) {
  std::fprintf(out, "model %s: %zu access patterns, %zu writes\n", r.model.empty() ? "(unnamed)" : r.model.c_str(),
               r.patterns.size(), r.writes.size());
  if (!r.patterns.empty()) std::fprintf(out, "\naccess patterns\n");
  for (const auto& p : r.patterns) {
    std::string target = p.table + (p.index.empty() ? "" : " index " + p.index);
    if (!p.served) {
      std::fprintf(out, "  %s: NOT SERVED (%s on %s)\n", p.pattern.c_str(), p.operation.c_str(), target.c_str());
    } else {
      std::fprintf(out, "  %s: %s %s%s\n", p.pattern.c_str(), p.operation.c_str(), target.c_str(),
                   p.fan_out > 1 ? (" x " + std::to_string(p.fan_out) + " (one per value of {" + p.shard_variables[0] +
                                    "} 0.." + std::to_string(p.fan_out - 1) + ", merged)")
                                       .c_str()
                                 : "");
      if (!p.key_condition.empty()) {
        std::fprintf(out, "      %s %s\n",
                     p.operation == "GetItem" ? "Key:" : "KeyConditionExpression:", p.key_condition.c_str());
        std::string values;
        for (const auto& [name, value] : p.values)
          values += (values.empty() ? "" : ", ") + name + " = \"" + value + "\"";
        std::fprintf(out, "      values: %s\n", values.c_str());
      }
      if (!p.options.empty()) {
        std::string opts;
        for (const auto& o : p.options) opts += (opts.empty() ? "" : ", ") + o;
        std::fprintf(out, "      %s\n", opts.c_str());
      }
      std::string wanted = p.items_returned + 0.5 < p.items_read
                               ? ", ~" + Figure(p.items_returned) + " of them wanted"
                               : "";
      std::fprintf(out, "      cost: ~%s item%s read%s, %s page%s, %s RCU per call", Figure(p.items_read).c_str(),
                   p.items_read > 1 ? "s" : "", wanted.c_str(), Figure(p.pages).c_str(), p.pages > 1 ? "s" : "",
                   Units(p.rcu_per_call).c_str());
      if (p.rcu_per_second > 0) std::fprintf(out, ", %s RCU/s", Units(p.rcu_per_second).c_str());
      std::fprintf(out, "\n");
    }
    for (const auto& f : r.findings) {
      if (f.subject_kind == "pattern" && f.subject == p.pattern) PrintFinding(f, out, "    ");
    }
  }
  if (!r.writes.empty()) std::fprintf(out, "\nwrites\n");
  for (const auto& w : r.writes) {
    std::string arms;
    for (const auto& a : w.arms) arms += (arms.empty() ? "" : ", ") + a.entity + " -> " + a.target + " " + Units(a.wcu);
    std::fprintf(out, "  %s: %s WCU per call (%s)", w.write.c_str(), Units(w.wcu_per_call).c_str(), arms.c_str());
    if (w.wcu_per_second > 0) std::fprintf(out, ", %s WCU/s", Units(w.wcu_per_second).c_str());
    std::fprintf(out, "\n");
    for (const auto& f : r.findings) {
      if (f.subject_kind == "write" && f.subject == w.write) PrintFinding(f, out, "    ");
    }
  }
  bool header = false;
  for (const auto& f : r.findings) {
    if (f.subject_kind == "pattern" || f.subject_kind == "write") continue;
    if (!header) std::fprintf(out, "\nmodel findings\n");
    header = true;
    std::fprintf(out, "  %s %s:\n", f.subject_kind.c_str(), f.subject.c_str());
    PrintFinding(f, out, "    ");
  }
  int errors, warnings, accepted;
  Counts(r, &errors, &warnings, &accepted);
  std::fprintf(out, "\n%d error%s, %d warning%s, %d accepted: %s\n", errors, errors == 1 ? "" : "s", warnings,
               warnings == 1 ? "" : "s", accepted, r.Failed() ? "FAILED" : "OK");
}

std::string ReportJson(const CheckReport& r) {
  rapidjson::StringBuffer buffer;
  rapidjson::PrettyWriter<rapidjson::StringBuffer> w(buffer);
  w.SetIndent(' ', 2);
  auto str = [&](const char* key, const std::string& v) {
    w.Key(key);
    w.String(v.c_str(), static_cast<rapidjson::SizeType>(v.size()));
  };
  auto num = [&](const char* key, double v) {
    w.Key(key);
    w.Double(std::round(v * 100) / 100);
  };
  int errors, warnings, accepted;
  Counts(r, &errors, &warnings, &accepted);
  w.StartObject();
  str("model", r.model);
  w.Key("ok");
  w.Bool(!r.Failed());
  w.Key("errors");
  w.Int(errors);
  w.Key("warnings");
  w.Int(warnings);
  w.Key("accepted");
  w.Int(accepted);
  w.Key("patterns");
  w.StartArray();
  for (const auto& p : r.patterns) {
    w.StartObject();
    str("name", p.pattern);
    w.Key("served");
    w.Bool(p.served);
    str("operation", p.operation);
    str("table", p.table);
    if (!p.index.empty()) str("index", p.index);
    if (!p.key_condition.empty()) str(p.operation == "GetItem" ? "key" : "keyConditionExpression", p.key_condition);
    w.Key("values");
    w.StartObject();
    for (const auto& [name, value] : p.values) str(name.c_str(), value);
    w.EndObject();
    w.Key("options");
    w.StartArray();
    for (const auto& o : p.options) w.String(o.c_str());
    w.EndArray();
    w.Key("fanOut");
    w.Int64(p.fan_out);
    w.Key("entities");
    w.StartArray();
    for (const auto& m : p.matches) {
      w.StartObject();
      str("entity", m.entity);
      w.Key("expected");
      w.Bool(m.expected);
      num("items", m.items);
      w.EndObject();
    }
    w.EndArray();
    num("itemsRead", p.items_read);
    num("itemsReturned", p.items_returned);
    num("pages", p.pages);
    num("rcuPerCall", p.rcu_per_call);
    num("rcuPerSecond", p.rcu_per_second);
    w.EndObject();
  }
  w.EndArray();
  w.Key("writes");
  w.StartArray();
  for (const auto& x : r.writes) {
    w.StartObject();
    str("name", x.write);
    w.Key("items");
    w.Int64(x.items);
    num("wcuPerCall", x.wcu_per_call);
    num("wcuPerSecond", x.wcu_per_second);
    w.Key("arms");
    w.StartArray();
    for (const auto& a : x.arms) {
      w.StartObject();
      str("target", a.target);
      str("entity", a.entity);
      num("wcu", a.wcu);
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.Key("findings");
  w.StartArray();
  for (const auto& f : r.findings) {
    w.StartObject();
    str("code", f.code);
    str("severity", SeverityName(f.severity));
    w.Key("accepted");
    w.Bool(f.accepted);
    str("subjectKind", f.subject_kind);
    str("subject", f.subject);
    str(f.subject_kind.c_str(), f.subject);
    str("message", f.message);
    str("fix", f.fix);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize()) + "\n";
}

}  // namespace monotable::workbench
