#include "table/reader.h"

#include "model/item_codec.h"
#include "changelog/index_entries.h"
#include "changelog/keys.h"

namespace monotable::table {
namespace {

// An LSI's keyspace is colocated with its table's (engine.h): its reads name the table's keyspace.
uint32_t HomeOf(const TableDescription& table, const IndexDescription* index) {
  return index && !index->global ? table.key_prefix : engine::kNotColocated;
}

// Escaped bytes of a string/binary value without its terminator: the prefix every value that
// begins with it shares.
std::string BeginsWithPrefix(const AttributeValue& v) {
  std::string full;
  AppendKeyComponent(v, full);
  if (v.type() == AttrType::kN) return full;
  full.resize(full.size() - 2);  // drop the 0x00 0x01 terminator
  return full;
}

std::string Component(const AttributeValue& v) {
  std::string out;
  AppendKeyComponent(v, out);
  return out;
}

// Collects a page from the entries a store read visits (in read order): stops once the limit or
// 1 MB is reached, noting whether another entry was there (DynamoDB then reports a position).
class PageCollector {
 public:
  explicit PageCollector(const PageOptions& options) : options_(options) {}

  engine::EntryVisitor Visitor() {
    return [this](std::string_view, std::string_view value) {
      if ((options_.limit && static_cast<int64_t>(page_.records.size()) >= *options_.limit) ||
          page_.bytes_read >= options_.max_bytes) {
        stopped_early_ = true;
        return false;
      }
      auto size = EncodedItemSize(value);
      if (!size.ok()) {
        error_ = size.status();
        return false;
      }
      page_.bytes_read += *size;
      page_.records.emplace_back(value);
      return true;
    };
  }

  Result<Page> Finish(Status read, const TableDescription& table, const IndexDescription* index) {
    MT_RETURN_IF_ERROR(error_);
    MT_RETURN_IF_ERROR(read);
    // DynamoDB reports a LastEvaluatedKey whenever the limit is reached, even at the very end.
    bool limit_reached = options_.limit && static_cast<int64_t>(page_.records.size()) >= *options_.limit;
    if ((stopped_early_ || limit_reached) && !page_.records.empty()) {
      MT_ASSIGN_OR_RETURN(Item last, page_.Decode(page_.records.size() - 1));
      page_.last_evaluated_key = LastEvaluatedKeyOf(table, index, last);
    }
    return std::move(page_);
  }

 private:
  const PageOptions& options_;
  Page page_;
  bool stopped_early_ = false;
  Status error_;
};

// The smallest key after `key`.
std::string Next(std::string key) {
  key.push_back('\0');
  return key;
}

// Reads the entries of one partition (`keyspace`, `partition_id`) whose full engine keys
// ([keyspace u32][partition id][sort key]) lie in [lower, upper) (empty upper: no bound), after
// the exclusive start position if any, in the options' direction.
Result<Page> ReadPartition(Database& db, const TableDescription& table, const IndexDescription* index,
                           uint32_t keyspace, std::string_view partition_id, std::string lower, std::string upper,
                           const PageOptions& options) {
  if (options.exclusive_start) {
    if (auto start = PositionKey(table, index, *options.exclusive_start)) {
      if (options.forward) {
        if (Next(*start) > lower) lower = Next(std::move(*start));
      } else if (upper.empty() || *start < upper) {
        upper = std::move(*start);
      }
    }
  }
  if (!upper.empty() && lower >= upper) return Page{};
  // Clamp the full-key range to the partition and express it in sort keys.
  std::string prefix = PrefixBytes(keyspace);
  prefix.append(partition_id);
  std::string end = PrefixSuccessor(prefix);
  std::string_view sort_lower, sort_upper;
  if (lower.compare(0, prefix.size(), prefix) == 0) {
    sort_lower = std::string_view(lower).substr(prefix.size());
  } else if (lower > prefix) {
    return Page{};  // the range starts after the partition
  }
  if (!upper.empty() && (end.empty() || upper < end)) {
    if (upper.compare(0, prefix.size(), prefix) == 0) {
      sort_upper = std::string_view(upper).substr(prefix.size());
      if (sort_upper.empty()) return Page{};  // ends where the partition starts
    } else {
      return Page{};  // the range ends before the partition
    }
  }
  PageCollector collect(options);
  Status read = db.store().ReadRange({keyspace, partition_id, HomeOf(table, index)},
                                     {sort_lower, sort_upper, options.forward},
                                     collect.Visitor());
  return collect.Finish(std::move(read), table, index);
}

}  // namespace

Result<Item> Page::Decode(size_t i) const { return DecodeItem(records[i]); }

Result<Page> QueryPartition(Database& db, const TableHandle& handle, const IndexDescription* index,
                            const std::vector<AttributeValue>& partition, const SortCondition& sort,
                            const PageOptions& options) {
  const TableDescription& table = *handle.description;
  std::string prefix;
  AppendBigEndian32(index ? index->key_prefix : table.key_prefix, prefix);
  std::string components;
  for (const auto& v : partition) AppendKeyComponent(v, components);
  uint64_t hash = partition.size() == 1 ? PartitionHash(partition[0]) : PartitionHash(AttributeValue::B(components));
  AppendBigEndian64(hash, prefix);
  prefix += components;
  for (const auto& v : sort.equal_prefix) AppendKeyComponent(v, prefix);

  std::string lower = prefix, upper = PrefixSuccessor(prefix);
  switch (sort.op) {
    case SortOp::kNone: break;
    case SortOp::kEq:
      lower = prefix + Component(sort.first);
      upper = PrefixSuccessor(lower);
      break;
    case SortOp::kLt: upper = prefix + Component(sort.first); break;
    case SortOp::kLe: upper = PrefixSuccessor(prefix + Component(sort.first)); break;
    case SortOp::kGt: lower = PrefixSuccessor(prefix + Component(sort.first)); break;
    case SortOp::kGe: lower = prefix + Component(sort.first); break;
    case SortOp::kBetween:
      lower = prefix + Component(sort.first);
      upper = PrefixSuccessor(prefix + Component(sort.second));
      break;
    case SortOp::kBeginsWith:
      lower = prefix + BeginsWithPrefix(sort.first);
      upper = PrefixSuccessor(lower);
      break;
  }
  const uint32_t keyspace = index ? index->key_prefix : table.key_prefix;
  std::string partition_id;
  AppendBigEndian64(hash, partition_id);
  partition_id += components;
  return ReadPartition(db, table, index, keyspace, partition_id, std::move(lower), std::move(upper), options);
}

namespace {

// Segment i of n covers partition hashes [i * 2^64 / n, (i + 1) * 2^64 / n): its engine key range.
std::pair<std::string, std::string> SegmentRange(uint32_t key_prefix, int segment, int total_segments) {
  auto bound = [&](int i) -> std::string {
    std::string key = PrefixBytes(key_prefix);
    if (i >= total_segments) return PrefixBytes(key_prefix + 1);
    unsigned __int128 h = (static_cast<unsigned __int128>(1) << 64) * static_cast<unsigned>(i) /
                          static_cast<unsigned>(total_segments);
    AppendBigEndian64(static_cast<uint64_t>(h), key);
    return key;
  };
  return {segment == 0 ? PrefixBytes(key_prefix) : bound(segment), bound(segment + 1)};
}

}  // namespace

Result<Page> ScanSegment(Database& db, const TableHandle& handle, const IndexDescription* index, int segment,
                         int total_segments, const PageOptions& options) {
  const TableDescription& table = *handle.description;
  const uint32_t keyspace = index ? index->key_prefix : table.key_prefix;
  auto [lower, upper] = SegmentRange(keyspace, segment, total_segments);
  if (options.exclusive_start) {
    if (auto start = PositionKey(table, index, *options.exclusive_start)) {
      if (Next(*start) > lower) lower = Next(std::move(*start));
    }
  }
  if (lower >= upper) return Page{};
  // The partition directory, in hash order, from the segment's first hash (or the resume point)
  // up to the next segment's: keys without their keyspace bytes.
  std::string_view from = std::string_view(lower).substr(4);
  std::string_view to = upper.compare(0, 4, PrefixBytes(keyspace)) == 0 ? std::string_view(upper).substr(4)
                                                                        : std::string_view();
  PageCollector collect(options);
  Status read = db.store().ScanKeyspace({keyspace, HomeOf(table, index)}, from, to, collect.Visitor());
  return collect.Finish(std::move(read), table, index);
}

bool InScanSegment(const TableDescription& table, const IndexDescription* index, const Item& start, int segment,
                   int total_segments) {
  std::optional<std::string> position = PositionKey(table, index, start);
  if (!position) return true;  // not placeable: the key checks already answered for it
  auto [lower, upper] = SegmentRange(index ? index->key_prefix : table.key_prefix, segment, total_segments);
  return *position >= lower && *position < upper;
}

}  // namespace monotable::table
