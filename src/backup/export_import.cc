#include "backup/export_import.h"

#include <openssl/evp.h>
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <zlib.h>
#include <zstd.h>

#include <cstdio>
#include <memory>
#include <random>

#include "backup/dynamodb_json.h"
#include "backup/ion_text.h"
#include "common/base64.h"
#include "model/item_codec.h"
#include "model/json_writer.h"
#include "changelog/keys.h"

namespace monotable::backup {
namespace {

using Writer = model::JsonWriter;

void Str(Writer& w, const char* key, std::string_view v) {
  w.Key(key);
  w.String(v.data(), static_cast<rapidjson::SizeType>(v.size()));
}
void Int(Writer& w, const char* key, int64_t v) {
  w.Key(key);
  w.Int64(v);
}
std::string GetStr(const rapidjson::Value& v, const char* key) {
  auto it = v.FindMember(key);
  return it != v.MemberEnd() && it->value.IsString() ? std::string(it->value.GetString(), it->value.GetStringLength())
                                                     : std::string();
}
int64_t GetInt(const rapidjson::Value& v, const char* key) {
  auto it = v.FindMember(key);
  return it != v.MemberEnd() && it->value.IsInt64() ? it->value.GetInt64() : 0;
}
// A sort key of the system partition (records.h: kRecordsPartition).
std::string SystemKey(char kind) { return std::string(1, kind); }

std::string Iso8601(int64_t ms) {
  time_t seconds = ms / 1000;
  struct tm tm {};
  gmtime_r(&seconds, &tm);
  char buffer[96];
  std::snprintf(buffer, sizeof buffer, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1,
                tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(ms % 1000));
  return buffer;
}

std::string Md5(std::string_view data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  EVP_Digest(data.data(), data.size(), digest, &n, EVP_md5(), nullptr);
  return std::string(reinterpret_cast<char*>(digest), n);
}
std::string Hex(std::string_view bytes) {
  static const char* kDigits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) out += {kDigits[c >> 4], kDigits[c & 15]};
  return out;
}

std::string RandomName() {
  static thread_local std::mt19937_64 rng{std::random_device{}()};
  static const char* kAlphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
  std::string out;
  for (int i = 0; i < 26; ++i) out.push_back(kAlphabet[rng() % 36]);
  return out;
}

std::string JoinKey(std::string_view prefix, std::string_view rest) {
  std::string p(prefix);
  while (!p.empty() && p.back() == '/') p.pop_back();
  return p.empty() ? std::string(rest) : p + "/" + std::string(rest);
}

// Splits one CSV record (RFC 4180 quoting) of `line`; false when a quote is left open.
bool SplitCsv(std::string_view line, char delimiter, std::vector<std::string>& cells) {
  cells.clear();
  std::string cell;
  bool quoted = false, was_quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quoted) {
      if (c == '"') {
        if (i + 1 < line.size() && line[i + 1] == '"') {
          cell.push_back('"');
          ++i;
        } else {
          quoted = false;
        }
      } else {
        cell.push_back(c);
      }
    } else if (c == '"' && cell.empty() && !was_quoted) {
      quoted = was_quoted = true;
    } else if (c == delimiter) {
      cells.push_back(std::move(cell));
      cell.clear();
      was_quoted = false;
    } else {
      cell.push_back(c);
    }
  }
  cells.push_back(std::move(cell));
  return !quoted;
}

Result<AttributeValue> TypedCell(const std::string& text, AttrType type) {
  if (type == AttrType::kN) {
    MT_ASSIGN_OR_RETURN(Number n, Number::Parse(text));
    return AttributeValue::N(std::move(n));
  }
  if (type == AttrType::kB) {
    if (!IsCanonicalBase64(text)) return Status::Validation("Invalid base64 binary value: " + text);
    return AttributeValue::B(Base64Decode(text));
  }
  return AttributeValue::S(text);
}

// Decompresses an object's bytes as they arrive: zstd frames for ZSTD; otherwise gzip members when
// the object starts with gzip's magic bytes, else the bytes as they are (as zlib's gzread would).
class ChunkDecoder {
 public:
  explicit ChunkDecoder(bool zstd) : zstd_(zstd) {}
  ~ChunkDecoder() {
    if (zstream_) ZSTD_freeDStream(zstream_);
    if (gzip_) inflateEnd(&z_);
  }
  ChunkDecoder(const ChunkDecoder&) = delete;
  ChunkDecoder& operator=(const ChunkDecoder&) = delete;

  Status Feed(std::string_view in, const std::function<Status(std::string_view)>& out) {
    if (in.empty()) return Status::Ok();
    if (zstd_) return FeedZstd(in, out);
    if (!decided_) {
      // The first two bytes decide (one byte alone may be the start of the magic).
      head_.append(in);
      if (head_.size() < 2) return Status::Ok();
      decided_ = true;
      if (static_cast<unsigned char>(head_[0]) == 0x1f && static_cast<unsigned char>(head_[1]) == 0x8b) {
        gzip_ = true;
        if (inflateInit2(&z_, 15 + 16) != Z_OK) return Status::Io("cannot start gunzip");
      }
      std::string head = std::move(head_);
      return gzip_ ? FeedGzip(head, out) : out(head);
    }
    return gzip_ ? FeedGzip(in, out) : out(in);
  }
  // Passes on a last undecided byte; kIo when the object ended inside a compressed frame or member.
  Status Complete(const std::function<Status(std::string_view)>& out) {
    if (!decided_ && !head_.empty()) {
      decided_ = true;
      return out(head_);
    }
    return pending_ ? Status::Io("truncated data") : Status::Ok();
  }

 private:
  Status FeedGzip(std::string_view in, const std::function<Status(std::string_view)>& out) {
    z_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    z_.avail_in = static_cast<uInt>(in.size());
    // Until the input is used up and inflate had room to spare (a full buffer may leave output behind).
    do {
      z_.next_out = reinterpret_cast<Bytef*>(buffer_);
      z_.avail_out = sizeof buffer_;
      int r = inflate(&z_, Z_NO_FLUSH);
      if (r != Z_OK && r != Z_STREAM_END && r != Z_BUF_ERROR) return Status::Io("bad gzip data");
      size_t n = sizeof buffer_ - z_.avail_out;
      if (n > 0) MT_RETURN_IF_ERROR(out(std::string_view(buffer_, n)));
      pending_ = r != Z_STREAM_END;
      if (r == Z_STREAM_END && z_.avail_in > 0) inflateReset(&z_);  // another gzip member follows
      if (r == Z_BUF_ERROR && n == 0) break;
    } while (z_.avail_in > 0 || z_.avail_out == 0);
    return Status::Ok();
  }
  Status FeedZstd(std::string_view in, const std::function<Status(std::string_view)>& out) {
    if (!zstream_) {
      zstream_ = ZSTD_createDStream();
      if (!zstream_) return Status::Io("cannot start zstd");
      ZSTD_initDStream(zstream_);
    }
    ZSTD_inBuffer input{in.data(), in.size(), 0};
    ZSTD_outBuffer output{buffer_, sizeof buffer_, 0};
    do {
      output.pos = 0;
      size_t r = ZSTD_decompressStream(zstream_, &output, &input);
      if (ZSTD_isError(r)) return Status::Io("not zstd-compressed");
      pending_ = r != 0;
      if (output.pos > 0) MT_RETURN_IF_ERROR(out(std::string_view(buffer_, output.pos)));
    } while (input.pos < input.size || output.pos == output.size);
    return Status::Ok();
  }

  bool zstd_;
  bool decided_ = false, gzip_ = false, pending_ = false;
  std::string head_;
  z_stream z_{};
  ZSTD_DStream* zstream_ = nullptr;
  char buffer_[1 << 16];
};

// Calls `fn` with every line of one object (without its "\n" or "\r\n"), its number and its bytes,
// streaming the object: only the current line and a 64 KiB chunk are held.
Status ForEachLine(ObjectStore& store, const std::string& bucket, const std::string& key, bool zstd,
                   const std::function<Status(std::string_view, size_t, size_t)>& fn) {
  auto decoder = std::make_unique<ChunkDecoder>(zstd);
  std::string line;
  size_t number = 0;
  auto lines = [&](std::string_view data) -> Status {
    while (!data.empty()) {
      size_t nl = data.find('\n');
      if (nl == std::string_view::npos) {
        line.append(data);
        return Status::Ok();
      }
      line.append(data.substr(0, nl));
      data.remove_prefix(nl + 1);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      MT_RETURN_IF_ERROR(fn(line, ++number, line.size() + 1));
      line.clear();
    }
    return Status::Ok();
  };
  Status st = store.Get(bucket, key, [&](std::string_view chunk) -> Status {
    Status decoded = decoder->Feed(chunk, lines);
    if (!decoded.ok() && decoded.code() == ErrorCode::kIo) {
      return Status::Io("cannot read " + key + (zstd ? " (not zstd-compressed?)" : ": " + decoded.message()));
    }
    return decoded;
  });
  MT_RETURN_IF_ERROR(st);
  st = decoder->Complete(lines);
  if (!st.ok() && st.code() == ErrorCode::kIo) {
    return Status::Io("cannot read " + key + (zstd ? " (not zstd-compressed?)" : ": truncated gzip data"));
  }
  MT_RETURN_IF_ERROR(st);
  if (!line.empty()) return fn(line, ++number, line.size());
  return Status::Ok();
}

}  // namespace

std::string Gzip(std::string_view data) {
  z_stream z{};
  deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&z, data.size()) + 64, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

std::string ExportKey(std::string_view id) { return SystemKey('E') + std::string(id); }
std::string ExportKeysBegin() { return SystemKey('E'); }
std::string ExportKeysEnd() { return SystemKey('E' + 1); }
std::string ImportKey(std::string_view id) { return SystemKey('I') + std::string(id); }
std::string ImportKeysBegin() { return SystemKey('I'); }
std::string ImportKeysEnd() { return SystemKey('I' + 1); }

std::string EncodeExport(const ExportRecord& r) {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  Str(w, "id", r.id);
  Str(w, "table_name", r.table_name);
  Str(w, "table_id", r.table_id);
  Str(w, "table_arn", r.table_arn);
  Str(w, "export_arn", r.export_arn);
  Str(w, "status", r.status);
  Int(w, "start_ms", r.start_ms);
  Int(w, "end_ms", r.end_ms);
  Int(w, "export_ms", r.export_ms);
  Str(w, "bucket", r.bucket);
  Str(w, "bucket_owner", r.bucket_owner);
  Str(w, "prefix", r.prefix);
  Str(w, "sse_algorithm", r.sse_algorithm);
  Str(w, "sse_kms_key", r.sse_kms_key);
  Str(w, "format", r.format);
  Str(w, "export_type", r.export_type);
  Int(w, "from_ms", r.from_ms);
  Int(w, "to_ms", r.to_ms);
  Str(w, "view_type", r.view_type);
  Str(w, "client_token", r.client_token);
  Str(w, "manifest", r.manifest);
  Int(w, "item_count", r.item_count);
  Int(w, "billed_bytes", r.billed_bytes);
  Str(w, "failure_code", r.failure_code);
  Str(w, "failure_message", r.failure_message);
  w.EndObject();
  return {buffer.GetString(), buffer.GetSize()};
}

Result<ExportRecord> DecodeExport(std::string_view json) {
  rapidjson::Document d;
  d.Parse(json.data(), json.size());
  if (d.HasParseError() || !d.IsObject()) return Status(ErrorCode::kCorruption, "bad export record");
  ExportRecord r;
  r.id = GetStr(d, "id");
  r.table_name = GetStr(d, "table_name");
  r.table_id = GetStr(d, "table_id");
  r.table_arn = GetStr(d, "table_arn");
  r.export_arn = GetStr(d, "export_arn");
  r.status = GetStr(d, "status");
  r.start_ms = GetInt(d, "start_ms");
  r.end_ms = GetInt(d, "end_ms");
  r.export_ms = GetInt(d, "export_ms");
  r.bucket = GetStr(d, "bucket");
  r.bucket_owner = GetStr(d, "bucket_owner");
  r.prefix = GetStr(d, "prefix");
  r.sse_algorithm = GetStr(d, "sse_algorithm");
  r.sse_kms_key = GetStr(d, "sse_kms_key");
  r.format = GetStr(d, "format");
  r.export_type = GetStr(d, "export_type");
  if (r.export_type.empty()) r.export_type = "FULL_EXPORT";
  r.from_ms = GetInt(d, "from_ms");
  r.to_ms = GetInt(d, "to_ms");
  r.view_type = GetStr(d, "view_type");
  r.client_token = GetStr(d, "client_token");
  r.manifest = GetStr(d, "manifest");
  r.item_count = GetInt(d, "item_count");
  r.billed_bytes = GetInt(d, "billed_bytes");
  r.failure_code = GetStr(d, "failure_code");
  r.failure_message = GetStr(d, "failure_message");
  if (r.id.empty() || r.export_arn.empty()) return Status(ErrorCode::kCorruption, "bad export record");
  return r;
}

std::string EncodeImport(const ImportRecord& r) {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  Str(w, "id", r.id);
  Str(w, "table_name", r.table_name);
  Str(w, "table_id", r.table_id);
  Str(w, "table_arn", r.table_arn);
  Str(w, "import_arn", r.import_arn);
  Str(w, "status", r.status);
  Int(w, "start_ms", r.start_ms);
  Int(w, "end_ms", r.end_ms);
  Str(w, "bucket", r.bucket);
  Str(w, "bucket_owner", r.bucket_owner);
  Str(w, "key_prefix", r.key_prefix);
  Str(w, "input_format", r.input_format);
  Str(w, "compression", r.compression);
  Str(w, "csv_delimiter", r.csv_delimiter);
  w.Key("csv_headers");
  w.StartArray();
  for (const auto& h : r.csv_headers) w.String(h.data(), static_cast<rapidjson::SizeType>(h.size()));
  w.EndArray();
  Str(w, "client_token", r.client_token);
  Str(w, "creation_parameters", r.creation_parameters);
  Int(w, "processed_bytes", r.processed_bytes);
  Int(w, "processed_items", r.processed_items);
  Int(w, "imported_items", r.imported_items);
  Int(w, "error_count", r.error_count);
  Str(w, "failure_code", r.failure_code);
  Str(w, "failure_message", r.failure_message);
  w.EndObject();
  return {buffer.GetString(), buffer.GetSize()};
}

Result<ImportRecord> DecodeImport(std::string_view json) {
  rapidjson::Document d;
  d.Parse(json.data(), json.size());
  if (d.HasParseError() || !d.IsObject()) return Status(ErrorCode::kCorruption, "bad import record");
  ImportRecord r;
  r.id = GetStr(d, "id");
  r.table_name = GetStr(d, "table_name");
  r.table_id = GetStr(d, "table_id");
  r.table_arn = GetStr(d, "table_arn");
  r.import_arn = GetStr(d, "import_arn");
  r.status = GetStr(d, "status");
  r.start_ms = GetInt(d, "start_ms");
  r.end_ms = GetInt(d, "end_ms");
  r.bucket = GetStr(d, "bucket");
  r.bucket_owner = GetStr(d, "bucket_owner");
  r.key_prefix = GetStr(d, "key_prefix");
  r.input_format = GetStr(d, "input_format");
  r.compression = GetStr(d, "compression");
  r.csv_delimiter = GetStr(d, "csv_delimiter");
  const rapidjson::Value& object = d;  // const: RapidJSON's mutable member iterators compare ambiguously in C++20
  if (auto it = object.FindMember("csv_headers"); it != object.MemberEnd() && it->value.IsArray()) {
    for (const auto& h : it->value.GetArray()) {
      if (h.IsString()) r.csv_headers.emplace_back(h.GetString(), h.GetStringLength());
    }
  }
  r.client_token = GetStr(d, "client_token");
  r.creation_parameters = GetStr(d, "creation_parameters");
  r.processed_bytes = GetInt(d, "processed_bytes");
  r.processed_items = GetInt(d, "processed_items");
  r.imported_items = GetInt(d, "imported_items");
  r.error_count = GetInt(d, "error_count");
  r.failure_code = GetStr(d, "failure_code");
  r.failure_message = GetStr(d, "failure_message");
  if (r.id.empty() || r.import_arn.empty()) return Status(ErrorCode::kCorruption, "bad import record");
  return r;
}

bool SafeLocation(std::string_view bucket, std::string_view prefix) {
  if (bucket.empty() || bucket.find('/') != std::string_view::npos || bucket.find("..") != std::string_view::npos) {
    return false;
  }
  size_t start = 0;
  while (start <= prefix.size()) {
    size_t end = prefix.find('/', start);
    if (end == std::string_view::npos) end = prefix.size();
    if (prefix.substr(start, end - start) == "..") return false;
    start = end + 1;
  }
  return true;
}

Status WriteExport(ObjectStore& store, ExportRecord& record, const LineSource& source, int64_t max_file_bytes) {
  std::string base = JoinKey(record.prefix, "AWSDynamoDB/" + record.id);
  const std::string& bucket = record.bucket;
  MT_RETURN_IF_ERROR(store.CheckBucket(bucket));
  MT_RETURN_IF_ERROR(store.Put(bucket, base + "/_started", ""));

  std::string manifest_files;
  std::string lines;
  int64_t in_file = 0;
  auto flush = [&]() -> Status {
    if (in_file == 0) return Status::Ok();
    bool ion = record.format == "ION";
    std::string gz = Gzip(ion ? std::string(kIonVersionMarker) + " " + lines : lines);
    std::string key = base + "/data/" + RandomName() + (ion ? ".ion.gz" : ".json.gz");
    MT_RETURN_IF_ERROR(store.Put(bucket, key, gz));
    std::string md5 = Md5(gz);
    rapidjson::StringBuffer buffer;
    Writer w(buffer);
    w.StartObject();
    Int(w, "itemCount", in_file);
    Str(w, "md5Checksum", Base64Encode(md5));
    Str(w, "etag", Hex(md5));
    Str(w, "dataFileS3Key", key);
    w.EndObject();
    manifest_files.append(buffer.GetString(), buffer.GetSize());
    manifest_files.push_back('\n');
    lines.clear();
    in_file = 0;
    return Status::Ok();
  };
  MT_RETURN_IF_ERROR(source([&](std::string_view line, int64_t bytes) -> Status {
    lines += line;
    lines.push_back('\n');
    record.item_count++;
    record.billed_bytes += bytes;
    if (++in_file >= kItemsPerDataFile || static_cast<int64_t>(lines.size()) >= max_file_bytes) return flush();
    return Status::Ok();
  }));
  MT_RETURN_IF_ERROR(flush());
  std::string files_key = base + "/manifest-files.json";
  MT_RETURN_IF_ERROR(store.Put(bucket, files_key, manifest_files));
  MT_RETURN_IF_ERROR(store.Put(bucket, base + "/manifest-files.checksum", Base64Encode(Md5(manifest_files))));

  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  Str(w, "version", "2020-06-30");
  Str(w, "exportArn", record.export_arn);
  Str(w, "startTime", Iso8601(record.start_ms));
  Str(w, "endTime", Iso8601(record.end_ms));
  Str(w, "tableArn", record.table_arn);
  Str(w, "tableId", record.table_id);
  Str(w, "exportTime", Iso8601(record.export_ms));
  Str(w, "s3Bucket", record.bucket);
  w.Key("s3Prefix");
  if (record.prefix.empty())
    w.Null();
  else
    w.String(record.prefix.c_str());
  Str(w, "s3SseAlgorithm", record.sse_algorithm.empty() ? "AES256" : record.sse_algorithm);
  w.Key("s3SseKmsKeyId");
  if (record.sse_kms_key.empty())
    w.Null();
  else
    w.String(record.sse_kms_key.c_str());
  Str(w, "manifestFilesS3Key", files_key);
  Int(w, "billedSizeBytes", record.billed_bytes);
  Int(w, "itemCount", record.item_count);
  Str(w, "outputFormat", record.format);
  Str(w, "exportType", record.export_type);
  if (record.export_type == "INCREMENTAL_EXPORT") {
    Str(w, "exportFromTime", Iso8601(record.from_ms));
    Str(w, "exportToTime", Iso8601(record.to_ms));
    Str(w, "exportViewType", record.view_type);
  }
  w.EndObject();
  std::string summary(buffer.GetString(), buffer.GetSize());
  std::string summary_key = base + "/manifest-summary.json";
  MT_RETURN_IF_ERROR(store.Put(bucket, summary_key, summary));
  MT_RETURN_IF_ERROR(store.Put(bucket, base + "/manifest-summary.checksum", Base64Encode(Md5(summary))));
  record.manifest = summary_key;
  return Status::Ok();
}

Status ReadImport(ObjectStore& store, ImportRecord& record, const TableDescription& table,
                  const std::function<Status(const Item&)>& item,
                  const std::function<void(const std::string& where, const std::string& why)>& bad_line) {
  MT_ASSIGN_OR_RETURN(std::vector<std::string> keys, store.ListAll(record.bucket, record.key_prefix));
  bool csv = record.input_format == "CSV";
  char delimiter = record.csv_delimiter.empty() ? ',' : record.csv_delimiter[0];
  std::vector<std::string> cells;
  for (const auto& key : keys) {
    std::vector<std::string> headers = record.csv_headers;
    bool header_pending = csv && headers.empty();
    bool zstd = record.compression == "ZSTD";
    MT_RETURN_IF_ERROR(
        ForEachLine(store, record.bucket, key, zstd, [&](std::string_view line, size_t number, size_t bytes) -> Status {
          record.processed_bytes += static_cast<int64_t>(bytes);
          if (line.empty()) return Status::Ok();
          std::string where = key + ":" + std::to_string(number);
          if (header_pending) {
            header_pending = false;
            if (!SplitCsv(line, delimiter, headers)) bad_line(where, "unterminated quoted header");
            return Status::Ok();
          }
          record.processed_items++;
          Result<Item> parsed = Status::Validation("");
          if (csv) {
            if (!SplitCsv(line, delimiter, cells)) {
              parsed = Status::Validation("unterminated quoted value");
            } else if (cells.size() > headers.size()) {
              parsed = Status::Validation("more values than headers");
            } else {
              Item built;
              Status st;
              for (size_t i = 0; i < cells.size() && st.ok(); ++i) {
                if (cells[i].empty()) continue;
                auto type = table.AttributeType(headers[i]);
                bool key_attribute = false;
                for (const auto& k : table.key_schema) key_attribute |= k.name == headers[i];
                auto value = TypedCell(cells[i], key_attribute && type ? *type : AttrType::kS);
                if (!value.ok())
                  st = value.status();
                else
                  built[headers[i]] = std::move(*value);
              }
              parsed = st.ok() ? Result<Item>(std::move(built)) : Result<Item>(st);
            }
          } else if (record.input_format == "ION") {
            parsed = IonItemFromLine(line);
            if (!parsed.ok() && parsed.status().code() == ErrorCode::kResourceNotFound) {
              record.processed_items--;  // only the version marker
              return Status::Ok();
            }
          } else {
            parsed = ItemFromLine(line);
          }
          Status valid = parsed.ok() ? table::ValidateItemKeys(table, *parsed) : parsed.status();
          if (valid.ok() && ItemSize(*parsed) > 409600)
            valid = Status::Validation("Item size has exceeded the maximum allowed size");
          if (!valid.ok()) {
            record.error_count++;
            bad_line(where, valid.message());
            return Status::Ok();
          }
          MT_RETURN_IF_ERROR(item(*parsed));
          record.imported_items++;
          return Status::Ok();
        }));
  }
  return Status::Ok();
}

}  // namespace monotable::backup
