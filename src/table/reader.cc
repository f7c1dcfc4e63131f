#include "table/reader.h"

#include "model/item_codec.h"
#include "table/index_entries.h"
#include "table/keys.h"

namespace monotable::table {
namespace {

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

Result<Page> ReadRange(Database& db, const TableDescription& table, const IndexDescription* index,
                       std::string lower, std::string upper, const PageOptions& options) {
  Page page;
  std::optional<std::string> start;
  if (options.exclusive_start) start = PositionKey(table, index, *options.exclusive_start);
  auto it = db.engine().NewIterator(lower, upper);
  if (options.forward) {
    if (start) {
      it->Seek(*start);
      if (it->Valid() && it->key() == *start) it->Next();
    } else {
      it->SeekToFirst();
    }
  } else {
    if (start) {
      it->SeekForPrev(*start);
      if (it->Valid() && it->key() == *start) it->Prev();
    } else {
      it->SeekToLast();
    }
  }
  bool stopped_early = false;
  for (; it->Valid(); options.forward ? it->Next() : it->Prev()) {
    if ((options.limit && static_cast<int64_t>(page.records.size()) >= *options.limit) ||
        page.bytes_read >= options.max_bytes) {
      stopped_early = true;
      break;
    }
    MT_ASSIGN_OR_RETURN(uint64_t size, EncodedItemSize(it->value()));
    page.bytes_read += size;
    page.records.emplace_back(it->value());
  }
  MT_RETURN_IF_ERROR(it->status());
  // DynamoDB reports a LastEvaluatedKey whenever the limit is reached, even at the very end.
  bool limit_reached = options.limit && static_cast<int64_t>(page.records.size()) >= *options.limit;
  if ((stopped_early || limit_reached) && !page.records.empty()) {
    MT_ASSIGN_OR_RETURN(Item last, page.Decode(page.records.size() - 1));
    page.last_evaluated_key = LastEvaluatedKeyOf(table, index, last);
  }
  return page;
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
  if (!upper.empty() && lower >= upper) return Page{};
  return ReadRange(db, table, index, std::move(lower), std::move(upper), options);
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
  auto [lower, upper] = SegmentRange(index ? index->key_prefix : table.key_prefix, segment, total_segments);
  return ReadRange(db, table, index, std::move(lower), std::move(upper), options);
}

bool InScanSegment(const TableDescription& table, const IndexDescription* index, const Item& start, int segment,
                   int total_segments) {
  std::optional<std::string> position = PositionKey(table, index, start);
  if (!position) return true;  // not placeable: the key checks already answered for it
  auto [lower, upper] = SegmentRange(index ? index->key_prefix : table.key_prefix, segment, total_segments);
  return *position >= lower && *position < upper;
}

}  // namespace monotable::table
