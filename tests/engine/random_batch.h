// RandomBatch: a random engine batch for the engine tests that check against a std::map model.
#pragma once

#include <map>
#include <random>
#include <string>

#include "engine/engine.h"

namespace monotable::engine {

// One to three random puts (of `value`) and deletions (one in three) of key()s, applied to `model` too.
template <typename KeyFn>
WriteBatch RandomBatch(std::mt19937& rng, KeyFn key, const std::string& value,
                       std::map<std::string, std::string>& model) {
  WriteBatch b;
  for (int n = static_cast<int>(rng() % 3) + 1; n > 0; --n) {
    std::string k = key();
    if (rng() % 3 == 0) {
      b.mutations.push_back({k, std::nullopt});
      model.erase(k);
    } else {
      b.mutations.push_back({k, value});
      model[k] = value;
    }
  }
  return b;
}

}  // namespace monotable::engine
