// The object stores (backup/object_store.h): the directory store's listing pages and streaming
// reads; exports bounded per data file and imports streamed chunk by chunk through any store.
#include "backup/object_store.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>

#include "backup/dynamodb_json.h"
#include "backup/export_import.h"

namespace monotable::backup {
namespace {

// Objects in memory; Get hands the bytes out in `chunk`-sized pieces.
class MemoryStore : public ObjectStore {
 public:
  explicit MemoryStore(size_t chunk) : chunk_(chunk) {}
  Status CheckBucket(const std::string& bucket) override {
    return buckets_.count(bucket) ? Status::Ok() : NoSuchBucket();
  }
  Status Put(const std::string& bucket, const std::string& key, std::string_view data) override {
    MT_RETURN_IF_ERROR(CheckBucket(bucket));
    objects_[bucket + "/" + key] = std::string(data);
    return Status::Ok();
  }
  Status Get(const std::string& bucket, const std::string& key, const Sink& sink) override {
    auto it = objects_.find(bucket + "/" + key);
    if (it == objects_.end()) return Status::Io("no such key");
    for (size_t at = 0; at < it->second.size(); at += chunk_) {
      MT_RETURN_IF_ERROR(sink(std::string_view(it->second).substr(at, chunk_)));
    }
    return Status::Ok();
  }
  Result<Page> List(const std::string& bucket, const std::string& prefix, const std::string& token,
                    int max_keys) override {
    MT_RETURN_IF_ERROR(CheckBucket(bucket));
    Page page;
    const std::string from = bucket + "/" + prefix;
    for (auto it = objects_.lower_bound(from); it != objects_.end() && it->first.compare(0, from.size(), from) == 0;
         ++it) {
      std::string key = it->first.substr(bucket.size() + 1);
      if (key <= token) continue;
      if (page.keys.size() == static_cast<size_t>(max_keys)) {
        page.next_token = page.keys.back();
        break;
      }
      page.keys.push_back(key);
    }
    ++lists_;
    return page;
  }
  std::set<std::string> buckets_ = {"bkt"};
  std::map<std::string, std::string> objects_;
  int lists_ = 0;

 private:
  size_t chunk_;
};

TableDescription PkTable() {
  TableDescription table;
  table.name = "t";
  table.attribute_definitions = {{"pk", AttrType::kS}};
  table.key_schema = {{"pk", KeyRole::kHash}};
  return table;
}

TEST(DirectoryStoreTest, ListsInKeyOrderPageByPageAndStreamsObjects) {
  auto root = std::filesystem::temp_directory_path() / ("mt-store-" + std::to_string(::getpid()));
  std::filesystem::remove_all(root);
  auto store = NewDirectoryStore(root.string());
  EXPECT_EQ(store->List("b", "", "").status().code(), ErrorCode::kResourceNotFound);
  for (const char* key : {"p/c", "p/a", "q/z", "p/b/d"}) ASSERT_TRUE(store->Put("b", key, key).ok());
  auto first = store->List("b", "p/", "", 2);
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(first->keys, (std::vector<std::string>{"p/a", "p/b/d"}));
  ASSERT_FALSE(first->next_token.empty());
  auto second = store->List("b", "p/", first->next_token, 2);
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(second->keys, (std::vector<std::string>{"p/c"}));
  EXPECT_TRUE(second->next_token.empty());
  EXPECT_EQ(store->ListAll("b", "p").value().size(), 3u);
  std::string big(200000, 'x'), got;
  int chunks = 0;
  ASSERT_TRUE(store->Put("b", "big", big).ok());
  ASSERT_TRUE(store->Get("b", "big", [&](std::string_view c) {
                     ++chunks;
                     EXPECT_LE(c.size(), 65536u);
                     got.append(c);
                     return Status::Ok();
                   }).ok());
  EXPECT_EQ(got, big);
  EXPECT_GE(chunks, 4);
  std::filesystem::remove_all(root);
}

TEST(ObjectStoreTest, ExportBoundsDataFilesAndImportStreamsThemBack) {
  MemoryStore store(7);  // odd-sized chunks: lines and gzip members cross them
  ExportRecord r;
  r.id = "01700000000000-0000abcd";
  r.bucket = "bkt";
  const int n = 300;
  ASSERT_TRUE(WriteExport(
                  store, r,
                  [&](const std::function<Status(std::string_view, int64_t)>& fn) {
                    for (int i = 0; i < n; ++i) {
                      Item item = {{"pk", AttributeValue::S("k" + std::to_string(i))},
                                   {"pad", AttributeValue::S(std::string(100, 'p'))}};
                      MT_RETURN_IF_ERROR(fn(ItemLine(item), 1));
                    }
                    return Status::Ok();
                  },
                  4096)
                  .ok());
  int data_files = 0;
  for (const auto& [key, bytes] : store.objects_) {
    if (key.find("/data/") == std::string::npos) continue;
    ++data_files;
  }
  EXPECT_GE(data_files, 8);  // ~130 bytes a line, 4 KiB a file
  EXPECT_TRUE(store.objects_.count("bkt/AWSDynamoDB/" + r.id + "/manifest-summary.json"));

  ImportRecord in;
  in.bucket = "bkt";
  in.key_prefix = "AWSDynamoDB/" + r.id + "/data/";
  in.input_format = "DYNAMODB_JSON";
  in.compression = "GZIP";
  std::set<std::string> keys;
  ASSERT_TRUE(ReadImport(
                  store, in, PkTable(),
                  [&](const Item& item) {
                    keys.insert(item.at("pk").s());
                    return Status::Ok();
                  },
                  [](const std::string& where, const std::string& why) { ADD_FAILURE() << where << ": " << why; })
                  .ok());
  EXPECT_EQ(keys.size(), static_cast<size_t>(n));
  EXPECT_EQ(in.imported_items, n);
}

TEST(ObjectStoreTest, ImportReadsConcatenatedGzipMembersPlainTextAndRefusesTruncatedGzip) {
  MemoryStore store(3);
  const std::string a = "{\"Item\":{\"pk\":{\"S\":\"a\"}}}\n", b = "{\"Item\":{\"pk\":{\"S\":\"b\"}}}";
  ASSERT_TRUE(store.Put("bkt", "in/1.json.gz", Gzip(a) + Gzip(b)).ok());
  ASSERT_TRUE(store.Put("bkt", "in/2.json", "{\"Item\":{\"pk\":{\"S\":\"c\"}}}\r\n").ok());
  ImportRecord in;
  in.bucket = "bkt";
  in.key_prefix = "in/";
  in.input_format = "DYNAMODB_JSON";
  int items = 0;
  auto count = [&](const Item&) {
    ++items;
    return Status::Ok();
  };
  auto bad = [](const std::string& where, const std::string& why) { ADD_FAILURE() << where << ": " << why; };
  ASSERT_TRUE(ReadImport(store, in, PkTable(), count, bad).ok());
  EXPECT_EQ(items, 3);
  std::string gz = Gzip(a);
  ASSERT_TRUE(store.Put("bkt", "cut/1.json.gz", gz.substr(0, gz.size() - 6)).ok());
  in.key_prefix = "cut/";
  Status st = ReadImport(store, in, PkTable(), count, bad);
  EXPECT_EQ(st.code(), ErrorCode::kIo) << st.message();
  in.bucket = "missing";
  EXPECT_EQ(ReadImport(store, in, PkTable(), count, bad).code(), ErrorCode::kResourceNotFound);
}

}  // namespace
}  // namespace monotable::backup
