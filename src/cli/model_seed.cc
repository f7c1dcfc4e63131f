// `monotable model seed` (model_server.h): generated items per entity, written with BatchWriteItem.
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <unistd.h>

#include <cstdio>
#include <set>

#include "cli/model_server.h"
#include "model/json_writer.h"
#include "workbench/sampler.h"

namespace monotable::cli {
namespace {

// Writes the batch (one table's PutRequests), retrying unprocessed items a few times.
Status Flush(const DynamoClient& client, const std::string& table, std::vector<std::string>& puts) {
  if (puts.empty()) return Status::Ok();
  std::string body = "{\"RequestItems\":{\"" + table + "\":[";
  for (size_t i = 0; i < puts.size(); ++i)
    body += (i ? "," : "") + std::string("{\"PutRequest\":{\"Item\":") + puts[i] + "}}";
  body += "]}}";
  puts.clear();
  for (int attempt = 0; attempt < 8; ++attempt) {
    auto r = client.Call("BatchWriteItem", body);
    if (!r.ok()) return r.status();
    const auto& doc = *r;
    if (!doc.HasMember("UnprocessedItems") || !doc["UnprocessedItems"].IsObject() ||
        doc["UnprocessedItems"].MemberCount() == 0) {
      return Status::Ok();
    }
    rapidjson::StringBuffer b;
    model::JsonWriter w(b);
    doc["UnprocessedItems"].Accept(w);
    body = std::string("{\"RequestItems\":") + b.GetString() + "}";
  }
  return Status::Io("BatchWriteItem left items unprocessed after 8 attempts");
}

}  // namespace

int ModelSeed(const workbench::Model& model, const DynamoClient& client, const ServerOptions& options) {
  workbench::Sampler sampler(model, options.items, options.skew, options.seed);
  const bool tty = isatty(fileno(stderr));
  for (const auto& e : model.entities) {
    const auto& table = model.tables[e.table];
    std::vector<std::string> puts;
    std::set<std::string> keys;  // a batch must not name one key twice
    int64_t written = 0;
    const int64_t count = sampler.Items(e);
    for (int64_t i = 0; i < count; ++i) {
      auto indexes = sampler.ItemIndexes(e, i);
      std::string key = sampler.Render(*e.Key(table.partition_key.name), e, indexes);
      if (table.sort_key) key += '\x1f' + sampler.Render(*e.Key(table.sort_key->name), e, indexes);
      if (keys.count(key) || puts.size() == 25) {
        if (auto st = Flush(client, table.name, puts); !st.ok()) {
          std::fprintf(stderr, "\nseed %s: %s\n", e.name.c_str(), st.message().c_str());
          return 2;
        }
        keys.clear();
      }
      keys.insert(key);
      puts.push_back(sampler.ItemJson(e, indexes));
      ++written;
      if (tty && written % 100 == 0)
        std::fprintf(stderr, "\rseeding %s: %lld/%lld", e.name.c_str(), static_cast<long long>(written),
                     static_cast<long long>(count));
    }
    if (auto st = Flush(client, table.name, puts); !st.ok()) {
      std::fprintf(stderr, "\nseed %s: %s\n", e.name.c_str(), st.message().c_str());
      return 2;
    }
    if (tty) std::fprintf(stderr, "\r");
    std::printf("%s: %lld items written to %s\n", e.name.c_str(), static_cast<long long>(written), table.name.c_str());
  }
  return 0;
}

}  // namespace monotable::cli
