#include "api/explain.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <strings.h>

#include "model/capacity.h"
#include "model/json_writer.h"

namespace monotable::api {

bool WantsExplain(const std::vector<std::pair<std::string_view, std::string_view>>& headers) {
  constexpr std::string_view kName = "x-monotable-explain";
  for (const auto& [name, value] : headers) {
    if (name.size() == kName.size() && strncasecmp(name.data(), kName.data(), kName.size()) == 0) return true;
  }
  return false;
}

std::string ExplainJson(std::string_view operation, const rapidjson::Value& request, const ReadWork& read_work,
                        std::string_view answer) {
  rapidjson::Document answer_doc;
  answer_doc.Parse(answer.data(), answer.size());
  rapidjson::StringBuffer b;
  model::JsonWriter w(b);
  w.StartObject();
  w.Key("operation");
  w.String(operation.data(), static_cast<rapidjson::SizeType>(operation.size()));
  for (const char* field : {"TableName", "IndexName"}) {
    if (request.IsObject() && request.HasMember(field) && request[field].IsString()) {
      w.Key(field[0] == 'T' ? "table" : "index");
      w.String(request[field].GetString(), request[field].GetStringLength());
    }
  }
  bool read = operation == "Query" || operation == "Scan";
  bool answered = !answer_doc.HasParseError() && answer_doc.IsObject();
  if (read) {
    w.Key("itemsRead");
    w.Uint64(read_work.items);
    w.Key("bytesRead");
    w.Uint64(read_work.bytes);
    if (answered && answer_doc.HasMember("Count") && answer_doc["Count"].IsNumber()) {
      w.Key("itemsReturned");
      w.Uint64(answer_doc["Count"].GetUint64());
    }
  } else if (operation == "GetItem" && answered) {
    bool found = answer_doc.HasMember("Item");
    w.Key("itemsRead");
    w.Uint(found ? 1 : 0);
    w.Key("itemsReturned");
    w.Uint(found ? 1 : 0);
  }
  if (answered && answer_doc.HasMember("ConsumedCapacity") && answer_doc["ConsumedCapacity"].IsObject() &&
      answer_doc["ConsumedCapacity"].HasMember("CapacityUnits")) {
    w.Key("readUnits");
    w.Double(answer_doc["ConsumedCapacity"]["CapacityUnits"].GetDouble());
  } else if (read) {
    bool strong = request.IsObject() && request.HasMember("ConsistentRead") && request["ConsistentRead"].IsBool() &&
                  request["ConsistentRead"].GetBool();
    w.Key("readUnits");
    w.Double(SummedReadUnits(read_work.bytes, strong ? ReadMode::kStrong : ReadMode::kEventual));
  }
  w.EndObject();
  return std::string(b.GetString(), b.GetSize());
}

}  // namespace monotable::api
