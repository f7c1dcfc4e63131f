#include "model/capacity.h"

#include <algorithm>

namespace monotable {
namespace {

size_t Blocks(size_t size, size_t block) { return std::max<size_t>(1, (size + block - 1) / block); }

double Scale(double units, ReadMode mode) {
  switch (mode) {
    case ReadMode::kEventual: return units / 2;
    case ReadMode::kStrong: return units;
    case ReadMode::kTransactional: return units * 2;
  }
  return units;
}

}  // namespace

double ReadUnits(size_t item_size, ReadMode mode) { return Scale(static_cast<double>(Blocks(item_size, 4096)), mode); }

double SummedReadUnits(size_t total_bytes, ReadMode mode) { return ReadUnits(total_bytes, mode); }

double WriteUnits(size_t item_size, bool transactional) {
  double units = static_cast<double>(Blocks(item_size, 1024));
  return transactional ? units * 2 : units;
}

double IndexWriteUnits(const IndexEntryChange& c) {
  if (!c.old_size && !c.new_size) return 0;
  if (!c.old_size) return WriteUnits(*c.new_size);
  if (!c.new_size) return WriteUnits(*c.old_size);
  if (c.same_key) return c.identical ? 0 : std::max(WriteUnits(*c.old_size), WriteUnits(*c.new_size));
  return WriteUnits(*c.old_size) + WriteUnits(*c.new_size);
}

}  // namespace monotable
