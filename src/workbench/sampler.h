// Sample data for a model: values for the placeholders and attributes of generated items, and
// inputs for access patterns drawn from the same pools, so a pattern run after `model seed`
// finds the items the seed wrote.
//
// Contract:
// - The data is the model scaled down: the largest entity gets `items` items, every other entity
//   and every attribute's pool of values keeps its declared proportion (Items(e) = e.count x
//   items / largest count; PoolSize = the attribute's Cardinality (checks.h) scaled alike), never
//   fewer than min(declared, 10) so small enumerations and games stay whole, never more than
//   `items`. Pool values are indexed 0..PoolSize-1; value k of a pool is deterministic and
//   has the placeholder's shape: iso8601 times an hour apart from 2024-01-01T00:00:00Z, padN
//   numbers, enumerated values in turn, shard numbers, numbers for a placeholder without an
//   attribute that is a whole number (N) key's template, ids "<letter><k>" (fixed length when the
//   attribute has one; never a '#').
// - ItemIndexes(e, i) chooses the pool index of each attribute for item i of entity e: an
//   attribute unique per item takes i, the others a random index (skew > 0 favours low indexes:
//   k = PoolSize * u^(1+skew)). Deterministic per (seed, entity, i): a verifier with the same
//   seed and item count rebuilds any seeded item's values and uses them as inputs.
// - ItemJson renders the item in DynamoDB JSON: key attributes from their templates, the other
//   attributes typed (numbers N, booleans BOOL, lists L, sets SS, maps M, the rest S).
// - Render(t, e, indexes) writes a template with given pool indexes.
#pragma once

#include <cstdint>
#include <map>
#include <random>
#include <string>

#include "workbench/model.h"

namespace monotable::workbench {

using PoolIndexes = std::map<std::string, int64_t>;  // attribute -> pool index

class Sampler {
 public:
  Sampler(const Model& model, int64_t items, double skew, uint64_t seed);

  int64_t Items(const EntityDef& e) const;
  int64_t PoolSize(const EntityDef& e, const std::string& attribute) const;
  PoolIndexes ItemIndexes(const EntityDef& e, int64_t i);
  std::string ItemJson(const EntityDef& e, const PoolIndexes& indexes) const;
  std::string Render(const KeyTemplate& t, const EntityDef& e, const PoolIndexes& indexes) const;
  // A random pool index for an input of a pattern whose first entity is `e`.
  int64_t RandomIndex(const EntityDef& e, const std::string& attribute);

 private:
  std::string Value(const EntityDef& e, const std::string& attribute, const std::string& format, int64_t k) const;
  bool NumberKeyPlaceholder(const EntityDef& e, const std::string& attribute) const;

  int64_t Scaled(double declared) const;

  const Model& model_;
  int64_t items_;
  double scale_ = 1;
  double skew_;
  uint64_t seed_;
  std::mt19937_64 rng_;
};

}  // namespace monotable::workbench
