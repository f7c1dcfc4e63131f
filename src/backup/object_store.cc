#include "backup/object_store.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>

namespace monotable::backup {
namespace fs = std::filesystem;

Status NoSuchBucket() { return Status::NotFound("The specified bucket does not exist"); }

Result<std::vector<std::string>> ObjectStore::ListAll(const std::string& bucket, const std::string& prefix) {
  std::vector<std::string> keys;
  std::string token;
  do {
    MT_ASSIGN_OR_RETURN(Page page, List(bucket, prefix, token));
    for (auto& k : page.keys) keys.push_back(std::move(k));
    token = std::move(page.next_token);
  } while (!token.empty());
  return keys;
}

namespace {

class DirectoryStore : public ObjectStore {
 public:
  explicit DirectoryStore(std::string root) : root_(std::move(root)) {}

  Status CheckBucket(const std::string&) override { return Status::Ok(); }

  Status Put(const std::string& bucket, const std::string& key, std::string_view data) override {
    fs::path path = fs::path(root_) / bucket / key;
    std::error_code ec;
    fs::create_directories(path.parent_path(), ec);
    if (ec) return Status::Io("cannot create " + path.parent_path().string() + ": " + ec.message());
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(data.data(), static_cast<std::streamsize>(data.size()));
    out.close();
    if (!out) return Status::Io("cannot write " + path.string());
    return Status::Ok();
  }

  Status Get(const std::string& bucket, const std::string& key, const Sink& sink) override {
    fs::path path = fs::path(root_) / bucket / key;
    std::unique_ptr<FILE, int (*)(FILE*)> file(std::fopen(path.c_str(), "rb"), std::fclose);
    if (!file) return Status::Io("cannot open " + path.string());
    std::vector<char> buffer(1 << 16);
    while (true) {
      size_t n = std::fread(buffer.data(), 1, buffer.size(), file.get());
      if (n > 0) MT_RETURN_IF_ERROR(sink(std::string_view(buffer.data(), n)));
      if (n < buffer.size()) {
        if (std::ferror(file.get())) return Status::Io("cannot read " + path.string());
        return Status::Ok();
      }
    }
  }

  // The whole bucket is walked and sorted once per page: listings here are of a few hundred files.
  Result<Page> List(const std::string& bucket, const std::string& prefix, const std::string& token,
                    int max_keys) override {
    fs::path dir = fs::path(root_) / bucket;
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) return NoSuchBucket();
    std::vector<std::string> keys;
    for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec)) {
      // Objects are regular files; a named pipe is read as one too (a stream fed by another program).
      if (!it->is_regular_file() && !it->is_fifo()) continue;
      std::string key = fs::relative(it->path(), dir).generic_string();
      if (key.compare(0, prefix.size(), prefix) == 0 && key > token) keys.push_back(std::move(key));
    }
    if (ec) return Status::Io("cannot list " + dir.string() + ": " + ec.message());
    std::sort(keys.begin(), keys.end());
    Page page;
    if (keys.size() > static_cast<size_t>(max_keys)) {
      keys.resize(static_cast<size_t>(max_keys));
      page.next_token = keys.back();
    }
    page.keys = std::move(keys);
    return page;
  }

 private:
  std::string root_;
};

}  // namespace

std::unique_ptr<ObjectStore> NewDirectoryStore(std::string root) {
  return std::make_unique<DirectoryStore>(std::move(root));
}

}  // namespace monotable::backup
