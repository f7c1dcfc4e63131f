// Capacity arithmetic shared by the server, the `monotable size` tool and (later) the console.
//
// Contract (shared spec "Capacity"): a read unit covers 4 KB, a write unit 1 KB; a missing or
// empty item still costs one unit; eventually consistent reads cost half, transactional reads and
// writes double. IndexWriteUnits is the per-index arm of a write (absent->absent 0; insert or
// removal of an entry: its size; same entry key: max(old, new), 0 if identical; key change: both).
#pragma once

#include <cstddef>
#include <optional>

namespace monotable {

enum class ReadMode { kEventual, kStrong, kTransactional };

double ReadUnits(size_t item_size, ReadMode mode);
double WriteUnits(size_t item_size, bool transactional = false);

// Units of a read that sums several items' sizes and rounds once (Query, Scan).
double SummedReadUnits(size_t total_bytes, ReadMode mode);

struct IndexEntryChange {
  std::optional<size_t> old_size;  // nullopt: no entry before
  std::optional<size_t> new_size;  // nullopt: no entry after
  bool same_key = false;
  bool identical = false;
};
double IndexWriteUnits(const IndexEntryChange& change);

}  // namespace monotable
