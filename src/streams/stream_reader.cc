#include "streams/stream_reader.h"

#include <cstdio>
#include <ctime>

#include "common/base64.h"
#include "model/item_codec.h"

namespace monotable::streams {
namespace {

constexpr std::string_view kIteratorVersion = "1";

uint64_t Fnv1a(std::string_view bytes, uint64_t h = 1469598103934665603ULL) {
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return h;
}

std::string IteratorCheck(std::string_view arn, std::string_view body) {
  std::string out;
  AppendBigEndian64(Fnv1a(body, Fnv1a(arn)), out);
  return out;
}

std::string EncodeIterator(std::string_view arn, uint64_t position, int64_t created_ms) {
  std::string body;
  AppendBigEndian64(position, body);
  AppendBigEndian64(static_cast<uint64_t>(created_ms), body);
  body += IteratorCheck(arn, body);
  return std::string(arn) + "|" + std::string(kIteratorVersion) + "|" + Base64Encode(body);
}

struct DecodedIterator {
  std::string arn;
  uint64_t position = 0;
  int64_t created_ms = 0;
};

Result<DecodedIterator> DecodeIterator(std::string_view text) {
  Status invalid = Status::Validation("Invalid ShardIterator");
  auto last = text.rfind('|');
  if (last == std::string_view::npos || last == 0) return invalid;
  auto middle = text.rfind('|', last - 1);
  if (middle == std::string_view::npos || text.substr(middle + 1, last - middle - 1) != kIteratorVersion) {
    return invalid;
  }
  std::string_view payload = text.substr(last + 1);
  if (!IsCanonicalBase64(payload)) return invalid;
  std::string body = Base64Decode(payload);
  if (body.size() != 24) return invalid;
  DecodedIterator out;
  out.arn = std::string(text.substr(0, middle));
  if (IteratorCheck(out.arn, std::string_view(body).substr(0, 16)) != std::string_view(body).substr(16)) return invalid;
  out.position = ReadBigEndian(std::string_view(body).substr(0, 8));
  out.created_ms = static_cast<int64_t>(ReadBigEndian(std::string_view(body).substr(8, 8)));
  return out;
}

std::string FormatTime(int64_t ms) {
  auto secs = static_cast<time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, "%a %b %d %H:%M:%S UTC %Y", &tm);
  return buf;
}

Status NotFound(std::string_view arn) {
  return Status::NotFound("Requested resource not found: Stream: " + std::string(arn) + " not found");
}

}  // namespace

std::optional<StreamName> ParseStreamArn(std::string_view arn) {
  if (arn.substr(0, 4) != "arn:") return std::nullopt;
  auto table = arn.find(":table/");
  if (table == std::string_view::npos) return std::nullopt;
  std::string_view rest = arn.substr(table + 7);
  auto stream = rest.find("/stream/");
  if (stream == std::string_view::npos || stream == 0) return std::nullopt;
  StreamName name{std::string(rest.substr(0, stream)), std::string(rest.substr(stream + 8))};
  if (name.label.empty() || name.label.find('/') != std::string::npos) return std::nullopt;
  return name;
}

Result<std::shared_ptr<table::StreamLog>> FindStream(const table::StreamCatalog& streams, std::string_view arn) {
  auto name = ParseStreamArn(arn);
  if (!name) return Status::Validation("Invalid StreamArn");
  auto log = streams.Find(name->table_name, name->label);
  if (!log) return NotFound(arn);
  return log;
}

std::string ShardId(const table::StreamInfo& info, uint32_t shard) {
  std::string salt = info.table_id + "/" + info.label;
  if (shard != 0) salt += "/" + std::to_string(shard);
  char buf[64];
  std::snprintf(buf, sizeof buf, "shardId-%020llu-%08x",
                static_cast<unsigned long long>(table::ShardFirstSequence(info.start, shard)),
                static_cast<unsigned>(Fnv1a(salt) & 0xffffffffU));
  return buf;
}

std::optional<uint32_t> FindShard(const table::StreamLog& log, std::string_view shard_id) {
  table::StreamInfo info = log.info();
  for (uint32_t shard = 0; shard < log.shard_count(); ++shard) {
    if (ShardId(info, shard) == shard_id) return shard;
  }
  return std::nullopt;
}

std::string FormatSequenceNumber(uint64_t seq) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%021llu", static_cast<unsigned long long>(seq));
  return buf;
}

std::optional<uint64_t> ParseSequenceNumber(std::string_view text) {
  if (text.empty()) return std::nullopt;
  uint64_t v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    unsigned digit = static_cast<unsigned>(c - '0');
    if (v > (UINT64_MAX - digit) / 10) return std::nullopt;
    v = v * 10 + digit;
  }
  return v;
}

Result<ShardRange> RangeOf(table::StreamCatalog& streams, table::StreamLog& log, uint32_t shard) {
  const bool closed = log.closed();
  ShardRange range;
  MT_ASSIGN_OR_RETURN(range.starting, streams.Horizon(log, shard));
  if (closed) {
    MT_ASSIGN_OR_RETURN(uint64_t last, streams.Last(log, shard));
    range.ending = std::max(last, range.starting);
  }
  return range;
}

std::optional<IteratorType> ParseIteratorType(std::string_view text) {
  if (text == "TRIM_HORIZON") return IteratorType::kTrimHorizon;
  if (text == "LATEST") return IteratorType::kLatest;
  if (text == "AT_SEQUENCE_NUMBER") return IteratorType::kAtSequenceNumber;
  if (text == "AFTER_SEQUENCE_NUMBER") return IteratorType::kAfterSequenceNumber;
  return std::nullopt;
}

Result<std::string> GetShardIterator(table::StreamCatalog& streams, std::string_view arn,
                                     std::string_view shard_id, IteratorType type,
                                     std::optional<std::string_view> sequence_number, int64_t now_ms) {
  bool needs_sequence = type == IteratorType::kAtSequenceNumber || type == IteratorType::kAfterSequenceNumber;
  if (needs_sequence && !sequence_number) {
    return Status::Validation("Must specify a SequenceNumber when ShardIteratorType is AT_SEQUENCE_NUMBER or "
                              "AFTER_SEQUENCE_NUMBER");
  }
  if (!needs_sequence && sequence_number) {
    return Status::Validation("SequenceNumber may only be specified when ShardIteratorType is AT_SEQUENCE_NUMBER "
                              "or AFTER_SEQUENCE_NUMBER");
  }
  std::optional<uint64_t> seq;
  if (sequence_number) {
    seq = ParseSequenceNumber(*sequence_number);
    if (!seq) return Status::Validation("Invalid SequenceNumber: " + std::string(*sequence_number));
  }
  MT_ASSIGN_OR_RETURN(auto log, FindStream(streams, arn));
  table::StreamInfo info = log->info();
  std::optional<uint32_t> shard = FindShard(*log, shard_id);
  if (!shard) return Status::NotFound("Requested resource not found: Shard does not exist");
  // Embedded: the last number handed out (LATEST then skips records still being committed, as
  // before); in the store: the shard's head.
  uint64_t last = 0;
  if (info.disabled_ms != 0 || log->numbered_in_store()) {
    MT_ASSIGN_OR_RETURN(last, streams.Last(*log, *shard));
  } else {
    last = log->sequences().next() - 1;
  }
  MT_ASSIGN_OR_RETURN(uint64_t horizon, streams.Horizon(*log, *shard));
  uint64_t position = 0;
  switch (type) {
    case IteratorType::kTrimHorizon: position = horizon; break;
    case IteratorType::kLatest: position = last + 1; break;
    case IteratorType::kAtSequenceNumber:
    case IteratorType::kAfterSequenceNumber:
      if (*seq < table::ShardFirstSequence(info.start, *shard) || *seq > last + 1) {
        return Status::Validation("Invalid SequenceNumber " + std::string(*sequence_number) + " for shard " +
                                  std::string(shard_id));
      }
      if (*seq < horizon) {
        return Status(ErrorCode::kTrimmedDataAccess,
                      "The operation attempted to read past the oldest stream record in a shard.");
      }
      position = type == IteratorType::kAtSequenceNumber ? *seq : *seq + 1;
      break;
  }
  return EncodeIterator(arn, position, now_ms);
}

Result<RecordsPage> GetRecords(table::StreamCatalog& streams, std::string_view iterator, size_t limit, int64_t now_ms) {
  MT_ASSIGN_OR_RETURN(DecodedIterator it, DecodeIterator(iterator));
  if (now_ms - it.created_ms > kIteratorLifetimeMs) {
    return Status(ErrorCode::kExpiredIterator, "Iterator expired. The iterator was created at time " +
                                                   FormatTime(it.created_ms) + " while right now it is " +
                                                   FormatTime(now_ms) +
                                                   " which is further in the future than the tolerated delay of " +
                                                   std::to_string(kIteratorLifetimeMs) + " milliseconds.");
  }
  MT_ASSIGN_OR_RETURN(auto log, FindStream(streams, it.arn));
  MT_ASSIGN_OR_RETURN(table::ChangePage page, streams.Read(*log, it.position, limit));
  RecordsPage out;
  out.stream = log->info();
  out.changes = std::move(page.changes);
  if (!page.shard_end) out.next_iterator = EncodeIterator(it.arn, page.next, now_ms);
  return out;
}

}  // namespace monotable::streams
