#include "cli/model_command.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cli/model_server.h"
#include "model/json_writer.h"
#include "workbench/check.h"
#include "workbench/checks.h"
#include "workbench/diff.h"
#include "workbench/dynamodb_toolbox.h"
#include "workbench/export.h"
#include "workbench/nosql_workbench.h"
#include "workbench/onetable.h"
#include "workbench/parser.h"
#include "workbench/report.h"

namespace monotable::cli {
namespace {

int Usage(const char* message) {
  if (message) std::fprintf(stderr, "monotable model: %s\n", message);
  std::fprintf(stderr,
               "usage: monotable model check FILE [--json]\n"
               "       monotable model diff OLD NEW [--json] [--endpoint URL [--profile P] [--region R]]\n"
               "       monotable model export FILE --format cloudformation|terraform|cdk|nosql-workbench|onetable\n"
               "       monotable model import FILE... --from nosql-workbench|onetable|dynamodb-toolbox [--table NAME]\n"
               "       monotable model apply FILE --endpoint URL [--profile P] [--region R]\n"
               "       monotable model seed FILE --endpoint URL [--profile P] [--region R] [--items N] [--skew S] [--seed N]\n"
               "       monotable model verify FILE --endpoint URL [--profile P] [--region R] [--items N] [--skew S] [--seed N]\n"
               "                                  [--samples N]\n"
               "                                  [--max-amplification X]   (the --items, --skew, --seed seed used)\n"
               "  check   prove a model file statically: the request that serves each access pattern,\n"
               "          or why none can; costs, hot partitions, key and order hazards, limits\n"
               "          (exit 0: no error, 1: errors found, 2: unreadable or invalid model)\n"
               "  --json  the report as JSON (stable finding codes, severities, fixes)\n"
               "  diff    what changes from OLD to NEW: tables and indexes to add, remove or rebuild, items\n"
               "          to rewrite or backfill, access patterns that break or change (exit 1: one breaks);\n"
               "          --endpoint counts the items to rewrite or backfill on a live table\n"
               "  export  the tables and indexes as a CloudFormation template, Terraform, a CDK TableV2 construct,\n"
               "          a NoSQL Workbench model (facets with sample data) or a OneTable schema\n"
               "  import  a NoSQL Workbench model, a OneTable schema or DynamoDB-Toolbox TableDTO/EntityDTO JSON\n"
               "          files as a model file (JSON); --table names the table of a OneTable schema or of DTOs\n"
               "          that name none (default Table); what the DTOs cannot say is a warning on stderr\n"
               "  apply   create the model's tables and indexes on a DynamoDB endpoint\n"

               "  seed    write sample data: the model scaled so its largest entity has --items items (default\n"
               "          2000), the others in proportion; --skew favours some keys\n"
               "  verify  run every access pattern with sampled inputs (give seed's --items): items read vs\n"
               "          returned, pages, capacity; fails on a scan, amplification past --max-amplification\n"
               "          (default 1.5) or items that match no entity template (drift)\n"
               "  --profile, --region  requests to an endpoint are signed (SigV4) with the key the AWS CLI would use:\n"
               "          AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY/AWS_SESSION_TOKEN, else the profile (--profile,\n"
               "          AWS_PROFILE, default) in ~/.aws/credentials or ~/.aws/config; region from --region,\n"
               "          AWS_REGION, AWS_DEFAULT_REGION, the profile, else us-east-1. No key: unsigned.\n"
               "          https:// endpoints: certificates checked against the system's CAs or AWS_CA_BUNDLE\n"
               "  --endpoint  default: AWS_ENDPOINT_URL_DYNAMODB, else AWS_ENDPOINT_URL (as the AWS CLI)\n"
               "  format: docs/workbench/model-format.md, examples in examples/models/\n");
  return 2;
}

int Check(int argc, char** argv) {
  std::string file;
  bool json = false;
  for (int i = 0; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "--json")
      json = true;
    else if (arg == "--help" || arg == "-h")
      return Usage(nullptr);
    else if (!arg.empty() && arg[0] == '-' && arg != "-")
      return Usage(("unknown option " + std::string(arg)).c_str());
    else if (file.empty())
      file = arg;
    else
      return Usage("check takes one model file");
  }
  if (file.empty()) return Usage("check needs a model file");
  auto model = file == "-" ? workbench::ParseModel([] {
    std::string text;
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, stdin)) > 0) text.append(buf, n);
    return text;
  }())
                           : workbench::LoadModelFile(file);
  if (!model.ok()) {
    if (json) {
      rapidjson::StringBuffer b;
      model::JsonWriter w(b);
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

int Diff(int argc, char** argv) {
  std::vector<std::string> files;
  std::string endpoint, profile, region;
  bool json = false;
  for (int i = 0; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "--endpoint" && i + 1 < argc)
      endpoint = argv[++i];
    else if (arg == "--profile" && i + 1 < argc)
      profile = argv[++i];
    else if (arg == "--region" && i + 1 < argc)
      region = argv[++i];
    else if (arg == "--json")
      json = true;
    else if (!arg.empty() && arg[0] == '-')
      return Usage(("unknown option " + std::string(arg)).c_str());
    else
      files.emplace_back(arg);
  }
  if (files.size() != 2) return Usage("diff needs two model files: OLD NEW");
  std::vector<workbench::Model> models;
  for (const auto& f : files) {
    auto m = workbench::LoadModelFile(f);
    if (!m.ok()) {
      std::fprintf(stderr, "monotable model diff: %s: %s\n", f.c_str(), m.status().message().c_str());
      return 2;
    }
    models.push_back(std::move(m).value());
  }
  workbench::ModelDiff diff = workbench::DiffModels(models[0], models[1]);
  if (!endpoint.empty()) {
    // The backfill plan with the items the endpoint holds, classified by OLD's templates.
    auto settings = ResolveAwsSettings(profile, region);
    if (!settings.ok()) {
      std::fprintf(stderr, "monotable model diff: %s\n", settings.status().message().c_str());
      return 2;
    }
    auto client = DynamoClient::Create(endpoint, std::move(settings).value());
    if (!client.ok()) return Usage(client.status().message().c_str());
    auto counts = CountItemsByEntity(models[0], *client);
    if (!counts.ok()) {
      std::fprintf(stderr, "monotable model diff: %s\n", counts.status().message().c_str());
      return 2;
    }
    for (auto& e : diff.entries) {
      if (e.kind != "entity" || e.items <= 0 || !counts->count(e.subject)) continue;
      e.items = static_cast<double>(counts->at(e.subject));
      e.detail += " [counted on " + endpoint + "]";
    }
  }
  int breaking = 0;
  for (const auto& e : diff.entries) breaking += e.change == "breaks" || e.change == "fails";
  if (json) {
    rapidjson::StringBuffer b;
    model::JsonWriter w(b);
    w.StartObject();
    w.Key("breaking");
    w.Int(breaking);
    w.Key("changes");
    w.StartArray();
    for (const auto& e : diff.entries) {
      w.StartObject();
      for (const auto& [k, v] : {std::pair<const char*, const std::string*>{"kind", &e.kind},
                                 {"subject", &e.subject},
                                 {"change", &e.change},
                                 {"detail", &e.detail}}) {
        w.Key(k);
        w.String(v->c_str());
      }
      if (e.items > 0) {
        w.Key("items");
        w.Double(e.items);
      }
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
    std::printf("%s\n", b.GetString());
  } else {
    std::printf("model diff %s -> %s\n", files[0].c_str(), files[1].c_str());
    for (const auto& e : diff.entries) {
      std::string items = e.items > 0 ? " (" + workbench::Figure(e.items) + " items)" : "";
      std::printf("  %s %s: %s%s%s%s\n", e.kind.c_str(), e.subject.c_str(), e.change.c_str(), items.c_str(),
                  e.detail.empty() ? "" : ": ", e.detail.c_str());
    }
    if (diff.entries.empty()) std::printf("  no change\n");
    std::printf("\n%d breaking change%s: %s\n", breaking, breaking == 1 ? "" : "s", breaking ? "FAILED" : "OK");
  }
  return breaking ? 1 : 0;
}

int Export(int argc, char** argv) {
  std::string file, format;
  for (int i = 0; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "--format" && i + 1 < argc)
      format = argv[++i];
    else if (!arg.empty() && arg[0] != '-' && file.empty())
      file = arg;
    else
      return Usage(("bad argument " + std::string(arg)).c_str());
  }
  if (file.empty() || format.empty()) return Usage("export needs a model file and --format");
  auto model = workbench::LoadModelFile(file);
  if (!model.ok()) {
    std::fprintf(stderr, "monotable model export: %s: %s\n", file.c_str(), model.status().message().c_str());
    return 2;
  }
  auto text = workbench::ExportModel(*model, format);
  if (!text.ok()) return Usage(text.status().message().c_str());
  std::fwrite(text->data(), 1, text->size(), stdout);
  return 0;
}

std::optional<std::string> ReadWholeFile(const std::string& file) {
  std::FILE* in = std::fopen(file.c_str(), "rb");
  if (!in) return std::nullopt;
  std::string text;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, in)) > 0) text.append(buf, n);
  std::fclose(in);
  return text;
}

int Import(int argc, char** argv) {
  std::vector<std::string> files;
  std::string from, table = "Table";
  for (int i = 0; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "--from" && i + 1 < argc)
      from = argv[++i];
    else if (arg == "--table" && i + 1 < argc)
      table = argv[++i];
    else if (!arg.empty() && arg[0] != '-')
      files.emplace_back(arg);
    else
      return Usage(("bad argument " + std::string(arg)).c_str());
  }
  if (files.empty() || (from != "nosql-workbench" && from != "onetable" && from != "dynamodb-toolbox")) {
    return Usage("import needs a file and --from nosql-workbench, onetable or dynamodb-toolbox");
  }
  if (from != "dynamodb-toolbox" && files.size() > 1) return Usage("this --from takes one file");
  std::vector<workbench::ToolboxFile> texts;
  for (const auto& file : files) {
    auto text = ReadWholeFile(file);
    if (!text) {
      std::fprintf(stderr, "monotable model import: cannot read %s\n", file.c_str());
      return 2;
    }
    texts.push_back({file, std::move(*text)});
  }
  Result<workbench::Model> model = Status::Validation("unreachable");
  if (from == "dynamodb-toolbox") {
    auto imported = workbench::ImportDynamoDbToolbox(texts, table);
    if (!imported.ok()) {
      std::fprintf(stderr, "monotable model import: %s\n", imported.status().message().c_str());
      return 2;
    }
    for (const auto& f : imported->findings) {
      std::fprintf(stderr, "monotable model import: warning %s (%s %s): %s; fix: %s\n", f.code.c_str(),
                   f.subject_kind.c_str(), f.subject.c_str(), f.message.c_str(), f.fix.c_str());
    }
    model = std::move(imported->model);
  } else {
    model = from == "onetable" ? workbench::ImportOneTable(texts[0].text, table)
                               : workbench::ImportNoSqlWorkbench(texts[0].text);
    if (!model.ok()) {
      std::fprintf(stderr, "monotable model import: %s: %s\n", files[0].c_str(), model.status().message().c_str());
      return 2;
    }
  }
  std::string out = workbench::ModelToJson(*model);
  std::fwrite(out.data(), 1, out.size(), stdout);
  return 0;
}

int Server(const std::string& sub, int argc, char** argv) {
  std::string file, endpoint, profile, region;
  ServerOptions options;
  for (int i = 0; i < argc; ++i) {
    std::string_view arg = argv[i];
    auto number = [&](double* out) {
      if (i + 1 >= argc) return false;
      char* end = nullptr;
      *out = std::strtod(argv[++i], &end);
      return *end == 0;
    };
    double v = 0;
    if (arg == "--endpoint" && i + 1 < argc)
      endpoint = argv[++i];
    else if (arg == "--profile" && i + 1 < argc)
      profile = argv[++i];
    else if (arg == "--region" && i + 1 < argc)
      region = argv[++i];
    else if (arg == "--items" && number(&v) && v >= 1)
      options.items = static_cast<int64_t>(v);
    else if (arg == "--skew" && number(&v) && v >= 0)
      options.skew = v;
    else if (arg == "--seed" && number(&v) && v >= 0)
      options.seed = static_cast<uint64_t>(v);
    else if (arg == "--samples" && number(&v) && v >= 1)
      options.samples = static_cast<int>(v);
    else if (arg == "--max-amplification" && number(&v) && v >= 1)
      options.max_amplification = v;
    else if (!arg.empty() && arg[0] != '-' && file.empty())
      file = arg;
    else
      return Usage(("bad argument " + std::string(arg)).c_str());
  }
  // As the AWS CLI: without --endpoint, AWS_ENDPOINT_URL_DYNAMODB, else AWS_ENDPOINT_URL. (Never a
  // default AWS endpoint: tables are created only where the user points.)
  for (const char* env : {"AWS_ENDPOINT_URL_DYNAMODB", "AWS_ENDPOINT_URL"}) {
    const char* v = std::getenv(env);
    if (endpoint.empty() && v && *v) endpoint = v;
  }
  if (file.empty() || endpoint.empty()) {
    return Usage((sub + " needs a model file and --endpoint URL (or AWS_ENDPOINT_URL_DYNAMODB)").c_str());
  }
  auto model = workbench::LoadModelFile(file);
  if (!model.ok()) {
    std::fprintf(stderr, "monotable model %s: %s: %s\n", sub.c_str(), file.c_str(), model.status().message().c_str());
    return 2;
  }
  auto settings = ResolveAwsSettings(profile, region);
  if (!settings.ok()) {
    std::fprintf(stderr, "monotable model %s: %s\n", sub.c_str(), settings.status().message().c_str());
    return 2;
  }
  auto client = DynamoClient::Create(endpoint, std::move(settings).value());
  if (!client.ok()) return Usage(client.status().message().c_str());
  if (sub == "apply") return ModelApply(*model, *client);
  if (sub == "seed") return ModelSeed(*model, *client, options);
  return ModelVerify(*model, *client, options);
}

}  // namespace

int RunModelCommand(int argc, char** argv) {
  if (argc < 1) return Usage("missing subcommand");
  std::string_view sub = argv[0];
  if (sub == "check") return Check(argc - 1, argv + 1);
  if (sub == "diff") return Diff(argc - 1, argv + 1);
  if (sub == "export") return Export(argc - 1, argv + 1);
  if (sub == "import") return Import(argc - 1, argv + 1);
  if (sub == "apply" || sub == "seed" || sub == "verify") return Server(std::string(sub), argc - 1, argv + 1);
  if (sub == "--help" || sub == "-h" || sub == "help") {
    Usage(nullptr);
    return 0;
  }
  return Usage(("unknown subcommand " + std::string(sub)).c_str());
}

}  // namespace monotable::cli
