// SELECT execution: one page of a GetItem / Query / Scan plan.
#include "api/partiql/executor.h"
#include "api/partiql/next_token.h"
#include "api/read_charge.h"
#include "expr/evaluator.h"
#include "model/capacity.h"
#include "changelog/keys.h"
#include "table/reader.h"

namespace monotable::api::partiql {
namespace {

constexpr uint64_t kPageBytes = 1024 * 1024;

struct PageState {
  const PreparedStatement& s;
  ExecResult& out;
  table::Database& db;
  uint64_t bytes = 0;    // everything read: index entries or table items, plus LSI fetches
  uint64_t fetched = 0;  // of which table items an LSI read fetched
  std::vector<uint64_t> fetched_sizes;  // each of those, charged as a whole-item read of its own

  // Filters, projects and keeps one item that was read (fetching the table item for an LSI read
  // of attributes the index does not project).
  Status Take(Item item) {
    if (s.fetch_from_table) {
      MT_ASSIGN_OR_RETURN(auto full, db.GetItem(*s.table, table::ExtractKey(*s.table->description, item)));
      if (!full) return Status::Ok();
      bytes += ItemSize(*full);
      fetched += ItemSize(*full);
      fetched_sizes.push_back(ItemSize(*full));
      item = std::move(*full);
    }
    if (!s.where.Evaluate(&item)) return Status::Ok();
    out.items.push_back(Project(s, item));
    return Status::Ok();
  }
};

Status ReadKeys(table::Database& db, const PreparedStatement& s, bool consistent, PageState& state) {
  for (const Item& key : s.read.keys) {
    MT_ASSIGN_OR_RETURN(auto item, db.GetItem(*s.table, key));
    double units =
        monotable::ReadUnits(item ? ItemSize(*item) : 0, consistent ? ReadMode::kStrong : ReadMode::kEventual);
    MT_RETURN_IF_ERROR(ChargeItemRead(db, *s.table, key, units));
    state.out.consumed.table += units;
    if (item) MT_RETURN_IF_ERROR(state.Take(std::move(*item)));
  }
  return Status::Ok();
}

Status ReadPages(table::Database& db, const PreparedStatement& s, const ExecOptions& options, PagePosition position,
                 PageState& state) {
  std::optional<int64_t> remaining = options.limit;
  const bool query = s.read.kind == AccessKind::kQuery;
  size_t count = query ? s.read.partitions.size() : 1;
  for (size_t i = position.partition; i < count; ++i) {
    if (state.bytes >= kPageBytes || (remaining && *remaining <= 0)) {
      state.out.next_token = EncodeNextToken(s, {i, std::nullopt});
      break;
    }
    table::PageOptions page_options;
    page_options.forward = s.read.forward;
    page_options.limit = remaining;
    page_options.max_bytes = kPageBytes - state.bytes;
    const Item* start = i == position.partition && position.start ? &*position.start : nullptr;
    page_options.exclusive_start = start;
    MT_ASSIGN_OR_RETURN(table::Page page, query ? table::QueryPartition(db, *s.table, s.index, s.read.partitions[i],
                                                                        s.read.sort, page_options)
                                                : table::ScanSegment(db, *s.table, s.index, 0, 1, page_options));
    state.bytes += page.bytes_read;
    if (remaining) *remaining -= static_cast<int64_t>(page.records.size());
    for (size_t r = 0; r < page.records.size(); ++r) {
      MT_ASSIGN_OR_RETURN(Item item, page.Decode(r));
      MT_RETURN_IF_ERROR(state.Take(std::move(item)));
    }
    if (page.last_evaluated_key) {
      state.out.last_evaluated_key = page.last_evaluated_key;
      state.out.next_token = EncodeNextToken(s, {i, std::move(page.last_evaluated_key)});
      break;
    }
  }
  return Status::Ok();
}

// Charges a Query / Scan page like the Query and Scan operations: the summed size rounded once, to
// the index read (or the table), in the partition read when there was exactly one, plus every
// table item an LSI read fetched, each rounded on its own; the response splits it into the index
// arm and, for those fetches, the table arm.
Status ChargePages(table::Database& db, const PreparedStatement& s, bool consistent, PageState& state) {
  ReadMode mode = consistent ? ReadMode::kStrong : ReadMode::kEventual;
  double fetch_units = 0;
  for (uint64_t size : state.fetched_sizes) fetch_units += monotable::ReadUnits(size, mode);
  double units = SummedReadUnits(state.bytes - state.fetched, mode) + fetch_units;
  const AttributeValue* partition = nullptr;
  if (s.read.kind == AccessKind::kQuery && s.read.partitions.size() == 1 && s.read.partitions[0].size() == 1) {
    partition = &s.read.partitions[0][0];
  }
  MT_RETURN_IF_ERROR(db.throughput().Consume(*s.table->description, s.index, partition, units, /*write=*/false,
                                             s.table->stats->size_bytes.load(std::memory_order_relaxed)));
  Consumption& consumed = state.out.consumed;
  if (!s.index) {
    consumed.table = units;
    return Status::Ok();
  }
  double index_units = SummedReadUnits(state.bytes - state.fetched, mode);
  (s.index->global ? consumed.global_indexes : consumed.local_indexes).emplace_back(s.index->name, index_units);
  if (!state.fetched_sizes.empty()) consumed.table = fetch_units;
  return Status::Ok();
}

}  // namespace

Item Project(const PreparedStatement& s, const Item& item) {
  if (s.ast.select_star) return item;
  Item out;
  for (const auto& p : s.projection) {
    if (const AttributeValue* v = expr::Lookup(item, p.path)) out.emplace(p.output_name, *v);
  }
  return out;
}

ExecResult RunSelect(table::Database& db, const PreparedStatement& s, const ExecOptions& options) {
  ExecResult out;
  if (s.index && s.index->global && options.consistent) {
    out.status = Status::Validation("Strongly consistent read is not supported on Global Secondary Indexes");
    return out;
  }
  PagePosition position;
  if (!options.next_token.empty()) {
    auto decoded = DecodeNextToken(s, options.next_token);
    if (!decoded.ok()) {
      out.status = decoded.status();
      return out;
    }
    position = std::move(decoded).value();
  }
  RecordStatement("SELECT", s.table->description->name, s.index ? s.index->name : "", s.read.kind, false);
  PageState state{s, out, db, 0, 0, {}};
  if (s.read.kind == AccessKind::kGetItem) {
    out.status = ReadKeys(db, s, options.consistent, state);
  } else {
    out.status = ReadPages(db, s, options, std::move(position), state);
    if (out.status.ok()) out.status = ChargePages(db, s, options.consistent, state);
  }
  if (!out.status.ok()) {
    out.items.clear();
    out.next_token.reset();
    out.last_evaluated_key.reset();
  }
  return out;
}

}  // namespace monotable::api::partiql
