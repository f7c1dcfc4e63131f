// AddIndexMutations: the index entries a write adds, moves, rewrites or leaves alone, for ALL
// projections (which refer to the written item and store its encoding) and narrower ones.

#include <gtest/gtest.h>

#include "model/item_codec.h"
#include "changelog/index_entries.h"

namespace monotable::table {
namespace {

// A table keyed by pk with three GSIs: by_g1 (ALL), by_g2 (KEYS_ONLY), by_g3 (INCLUDE name).
TableDescription Table() {
  TableDescription t;
  t.name = "t";
  t.attribute_definitions = {{"pk", AttrType::kS}, {"g1", AttrType::kS}, {"g2", AttrType::kS}, {"g3", AttrType::kN}};
  t.key_schema = {{"pk", KeyRole::kHash}};
  auto add = [&](const char* attribute, ProjectionType type, std::vector<std::string> included) {
    IndexDescription index;
    index.name = std::string("by_") + attribute;
    index.key_prefix = 100 + static_cast<uint32_t>(t.global_indexes.size());
    index.key_schema = {{attribute, KeyRole::kHash}};
    index.projection.type = type;
    index.projection.non_key_attributes = std::move(included);
    t.global_indexes.push_back(index);
  };
  add("g1", ProjectionType::kAll, {});
  add("g2", ProjectionType::kKeysOnly, {});
  add("g3", ProjectionType::kInclude, {"name"});
  return t;
}

Item User(const std::string& g1, const std::string& g2, int g3, const std::string& name) {
  return {{"pk", AttributeValue::S("u1")}, {"g1", AttributeValue::S(g1)}, {"g2", AttributeValue::S(g2)},
          {"g3", AttributeValue::N(Number::FromInt(g3))}, {"name", AttributeValue::S(name)},
          {"bio", AttributeValue::S("only ALL projections carry this")}};
}

const engine::Mutation* Find(const engine::WriteBatch& batch, const std::string& key) {
  for (const auto& m : batch.mutations) {
    if (m.key == key) return &m;
  }
  return nullptr;
}

std::string KeyIn(const TableDescription& t, size_t index, const Item& item) {
  return *PositionKey(t, &t.global_indexes[index], item);
}

TEST(AddIndexMutations, NewItemStoresEachProjection) {
  const TableDescription t = Table();
  const Item item = User("org1", "active", 7, "Ann");
  engine::WriteBatch batch;
  auto costs = AddIndexMutations(t, nullptr, &item, batch);
  ASSERT_EQ(batch.mutations.size(), 3u);
  EXPECT_EQ(costs.size(), 3u);
  const auto* all = Find(batch, KeyIn(t, 0, item));
  ASSERT_NE(all, nullptr);
  EXPECT_EQ(*all->value, EncodeItem(item));
  const auto* keys_only = Find(batch, KeyIn(t, 1, item));
  ASSERT_NE(keys_only, nullptr);
  EXPECT_EQ(DecodeItem(*keys_only->value).value(),
            (Item{{"pk", AttributeValue::S("u1")}, {"g2", AttributeValue::S("active")}}));
  const auto* include = Find(batch, KeyIn(t, 2, item));
  ASSERT_NE(include, nullptr);
  EXPECT_EQ(DecodeItem(*include->value).value(),
            (Item{{"pk", AttributeValue::S("u1")}, {"g3", AttributeValue::N(Number::FromInt(7))},
                  {"name", AttributeValue::S("Ann")}}));
}

TEST(AddIndexMutations, AllProjectionStoresTheEncodingItIsGiven) {
  const TableDescription t = Table();
  const Item item = User("org1", "active", 7, "Ann");
  const std::string encoded = EncodeItem(item);
  engine::WriteBatch batch;
  AddIndexMutations(t, nullptr, &item, batch, &encoded);
  const auto* all = Find(batch, KeyIn(t, 0, item));
  ASSERT_NE(all, nullptr);
  EXPECT_EQ(*all->value, encoded);
}

TEST(AddIndexMutations, IdenticalItemWritesNoEntry) {
  const TableDescription t = Table();
  const Item old_item = User("org1", "active", 7, "Ann");
  const Item new_item = old_item;
  engine::WriteBatch batch;
  auto costs = AddIndexMutations(t, &old_item, &new_item, batch);
  EXPECT_TRUE(batch.mutations.empty());
  EXPECT_TRUE(costs.empty());
}

TEST(AddIndexMutations, ChangedAttributeRewritesOnlyTheProjectionsThatCarryIt) {
  const TableDescription t = Table();
  const Item old_item = User("org1", "active", 7, "Ann");
  Item new_item = old_item;
  new_item["bio"] = AttributeValue::S("changed");  // projected by ALL only
  engine::WriteBatch batch;
  auto costs = AddIndexMutations(t, &old_item, &new_item, batch);
  ASSERT_EQ(batch.mutations.size(), 1u);
  EXPECT_EQ(batch.mutations[0].key, KeyIn(t, 0, new_item));
  EXPECT_EQ(*batch.mutations[0].value, EncodeItem(new_item));
  ASSERT_EQ(costs.size(), 1u);
  EXPECT_EQ(costs[0].index, &t.global_indexes[0]);
}

TEST(AddIndexMutations, MovedKeyDeletesTheOldEntry) {
  const TableDescription t = Table();
  const Item old_item = User("org1", "active", 7, "Ann");
  const Item new_item = User("org2", "active", 7, "Ann");
  engine::WriteBatch batch;
  AddIndexMutations(t, &old_item, &new_item, batch);
  ASSERT_EQ(batch.mutations.size(), 2u);
  const auto* removed = Find(batch, KeyIn(t, 0, old_item));
  ASSERT_NE(removed, nullptr);
  EXPECT_FALSE(removed->value.has_value());
  const auto* added = Find(batch, KeyIn(t, 0, new_item));
  ASSERT_NE(added, nullptr);
  EXPECT_EQ(*added->value, EncodeItem(new_item));
}

TEST(AddIndexMutations, DeletedItemRemovesEveryEntry) {
  const TableDescription t = Table();
  const Item old_item = User("org1", "active", 7, "Ann");
  engine::WriteBatch batch;
  auto costs = AddIndexMutations(t, &old_item, nullptr, batch);
  ASSERT_EQ(batch.mutations.size(), 3u);
  for (const auto& m : batch.mutations) EXPECT_FALSE(m.value.has_value());
  EXPECT_EQ(costs.size(), 3u);
}

TEST(AddIndexMutations, ItemWithoutTheIndexKeyIsNotIndexed) {
  const TableDescription t = Table();
  Item item = User("org1", "active", 7, "Ann");
  item.erase("g1");
  item["g2"] = AttributeValue::N(Number::FromInt(3));  // wrong type: not in by_g2 either
  engine::WriteBatch batch;
  AddIndexMutations(t, nullptr, &item, batch);
  ASSERT_EQ(batch.mutations.size(), 1u);
  EXPECT_EQ(batch.mutations[0].key, KeyIn(t, 2, item));
}

}  // namespace
}  // namespace monotable::table
