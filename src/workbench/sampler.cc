#include "workbench/sampler.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <functional>

#include "model/json_writer.h"
#include "workbench/checks.h"

namespace monotable::workbench {
namespace {

std::string Time(int64_t seconds, const std::string& format) {
  std::time_t t = 1704067200 + seconds;  // 2024-01-01T00:00:00Z
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[40];
  if (format == "epoch") return std::to_string(t);
  if (format == "epoch-ms") return std::to_string(static_cast<int64_t>(t) * 1000);
  if (format == "date") {
    std::strftime(buf, sizeof buf, "%Y-%m-%d", &tm);
    return buf;
  }
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  if (format == "iso8601ms") return std::string(buf) + ".000Z";
  if (format == "iso8601-offset") return std::string(buf) + "+00:00";
  return std::string(buf) + "Z";
}

bool IsTimeFormat(const std::string& f) {
  return f == "iso8601" || f == "iso8601ms" || f == "date" || f == "epoch" || f == "epoch-ms" || f == "iso8601-offset";
}

}  // namespace

Sampler::Sampler(const Model& model, int64_t items, double skew, uint64_t seed)
    : model_(model), items_(std::max<int64_t>(1, items)), skew_(skew), seed_(seed), rng_(seed) {
  double largest = 1;
  for (const auto& e : model.entities) largest = std::max(largest, e.count);
  scale_ = static_cast<double>(items_) / largest;
}

int64_t Sampler::Scaled(double declared) const {
  double floor = std::min(declared, 10.0);
  double v = std::clamp(std::round(declared * scale_), floor, static_cast<double>(items_));
  return std::max<int64_t>(1, static_cast<int64_t>(v));
}

int64_t Sampler::Items(const EntityDef& e) const { return Scaled(e.count); }

int64_t Sampler::PoolSize(const EntityDef& e, const std::string& attribute) const {
  return Scaled(Cardinality(model_, e, attribute));
}

int64_t Sampler::RandomIndex(const EntityDef& e, const std::string& attribute) {
  int64_t pool = PoolSize(e, attribute);
  double u = std::uniform_real_distribution<double>(0, 1)(rng_);
  if (skew_ > 0) u = std::pow(u, 1 + skew_);
  return std::min<int64_t>(pool - 1, static_cast<int64_t>(u * static_cast<double>(pool)));
}

PoolIndexes Sampler::ItemIndexes(const EntityDef& e, int64_t i) {
  // Each item draws from its own generator, so item i of an entity can be rebuilt (verify does).
  std::mt19937_64 saved = rng_;
  rng_.seed(seed_ ^ (std::hash<std::string>()(e.name) + 0x9e3779b97f4a7c15ULL * static_cast<uint64_t>(i + 1)));
  PoolIndexes out;
  auto choose = [&](const std::string& attr) {
    if (out.count(attr)) return;
    bool unique = Cardinality(model_, e, attr) >= e.count;
    out[attr] = unique ? i % PoolSize(e, attr) : RandomIndex(e, attr);
  };
  for (const auto& [name, t] : e.keys)
    for (const auto& v : t.Variables()) choose(v);
  for (const auto& a : e.attributes) choose(a.name);
  rng_ = saved;
  return out;
}

// A placeholder with no attribute of its own that is the whole template of a number (N) key: its
// values are numbers ("{dueAt}" of an LSI sort key of type N).
bool Sampler::NumberKeyPlaceholder(const EntityDef& e, const std::string& attribute) const {
  const TableDef& table = model_.tables[e.table];
  for (const auto& [name, t] : e.keys) {
    if (t.segments.size() != 1 || !t.segments[0].variable || t.segments[0].text != attribute) continue;
    const KeyAttribute* key = nullptr;
    if (table.partition_key.name == name) key = &table.partition_key;
    if (table.sort_key && table.sort_key->name == name) key = &*table.sort_key;
    for (const auto& i : table.indexes) {
      if (i.partition_key.name == name) key = &i.partition_key;
      if (i.sort_key && i.sort_key->name == name) key = &*i.sort_key;
    }
    if (key && key->type == 'N') return true;
  }
  return false;
}

std::string Sampler::Value(const EntityDef& e, const std::string& attribute, const std::string& format,
                           int64_t k) const {
  const AttributeDef* a = e.FindAttribute(attribute);
  std::string value;
  int pad = 0;
  ParseTemplateFormat(format, &pad);
  if (IsTimeFormat(format)) return Time(k * 3600, format);
  if (a && a->kind == AttrKind::kTimestamp) {
    value = Time(k * 3600, a->format.empty() ? "iso8601" : a->format);
  } else if (a && !a->values.empty()) {
    value = a->values[static_cast<size_t>(k) % a->values.size()];
  } else if ((a && a->kind == AttrKind::kNumber) || (!a && NumberKeyPlaceholder(e, attribute))) {
    value = std::to_string(a && a->shards > 0 ? k % a->shards : k + 1);
  } else if (a && a->kind == AttrKind::kBoolean) {
    value = k % 2 ? "true" : "false";
  } else {
    char letter = attribute.empty() ? 'v' : static_cast<char>(std::tolower(static_cast<unsigned char>(attribute[0])));
    if (a && a->letter_case == "mixed") letter = static_cast<char>(std::toupper(static_cast<unsigned char>(letter)));
    std::string digits = std::to_string(k);
    if (a && a->length) {
      size_t len = static_cast<size_t>(*a->length);
      if (digits.size() + 1 < len) digits = std::string(len - 1 - digits.size(), '0') + digits;
      value = (std::string(1, letter) + digits).substr(0, len);
    } else {
      value = std::string(1, letter) + digits;
    }
  }
  if (pad > 0) {
    std::string digits = value;
    if (digits.size() < static_cast<size_t>(pad))
      digits = std::string(static_cast<size_t>(pad) - digits.size(), '0') + digits;
    return digits.substr(digits.size() - static_cast<size_t>(pad));
  }
  if (format == "lower")
    for (char& c : value) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (format == "upper")
    for (char& c : value) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return value;
}

std::string Sampler::Render(const KeyTemplate& t, const EntityDef& e, const PoolIndexes& indexes) const {
  std::string out;
  for (const auto& s : t.segments) {
    if (!s.variable) {
      out += s.text;
      continue;
    }
    auto it = indexes.find(s.text);
    out += Value(e, s.text, s.format, it == indexes.end() ? 0 : it->second);
  }
  return out;
}

std::string Sampler::ItemJson(const EntityDef& e, const PoolIndexes& indexes) const {
  const TableDef& table = model_.tables[e.table];
  rapidjson::StringBuffer b;
  model::JsonWriter w(b);
  auto key_type = [&](const std::string& name) -> char {
    if (table.partition_key.name == name) return table.partition_key.type;
    if (table.sort_key && table.sort_key->name == name) return table.sort_key->type;
    for (const auto& i : table.indexes) {
      if (i.partition_key.name == name) return i.partition_key.type;
      if (i.sort_key && i.sort_key->name == name) return i.sort_key->type;
    }
    return 'S';
  };
  w.StartObject();
  for (const auto& [name, t] : e.keys) {
    w.Key(name.c_str());
    w.StartObject();
    char type = key_type(name);
    w.Key(type == 'N' ? "N" : "S");  // binary keys are written as strings of the template
    w.String(Render(t, e, indexes).c_str());
    w.EndObject();
  }
  for (const auto& a : e.attributes) {
    if (e.keys.count(a.name)) continue;
    int64_t k = indexes.count(a.name) ? indexes.at(a.name) : 0;
    std::string v = Value(e, a.name, "", k);
    w.Key(a.name.c_str());
    w.StartObject();
    int64_t n = a.items > 0 ? a.items : (a.max_items ? std::min<int64_t>(*a.max_items, 3) : 3);
    std::string element(static_cast<size_t>(std::clamp<int64_t>(a.item_size > 0 ? a.item_size : 8, 1, 1000)), 'x');
    switch (a.kind) {
      case AttrKind::kNumber:
        w.Key("N");
        w.String(v.c_str());
        break;
      case AttrKind::kBoolean:
        w.Key("BOOL");
        w.Bool(v == "true");
        break;
      case AttrKind::kTimestamp:
        w.Key(a.format == "epoch" || a.format == "epoch-ms" ? "N" : "S");
        w.String(v.c_str());
        break;
      case AttrKind::kList:
        w.Key("L");
        w.StartArray();
        for (int64_t j = 0; j < n; ++j) {
          w.StartObject();
          w.Key("S");
          w.String(element.c_str());
          w.EndObject();
        }
        w.EndArray();
        break;
      case AttrKind::kSet:
        w.Key("SS");
        w.StartArray();
        for (int64_t j = 0; j < std::max<int64_t>(1, n); ++j) w.String((element + std::to_string(j)).c_str());
        w.EndArray();
        break;
      case AttrKind::kMap:
        w.Key("M");
        w.StartObject();
        w.Key("v");
        w.StartObject();
        w.Key("S");
        w.String(
            std::string(static_cast<size_t>(std::clamp<int64_t>(a.size > 0 ? a.size : 16, 1, 350000)), 'm').c_str());
        w.EndObject();
        w.EndObject();
        break;
      default: {
        std::string text = v;
        int64_t size = a.length ? *a.length : (a.size > 0 ? a.size : 0);
        if (a.values.empty() && size > static_cast<int64_t>(text.size())) {
          text += std::string(static_cast<size_t>(std::min<int64_t>(size, 350000)) - text.size(), '.');
        }
        w.Key("S");  // binary attributes are seeded as strings of their size
        w.String(text.c_str());
        break;
      }
    }
    w.EndObject();
  }
  w.EndObject();
  return b.GetString();
}

}  // namespace monotable::workbench
