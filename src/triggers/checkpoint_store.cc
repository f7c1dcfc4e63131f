#include "triggers/checkpoint_store.h"

#include <fcntl.h>
#include <rapidjson/document.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>

namespace monotable::triggers {
namespace {

std::string Key(const std::string& trigger, const std::string& shard) { return trigger + "/" + shard; }

std::string Render(const std::map<std::string, uint64_t>& map) {
  std::string out = "{\"Checkpoints\":{";
  bool first = true;
  for (const auto& [k, v] : map) {
    if (!first) out += ',';
    first = false;
    out += '"' + k + "\":\"" + std::to_string(v) + '"';  // names hold no characters JSON escapes
  }
  out += "}}\n";
  return out;
}

Status WriteAll(int fd, const std::string& data) {
  size_t done = 0;
  while (done < data.size()) {
    ssize_t w = write(fd, data.data() + done, data.size() - done);
    if (w < 0) {
      if (errno == EINTR) continue;
      return Status::Io(std::string("write: ") + std::strerror(errno));
    }
    done += static_cast<size_t>(w);
  }
  return Status::Ok();
}

}  // namespace

std::optional<uint64_t> MemoryCheckpointStore::Load(const std::string& trigger, const std::string& shard) {
  std::lock_guard lock(mu_);
  auto it = map_.find(Key(trigger, shard));
  if (it == map_.end()) return std::nullopt;
  return it->second;
}

Status MemoryCheckpointStore::Save(const std::string& trigger, const std::string& shard, uint64_t next) {
  std::lock_guard lock(mu_);
  map_[Key(trigger, shard)] = next;
  return Status::Ok();
}

std::map<std::string, uint64_t> MemoryCheckpointStore::All() {
  std::lock_guard lock(mu_);
  return map_;
}

std::string CheckpointPath(const std::string& data_dir) { return data_dir + "/TRIGGER-CHECKPOINTS.json"; }

Result<std::map<std::string, uint64_t>> ReadCheckpointFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::map<std::string, uint64_t> out;
  if (!in) return out;
  std::stringstream ss;
  ss << in.rdbuf();
  rapidjson::Document doc;
  doc.Parse(ss.str().c_str());
  if (doc.HasParseError() || !doc.IsObject() || !doc.HasMember("Checkpoints") || !doc["Checkpoints"].IsObject()) {
    return Status(ErrorCode::kCorruption, "corrupt trigger checkpoint file " + path);
  }
  for (const auto& m : doc["Checkpoints"].GetObject()) {
    if (!m.value.IsString()) return Status(ErrorCode::kCorruption, "corrupt trigger checkpoint file " + path);
    out[m.name.GetString()] = std::strtoull(m.value.GetString(), nullptr, 10);
  }
  return out;
}

Result<std::unique_ptr<FileCheckpointStore>> FileCheckpointStore::Open(std::string path) {
  auto map = ReadCheckpointFile(path);
  if (!map.ok()) return map.status();
  std::unique_ptr<FileCheckpointStore> store(new FileCheckpointStore(std::move(path)));
  store->map_ = std::move(map).value();
  return store;
}

Status FileCheckpointStore::Save(const std::string& trigger, const std::string& shard, uint64_t next) {
  std::lock_guard lock(mu_);
  map_[Key(trigger, shard)] = next;
  std::string tmp = path_ + ".tmp";
  int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return Status::Io("cannot write " + tmp + ": " + std::strerror(errno));
  Status st = WriteAll(fd, Render(map_));
  if (st.ok() && fsync(fd) != 0) st = Status::Io(std::string("fsync: ") + std::strerror(errno));
  close(fd);
  if (!st.ok()) return st;
  if (rename(tmp.c_str(), path_.c_str()) != 0) return Status::Io("cannot rename " + tmp + ": " + std::strerror(errno));
  std::string dir = path_.substr(0, path_.rfind('/') == std::string::npos ? 1 : path_.rfind('/'));
  if (path_.rfind('/') == std::string::npos) dir = ".";
  int dfd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    fsync(dfd);
    close(dfd);
  }
  return Status::Ok();
}

}  // namespace monotable::triggers
