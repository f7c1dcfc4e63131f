// The index side of a write (AddIndexMutations, src/table/database.h) on bench.py's 3-GSI table:
// three single-attribute GSIs projecting ALL, an item of five attributes replaced by one that
// moves it in one index (g3) and keeps its place in the other two.
//
//   build/index_mutations_bench [--benchmark_filter=...]
#include <benchmark/benchmark.h>

#include "table/database.h"

namespace monotable::table {
namespace {

TableDescription ThreeGsiTable() {
  TableDescription t;
  t.name = "bench_gsi";
  t.attribute_definitions = {{"pk", AttrType::kS}, {"g1", AttrType::kS}, {"g2", AttrType::kS}, {"g3", AttrType::kN}};
  t.key_schema = {{"pk", KeyRole::kHash}};
  uint32_t prefix = 100;
  for (const char* a : {"g1", "g2", "g3"}) {
    IndexDescription index;
    index.name = std::string("by_") + a;
    index.key_prefix = prefix++;
    index.key_schema = {{a, KeyRole::kHash}};
    index.projection.type = ProjectionType::kAll;
    t.global_indexes.push_back(index);
  }
  return t;
}

Item UserItem(int k, int g3) {
  return {{"pk", AttributeValue::S("u" + std::to_string(k))},
          {"g1", AttributeValue::S("org" + std::to_string(k % 100))},
          {"g2", AttributeValue::S("status" + std::to_string(k % 7))},
          {"g3", AttributeValue::N(Number::FromInt(g3))},
          {"name", AttributeValue::S("user " + std::to_string(k))}};
}

// args: 1 = the item existed (a replacement), 0 = a new item
void BM_AddIndexMutations(benchmark::State& state) {
  const TableDescription table = ThreeGsiTable();
  const Item old_item = UserItem(4242, 17);
  const Item new_item = UserItem(4242, 981234);
  const Item* old_ptr = state.range(0) ? &old_item : nullptr;
  for (auto _ : state) {
    engine::WriteBatch batch;
    auto costs = AddIndexMutations(table, old_ptr, &new_item, batch);
    benchmark::DoNotOptimize(costs);
    benchmark::DoNotOptimize(batch);
  }
}
BENCHMARK(BM_AddIndexMutations)->Arg(0)->Arg(1);

}  // namespace
}  // namespace monotable::table

BENCHMARK_MAIN();
