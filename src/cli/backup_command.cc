#include "cli/backup_command.h"

#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "api/service.h"
#include "backup/backup_service.h"
#include "backup/s3_client.h"
#include "cli/dynamo_client.h"
#include "model/json_writer.h"
#include "table/database.h"

namespace monotable::cli {
namespace {

using Call = std::function<Result<rapidjson::Document>(const std::string& op, const std::string& body)>;

struct Target {
  Call call;
  std::function<void()> settle;  // in-process: waits for background work before the process ends
  std::unique_ptr<table::Database> db;
  std::unique_ptr<api::Service> service;
};

int Usage(const char* message) {
  if (message) std::fprintf(stderr, "monotable: %s\n", message);
  std::fprintf(stderr,
               "usage: monotable backup create TABLE NAME [--wait] | list [TABLE] | describe ARN | delete ARN\n"
               "                        | restore ARN TARGET [--wait] | pitr TABLE on|off|status\n"
               "                        | restore-pitr TABLE TARGET [--time EPOCH_SECONDS] [--wait]\n"
               "       monotable export TABLE --bucket B [--prefix P] [--time EPOCH_SECONDS] [--wait]\n"
               "       monotable import TARGET --bucket B [--prefix P] [--format DYNAMODB_JSON|CSV] [--gzip]\n"
               "                        --key NAME:TYPE[,NAME:TYPE] [--wait]\n"
               "  every command also takes --endpoint URL (default http://127.0.0.1:8000) or --data DIR\n"
               "  (the data directory of a stopped server; export and import then also take --export-dir DIR, or\n"
               "  --s3-endpoint URL --s3-access-key K --s3-secret-key S [--s3-region R] as `monotable serve` does)\n");
  return 2;
}

// Options shared by the commands; positional arguments are left in `args`.
struct Options {
  std::string endpoint = "http://127.0.0.1:8000";
  std::string data, export_dir, bucket, prefix, format = "DYNAMODB_JSON", key, time;
  backup::S3Config s3;
  bool wait = false, gzip = false;
  std::vector<std::string> args;
};

bool Parse(int argc, char** argv, Options& o, std::string& error) {
  for (int i = 0; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](std::string& out) {
      if (i + 1 >= argc) {
        error = a + " needs a value";
        return false;
      }
      out = argv[++i];
      return true;
    };
    if (a == "--endpoint") {
      if (!value(o.endpoint)) return false;
    } else if (a == "--data") {
      if (!value(o.data)) return false;
    } else if (a == "--export-dir") {
      if (!value(o.export_dir)) return false;
    } else if (a == "--s3-endpoint") {
      if (!value(o.s3.endpoint)) return false;
    } else if (a == "--s3-access-key") {
      if (!value(o.s3.access_key)) return false;
    } else if (a == "--s3-secret-key") {
      if (!value(o.s3.secret_key)) return false;
    } else if (a == "--s3-region") {
      if (!value(o.s3.region)) return false;
    } else if (a == "--bucket") {
      if (!value(o.bucket)) return false;
    } else if (a == "--prefix") {
      if (!value(o.prefix)) return false;
    } else if (a == "--format") {
      if (!value(o.format)) return false;
    } else if (a == "--key") {
      if (!value(o.key)) return false;
    } else if (a == "--time") {
      if (!value(o.time)) return false;
    } else if (a == "--wait")
      o.wait = true;
    else if (a == "--gzip")
      o.gzip = true;
    else if (a.rfind("--", 0) == 0) {
      error = "unknown option " + a;
      return false;
    } else
      o.args.push_back(a);
  }
  return true;
}

Result<std::unique_ptr<Target>> Connect(const Options& o) {
  auto t = std::make_unique<Target>();
  if (o.data.empty()) {
    MT_ASSIGN_OR_RETURN(DynamoClient client, DynamoClient::Create(o.endpoint));
    t->call = [client](const std::string& op, const std::string& body) { return client.Call(op, body); };
    t->settle = [] {};
    return t;
  }
  table::DatabaseOptions options;
  options.path = o.data;
  MT_ASSIGN_OR_RETURN(t->db, table::Database::Open(options));
  t->service = std::make_unique<api::Service>(*t->db, api::ServerIdentity{});
  MT_ASSIGN_OR_RETURN(std::shared_ptr<backup::ObjectStore> store, backup::OpenObjectStore(o.export_dir, o.s3));
  t->service->backups()->set_object_store(std::move(store));
  api::Service* service = t->service.get();
  t->call = [service](const std::string& op, const std::string& body) -> Result<rapidjson::Document> {
    api::HttpRequestView request;
    request.method = "POST";
    request.url = "/";
    std::string target = "DynamoDB_20120810." + op;
    request.target = target;
    request.content_type = "application/x-amz-json-1.0";
    request.host = "localhost";
    request.body = body;
    api::HttpResponse response = service->Handle(request);
    rapidjson::Document doc;
    doc.Parse(response.body.c_str());
    if (response.status == 200 && !doc.HasParseError()) return doc;
    std::string type, message;
    if (!doc.HasParseError() && doc.IsObject()) {
      if (auto it = doc.FindMember("__type"); it != doc.MemberEnd() && it->value.IsString()) {
        type = it->value.GetString();
        type = type.substr(type.find('#') + 1);
      }
      for (const char* m : {"message", "Message"}) {
        if (auto it = doc.FindMember(m); it != doc.MemberEnd() && it->value.IsString()) message = it->value.GetString();
      }
    }
    return Status(ErrorCode::kValidation, type + ": " + message);
  };
  t->settle = [service] { service->backups()->WaitIdle(); };
  return t;
}

std::string Quote(const std::string& s) {
  rapidjson::StringBuffer b;
  model::JsonWriter w(b);
  w.String(s.c_str(), static_cast<rapidjson::SizeType>(s.size()));
  return b.GetString();
}

void Print(const rapidjson::Value& v) {
  rapidjson::StringBuffer b;
  rapidjson::PrettyWriter<rapidjson::StringBuffer> w(b);
  w.SetIndent(' ', 2);
  v.Accept(w);
  std::printf("%s\n", b.GetString());
}

const rapidjson::Value* Path(const rapidjson::Value& v, std::initializer_list<const char*> path) {
  const rapidjson::Value* at = &v;
  for (const char* p : path) {
    if (!at->IsObject()) return nullptr;
    auto it = at->FindMember(p);
    if (it == at->MemberEnd()) return nullptr;
    at = &it->value;
  }
  return at;
}
std::string Str(const rapidjson::Value& v, std::initializer_list<const char*> path) {
  const auto* at = Path(v, path);
  return at && at->IsString() ? at->GetString() : "";
}
int64_t Int(const rapidjson::Value& v, std::initializer_list<const char*> path) {
  const auto* at = Path(v, path);
  return at && at->IsInt64() ? at->GetInt64() : 0;
}

// One progress line on stderr: a bar when the total is known, else a count.
void Progress(const std::string& what, int64_t done, int64_t total, const std::string& status) {
  if (total > 0) {
    int width = 30;
    int filled = static_cast<int>(std::min<int64_t>(width, done * width / total));
    std::fprintf(stderr, "\r%s [%s%s] %lld/%lld items  %s   ", what.c_str(), std::string(filled, '#').c_str(),
                 std::string(width - filled, ' ').c_str(), static_cast<long long>(done), static_cast<long long>(total),
                 status.c_str());
  } else {
    std::fprintf(stderr, "\r%s %lld items  %s   ", what.c_str(), static_cast<long long>(done), status.c_str());
  }
  std::fflush(stderr);
}

// Polls `poll` (returns done?) every 200 ms.
Status WaitFor(const std::function<Result<bool>()>& poll) {
  while (true) {
    MT_ASSIGN_OR_RETURN(bool done, poll());
    if (done) {
      std::fprintf(stderr, "\n");
      return Status::Ok();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
}

Status WaitTable(Target& t, const std::string& name, int64_t total) {
  return WaitFor([&]() -> Result<bool> {
    MT_ASSIGN_OR_RETURN(auto d, t.call("DescribeTable", "{\"TableName\":" + Quote(name) + "}"));
    std::string status = Str(d, {"Table", "TableStatus"});
    Progress("restoring " + name, Int(d, {"Table", "ItemCount"}), total, status);
    return status == "ACTIVE";
  });
}

int Finish(Target& t, Result<rapidjson::Document> answer,
           const std::function<Status(const rapidjson::Document&)>& wait) {
  if (!answer.ok()) {
    std::fprintf(stderr, "monotable: %s\n", answer.status().message().c_str());
    return 1;
  }
  Print(*answer);
  if (wait) {
    if (Status st = wait(*answer); !st.ok()) {
      std::fprintf(stderr, "monotable: %s\n", st.message().c_str());
      return 1;
    }
  }
  t.settle();
  return 0;
}

std::string TimeMember(const std::string& key, const std::string& seconds) {
  char* end = nullptr;
  double v = std::strtod(seconds.c_str(), &end);
  if (seconds.empty() || *end) return "";
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, ",\"%s\":%.3f", key.c_str(), v);
  return buffer;
}

}  // namespace

int RunBackupCommand(int argc, char** argv) {
  Options o;
  std::string error;
  if (!Parse(argc, argv, o, error)) return Usage(error.c_str());
  if (o.args.empty()) return Usage("missing backup command");
  auto connected = Connect(o);
  if (!connected.ok()) {
    std::fprintf(stderr, "monotable: %s\n", connected.status().message().c_str());
    return 1;
  }
  Target& t = **connected;
  const std::string& cmd = o.args[0];
  auto arg = [&](size_t i) { return i < o.args.size() ? o.args[i] : std::string(); };
  if (cmd == "create" && o.args.size() == 3) {
    auto answer = t.call("CreateBackup", "{\"TableName\":" + Quote(arg(1)) + ",\"BackupName\":" + Quote(arg(2)) + "}");
    return Finish(
        t, std::move(answer),
        !o.wait ? nullptr : std::function<Status(const rapidjson::Document&)>([&](const rapidjson::Document& d) {
          std::string arn = Str(d, {"BackupDetails", "BackupArn"});
          return WaitFor([&]() -> Result<bool> {
            MT_ASSIGN_OR_RETURN(auto b, t.call("DescribeBackup", "{\"BackupArn\":" + Quote(arn) + "}"));
            std::string status = Str(b, {"BackupDescription", "BackupDetails", "BackupStatus"});
            Progress("backing up " + arg(1), Int(b, {"BackupDescription", "SourceTableDetails", "ItemCount"}), 0,
                     status);
            return status == "AVAILABLE";
          });
        }));
  }
  if (cmd == "list" && o.args.size() <= 2) {
    return Finish(t, t.call("ListBackups", o.args.size() == 2 ? "{\"TableName\":" + Quote(arg(1)) + "}" : "{}"),
                  nullptr);
  }
  if ((cmd == "describe" || cmd == "delete") && o.args.size() == 2) {
    return Finish(
        t, t.call(cmd == "describe" ? "DescribeBackup" : "DeleteBackup", "{\"BackupArn\":" + Quote(arg(1)) + "}"),
        nullptr);
  }
  if (cmd == "restore" && o.args.size() == 3) {
    int64_t total = 0;
    if (auto b = t.call("DescribeBackup", "{\"BackupArn\":" + Quote(arg(1)) + "}"); b.ok()) {
      total = Int(*b, {"BackupDescription", "SourceTableDetails", "ItemCount"});
    }
    auto answer = t.call("RestoreTableFromBackup",
                         "{\"BackupArn\":" + Quote(arg(1)) + ",\"TargetTableName\":" + Quote(arg(2)) + "}");
    return Finish(
        t, std::move(answer),
        !o.wait ? nullptr : std::function<Status(const rapidjson::Document&)>([&](const rapidjson::Document&) {
          return WaitTable(t, arg(2), total);
        }));
  }
  if (cmd == "pitr" && o.args.size() == 3) {
    if (arg(2) == "status") {
      return Finish(t, t.call("DescribeContinuousBackups", "{\"TableName\":" + Quote(arg(1)) + "}"), nullptr);
    }
    if (arg(2) != "on" && arg(2) != "off") return Usage("pitr takes on, off or status");
    return Finish(
        t,
        t.call("UpdateContinuousBackups", "{\"TableName\":" + Quote(arg(1)) +
                                              ",\"PointInTimeRecoverySpecification\":{\"PointInTimeRecoveryEnabled\":" +
                                              (arg(2) == "on" ? "true" : "false") + "}}"),
        nullptr);
  }
  if (cmd == "restore-pitr" && o.args.size() == 3) {
    std::string when = o.time.empty() ? ",\"UseLatestRestorableTime\":true" : TimeMember("RestoreDateTime", o.time);
    if (when.empty()) return Usage("--time needs epoch seconds");
    auto answer = t.call("RestoreTableToPointInTime", "{\"SourceTableName\":" + Quote(arg(1)) +
                                                          ",\"TargetTableName\":" + Quote(arg(2)) + when + "}");
    return Finish(
        t, std::move(answer),
        !o.wait ? nullptr : std::function<Status(const rapidjson::Document&)>([&](const rapidjson::Document&) {
          return WaitTable(t, arg(2), 0);
        }));
  }
  return Usage(("bad backup command " + cmd).c_str());
}

int RunExportCommand(int argc, char** argv) {
  Options o;
  std::string error;
  if (!Parse(argc, argv, o, error)) return Usage(error.c_str());
  if (o.args.size() != 1 || o.bucket.empty()) return Usage("export takes TABLE and --bucket B");
  auto connected = Connect(o);
  if (!connected.ok()) {
    std::fprintf(stderr, "monotable: %s\n", connected.status().message().c_str());
    return 1;
  }
  Target& t = **connected;
  auto described = t.call("DescribeTable", "{\"TableName\":" + Quote(o.args[0]) + "}");
  if (!described.ok()) return Finish(t, std::move(described), nullptr);
  std::string body =
      "{\"TableArn\":" + Quote(Str(*described, {"Table", "TableArn"})) + ",\"S3Bucket\":" + Quote(o.bucket);
  if (!o.prefix.empty()) body += ",\"S3Prefix\":" + Quote(o.prefix);
  if (!o.time.empty()) {
    std::string when = TimeMember("ExportTime", o.time);
    if (when.empty()) return Usage("--time needs epoch seconds");
    body += when;
  }
  body += "}";
  return Finish(t, t.call("ExportTableToPointInTime", body),
                !o.wait
                    ? nullptr
                    : std::function<Status(const rapidjson::Document&)>([&](const rapidjson::Document& d) -> Status {
                        std::string arn = Str(d, {"ExportDescription", "ExportArn"});
                        std::string status;
                        MT_RETURN_IF_ERROR(WaitFor([&]() -> Result<bool> {
                          MT_ASSIGN_OR_RETURN(auto e, t.call("DescribeExport", "{\"ExportArn\":" + Quote(arn) + "}"));
                          status = Str(e, {"ExportDescription", "ExportStatus"});
                          Progress("exporting " + o.args[0], Int(e, {"ExportDescription", "ItemCount"}), 0, status);
                          return status != "IN_PROGRESS";
                        }));
                        return status == "COMPLETED" ? Status::Ok() : Status::Io("the export " + status);
                      }));
}

int RunImportCommand(int argc, char** argv) {
  Options o;
  std::string error;
  if (!Parse(argc, argv, o, error)) return Usage(error.c_str());
  if (o.args.size() != 1 || o.bucket.empty() || o.key.empty())
    return Usage("import takes TARGET, --bucket B and --key");
  // --key pk:S[,sk:N]
  std::string schema = "[", definitions = "[";
  size_t start = 0;
  int n = 0;
  while (start <= o.key.size()) {
    size_t comma = o.key.find(',', start);
    std::string part = o.key.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    size_t colon = part.find(':');
    std::string type = colon == std::string::npos ? "" : part.substr(colon + 1);
    if (colon == std::string::npos || (type != "S" && type != "N" && type != "B") || n >= 2) {
      return Usage("--key takes NAME:TYPE[,NAME:TYPE] (types S, N, B)");
    }
    std::string name = part.substr(0, colon);
    schema += std::string(n ? "," : "") + "{\"AttributeName\":" + Quote(name) + ",\"KeyType\":\"" +
              (n ? "RANGE" : "HASH") + "\"}";
    definitions +=
        std::string(n ? "," : "") + "{\"AttributeName\":" + Quote(name) + ",\"AttributeType\":\"" + type + "\"}";
    ++n;
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  schema += "]";
  definitions += "]";
  auto connected = Connect(o);
  if (!connected.ok()) {
    std::fprintf(stderr, "monotable: %s\n", connected.status().message().c_str());
    return 1;
  }
  Target& t = **connected;
  std::string body = "{\"S3BucketSource\":{\"S3Bucket\":" + Quote(o.bucket) +
                     (o.prefix.empty() ? "" : ",\"S3KeyPrefix\":" + Quote(o.prefix)) +
                     "},\"InputFormat\":" + Quote(o.format) + ",\"InputCompressionType\":\"" +
                     (o.gzip ? "GZIP" : "NONE") + "\",\"TableCreationParameters\":{\"TableName\":" + Quote(o.args[0]) +
                     ",\"KeySchema\":" + schema + ",\"AttributeDefinitions\":" + definitions +
                     ",\"BillingMode\":\"PAY_PER_REQUEST\"}}";
  return Finish(t, t.call("ImportTable", body),
                !o.wait
                    ? nullptr
                    : std::function<Status(const rapidjson::Document&)>([&](const rapidjson::Document& d) -> Status {
                        std::string arn = Str(d, {"ImportTableDescription", "ImportArn"});
                        std::string status;
                        int64_t errors = 0;
                        MT_RETURN_IF_ERROR(WaitFor([&]() -> Result<bool> {
                          MT_ASSIGN_OR_RETURN(auto i, t.call("DescribeImport", "{\"ImportArn\":" + Quote(arn) + "}"));
                          status = Str(i, {"ImportTableDescription", "ImportStatus"});
                          errors = Int(i, {"ImportTableDescription", "ErrorCount"});
                          Progress("importing into " + o.args[0],
                                   Int(i, {"ImportTableDescription", "ImportedItemCount"}), 0, status);
                          return status != "IN_PROGRESS";
                        }));
                        if (errors > 0)
                          std::fprintf(stderr, "%lld lines were not imported (see the server's log)\n",
                                       static_cast<long long>(errors));
                        return status == "COMPLETED" ? Status::Ok() : Status::Io("the import " + status);
                      }));
}

}  // namespace monotable::cli
