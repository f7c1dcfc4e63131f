#include "cli/model_command.h"

#include <cstdio>
#include <string>
#include <string_view>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "workbench/check.h"
#include "workbench/parser.h"
#include "workbench/report.h"

namespace monotable::cli {
namespace {

int Usage(const char* message) {
  if (message) std::fprintf(stderr, "monotable model: %s\n", message);
  std::fprintf(stderr,
               "usage: monotable model check FILE [--json]\n"
               "  check   prove a model file statically: the request that serves each access pattern,\n"
               "          or why none can; costs, hot partitions, key and order hazards, limits\n"
               "          (exit 0: no error, 1: errors found, 2: unreadable or invalid model)\n"
               "  --json  the report as JSON (stable finding codes, severities, fixes)\n"
               "  format: docs/workbench/model-format.md, examples in examples/models/\n");
  return 2;
}

int Check(int argc, char** argv) {
  std::string file;
  bool json = false;
  for (int i = 0; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "--json") json = true;
    else if (arg == "--help" || arg == "-h") return Usage(nullptr);
    else if (!arg.empty() && arg[0] == '-' && arg != "-") return Usage(("unknown option " + std::string(arg)).c_str());
    else if (file.empty()) file = arg;
    else return Usage("check takes one model file");
  }
  if (file.empty()) return Usage("check needs a model file");
  auto model = file == "-" ? workbench::ParseModel([] {
    std::string text;
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, stdin)) > 0) text.append(buf, n);
    return text;
  }()) : workbench::LoadModelFile(file);
  if (!model.ok()) {
    if (json) {
      rapidjson::StringBuffer b;
      rapidjson::Writer<rapidjson::StringBuffer> w(b);
      w.StartObject();
      w.Key("error");
      w.String(model.status().message().c_str());
      w.EndObject();
      std::printf("%s\n", b.GetString());
    }
    std::fprintf(stderr, "monotable model check: %s: %s\n", file.c_str(), model.status().message().c_str());
    return 2;
  }
  workbench::CheckReport report = workbench::RunChecks(*model);
  if (json) {
    std::string text = workbench::ReportJson(report);
    std::fwrite(text.data(), 1, text.size(), stdout);
  } else {
    workbench::PrintText(report, stdout);
  }
  return report.Failed() ? 1 : 0;
}

}  // namespace

int RunModelCommand(int argc, char** argv) {
  if (argc < 1) return Usage("missing subcommand");
  std::string_view sub = argv[0];
  if (sub == "check") return Check(argc - 1, argv + 1);
  if (sub == "--help" || sub == "-h" || sub == "help") {
    Usage(nullptr);
    return 0;
  }
  return Usage(("unknown subcommand " + std::string(sub)).c_str());
}

}  // namespace monotable::cli
