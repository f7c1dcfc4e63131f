// Measuring stored items without decoding them (EncodedItemSize, src/model/item_codec.h): Query and
// Scan measure every item they read, for the 1 MB page limit and the capacity they charge.
// Items as bench.py's Query workloads store them (pk, sk, a number and a padding string), and one
// with nested lists, maps and sets.
//
//   build/item_size_bench [--benchmark_filter=...]
#include <benchmark/benchmark.h>

#include "model/item_codec.h"

namespace monotable {
namespace {

Item CollectionItem() {
  return {{"pk", AttributeValue::S("p123")}, {"sk", AttributeValue::N(Number::FromInt(7))},
          {"n", AttributeValue::N(Number::Parse("123456.789").value())},
          {"payload", AttributeValue::S(std::string(150, 'x'))}};
}

Item NestedItem() {
  Item item = CollectionItem();
  item["list"] = AttributeValue::L({AttributeValue::N(Number::FromInt(1)), AttributeValue::S("two"),
                                    AttributeValue::M({{"three", AttributeValue::NS({Number::FromInt(3)})}})});
  item["tags"] = AttributeValue::SS({"a", "bb", "ccc"});
  return item;
}

void Measure(benchmark::State& state, const Item& item) {
  const std::string bytes = EncodeItem(item);
  for (auto _ : state) {
    auto size = EncodedItemSize(bytes);
    benchmark::DoNotOptimize(size);
  }
}

void BM_EncodedItemSize_Collection(benchmark::State& state) { Measure(state, CollectionItem()); }
void BM_EncodedItemSize_Nested(benchmark::State& state) { Measure(state, NestedItem()); }
BENCHMARK(BM_EncodedItemSize_Collection);
BENCHMARK(BM_EncodedItemSize_Nested);

}  // namespace
}  // namespace monotable

BENCHMARK_MAIN();
