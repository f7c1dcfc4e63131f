// Item size estimates for a model's entities, measured with DynamoDB's own size rules.
//
// Contract: EstimateSizes builds, for every entity, a typical item (each attribute at its typical
// size, each key attribute at its template's typical length) and a largest item (maxSize,
// maxItems), and measures them with model/ItemSize, the arithmetic the server bills with; each
// index's entry is measured from the projected attributes (table keys, index keys, INCLUDE list
// or all). An entity that lacks an index's key attributes has no entry there (size 0).
// `unbounded` names list/set/map attributes without maxItems (their typical size is counted).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "workbench/model.h"

namespace monotable::workbench {

struct EntitySizes {
  size_t typical = 0;
  size_t largest = 0;
  std::map<std::string, size_t> index_entry;  // index name -> typical entry bytes (0: not indexed)
  std::vector<std::string> unbounded;
};

using ModelSizes = std::map<std::string, EntitySizes>;  // entity name ->

ModelSizes EstimateSizes(const Model& model);

}  // namespace monotable::workbench
