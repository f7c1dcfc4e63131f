#include "engine/rados/rados_store.h"

#include <openssl/sha.h>
#include <rados/librados.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

namespace monotable::engine {
namespace {

using librados::bufferlist;
using OmapVals = std::map<std::string, bufferlist>;
using Assertions = std::map<std::string, std::pair<bufferlist, int>>;

constexpr char kHeadKey[] = "h";
constexpr char kItemPrefix[] = "i";
constexpr char kLogPrefix[] = "l";
constexpr char kMarkerPrefix[] = "m";
constexpr char kColocatedPrefix[] = "x";  // + keyspace u32: a colocated keyspace's entries
constexpr char kPartitionEntry[] = "p";  // in a directory object
constexpr char kLoggedEntry[] = "l";     // in a directory object
constexpr char kValueTag = 'v';
constexpr size_t kMaxHexIdBytes = 512;
constexpr uint64_t kFirstPage = 32;
constexpr uint64_t kMaxPage = 1024;
constexpr size_t kTrimBatch = 1000;
constexpr int kMaxAttempts = 10000;
constexpr size_t kMaxCachedHeads = 4096;

std::string Hex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 15]);
  }
  return out;
}

std::string Hex32(uint32_t v) {
  char buf[9];
  std::snprintf(buf, sizeof buf, "%08x", v);
  return buf;
}

void AppendU64(std::string& out, uint64_t v) {
  for (int shift = 56; shift >= 0; shift -= 8) out.push_back(static_cast<char>((v >> shift) & 0xff));
}

uint64_t DecodeU64(std::string_view in) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = (v << 8) | static_cast<uint8_t>(in[i]);
  return v;
}

std::string PartitionObject(PartitionRef p) {
  std::string name = "p." + Hex32(p.keyspace) + ".";
  if (p.id.size() <= kMaxHexIdBytes) return name + Hex(p.id);
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(p.id.data()), p.id.size(), digest);
  return name + Hex(p.id.substr(0, 8)) + ".sha256." +
         Hex({reinterpret_cast<const char*>(digest), sizeof digest});
}

// A keyspace's directory is sharded by the top 4 bits of the partitions' hashes, so new partitions
// spread their directory writes over 16 objects (placement groups) and shard order is hash order.
constexpr int kDirectoryShards = 16;

int DirectoryShardOf(std::string_view partition_id) {
  return partition_id.empty() ? 0 : static_cast<uint8_t>(partition_id[0]) >> 4;
}

std::string DirectoryObject(uint32_t keyspace, int shard) {
  return "k." + Hex32(keyspace) + "." + "0123456789abcdef"[shard];
}

// The object holding a partition's entries: its home's partition for a colocated keyspace.
std::string ObjectOf(PartitionRef p) {
  return PartitionObject(p.home == kNotColocated ? p : PartitionRef{p.home, p.id});
}

// The omap prefix of the entries of `keyspace` in a partition object: "i" for the object's own
// items, "x" + keyspace u32 for a colocated keyspace (home != kNotColocated).
std::string EntryPrefix(uint32_t keyspace, uint32_t home) {
  if (home == kNotColocated) return kItemPrefix;
  std::string prefix(kColocatedPrefix);
  for (int shift = 24; shift >= 0; shift -= 8) prefix.push_back(static_cast<char>((keyspace >> shift) & 0xff));
  return prefix;
}
std::string EntryPrefix(PartitionRef p) { return EntryPrefix(p.keyspace, p.home); }

std::string Prefixed(const char* prefix, std::string_view rest) {
  std::string key(prefix);
  key.append(rest);
  return key;
}

std::string LogKey(uint64_t position) {
  std::string key(kLogPrefix);
  AppendU64(key, position);
  return key;
}

bufferlist Bytes(std::string_view s) {
  bufferlist bl;
  bl.append(s.data(), s.size());
  return bl;
}

bufferlist TaggedValue(std::string_view value) {
  bufferlist bl;
  bl.append(&kValueTag, 1);
  bl.append(value.data(), value.size());
  return bl;
}

std::string_view View(bufferlist& bl) {
  if (bl.length() == 0) return {};
  return {bl.c_str(), bl.length()};
}

Status Failure(std::string_view what, int r) {
  return Status::Io("rados " + std::string(what) + ": " + std::strerror(-r));
}

Status Corrupt(std::string what) { return {ErrorCode::kCorruption, "rados store: " + std::move(what)}; }

Result<std::string_view> ItemValue(bufferlist& bl) {
  std::string_view v = View(bl);
  if (v.empty() || v[0] != kValueTag) return Corrupt("an item value without its tag");
  return v.substr(1);
}

struct Head {
  uint64_t next = 1;   // the position the next record gets
  uint64_t first = 1;  // the first untrimmed position (== next: no records)
  bufferlist raw;      // as read (empty: no head yet), for the assertion of the next write

  std::string Encode() const {
    std::string s;
    AppendU64(s, next);
    AppendU64(s, first);
    return s;
  }
  static Result<Head> From(OmapVals& vals) {
    Head h;
    auto it = vals.find(kHeadKey);
    if (it == vals.end()) return h;
    std::string_view v = View(it->second);
    if (v.size() != 16) return Corrupt("a partition head of " + std::to_string(v.size()) + " bytes");
    h.next = DecodeU64(v);
    h.first = DecodeU64(v.substr(8));
    h.raw = it->second;
    return h;
  }
};

class RadosStore final : public PartitionStore {
 public:
  RadosStore(std::unique_ptr<librados::Rados> rados, librados::IoCtx io)
      : rados_(std::move(rados)), io_(std::move(io)) {}

  Result<std::optional<std::string>> Get(PartitionRef p, std::string_view sort_key) override {
    return ReadOne(p, EntryPrefix(p) + std::string(sort_key));
  }

  Result<std::optional<std::string>> GetMarker(PartitionRef p, std::string_view sort_key) override {
    return ReadOne(p, Prefixed(kMarkerPrefix, sort_key));
  }

  // One tagged omap value of the partition's object (an item or a marker).
  Result<std::optional<std::string>> ReadOne(PartitionRef p, const std::string& key) {
    OmapVals vals;
    int rval = 0;
    librados::ObjectReadOperation op;
    op.omap_get_vals_by_keys({key}, &vals, &rval);
    int r = Run(ObjectOf(p), op);
    if (r == -ENOENT) return std::optional<std::string>();
    if (r < 0) return Failure("get", r);
    auto it = vals.find(key);
    if (it == vals.end()) return std::optional<std::string>();
    MT_ASSIGN_OR_RETURN(std::string_view value, ItemValue(it->second));
    return std::optional<std::string>(std::string(value));
  }

  Status ReadRange(PartitionRef p, const SortRange& range, const EntryVisitor& visit) override {
    const std::string oid = ObjectOf(p);
    const std::string prefix = EntryPrefix(p);
    if (range.forward) return ReadItems(oid, prefix, range.lower, range.upper, /*one_view=*/false, visit);
    // omap iterates forward only: read the whole range at one version, then visit it backwards.
    for (int attempt = 0; attempt < kMaxAttempts; ++attempt) {
      std::vector<std::pair<std::string, std::string>> items;
      bool changed = false;
      MT_RETURN_IF_ERROR(ReadItems(
          oid, prefix, range.lower, range.upper, /*one_view=*/true,
          [&](std::string_view k, std::string_view v) {
            items.emplace_back(k, v);
            return true;
          },
          nullptr, &changed));
      if (changed) continue;
      for (auto it = items.rbegin(); it != items.rend(); ++it) {
        if (!visit(it->first, it->second)) break;
      }
      return Status::Ok();
    }
    return Status::Io("rados read range: the partition kept changing while it was read");
  }

  Result<CommitOutcome> Commit(PartitionRef p, PartitionWrite write) override {
    const std::string oid = PartitionObject(p);
    // The last mutation of a key wins.
    std::map<std::string, const std::optional<std::string>*> last;
    for (const Mutation& m : write.mutations) last[Prefixed(kItemPrefix, m.key)] = &m.value;
    for (const Mutation& m : write.marker_mutations) last[Prefixed(kMarkerPrefix, m.key)] = &m.value;
    for (const LocalMutation& m : write.local_mutations) last[EntryPrefix(m.keyspace, p.keyspace) + m.key] = &m.value;
    OmapVals sets;
    std::set<std::string> removes;
    for (auto& [key, value] : last) {
      if (*value) sets.emplace(key, TaggedValue(**value));
      else removes.insert(key);
    }
    Assertions guards;
    for (auto [guard_list, prefix] : {std::pair{&write.guards, kItemPrefix}, std::pair{&write.marker_guards, kMarkerPrefix}}) {
      for (const Guard& g : *guard_list) {
        bufferlist expected = g.expected ? TaggedValue(*g.expected) : bufferlist();
        auto [it, inserted] = guards.try_emplace(Prefixed(prefix, g.key), expected, LIBRADOS_CMPXATTR_OP_EQ);
        if (!inserted && !(it->second.first == expected)) return GuardFailed();  // two guards disagree
      }
    }
    const bool logs = !write.log.empty();
    bool exists = true;
    for (int attempt = 0; attempt < kMaxAttempts; ++attempt) {
      Head head;
      if (logs && attempt == 0 && CachedHead(oid, head)) {
        exists = true;  // assumed: the assertion on the head checks it
      } else if (logs) {
        OmapVals vals;
        int rval = 0;
        librados::ObjectReadOperation read;
        read.omap_get_vals_by_keys({kHeadKey}, &vals, &rval);
        int r = Run(oid, read);
        exists = r != -ENOENT;
        if (r < 0 && exists) return Failure("commit (reading the head)", r);
        MT_ASSIGN_OR_RETURN(head, Head::From(vals));
      }
      const CommitOutcome outcome{logs ? head.next : 0};
      OmapVals to_set = sets;
      Head next = head;
      if (logs) {
        for (std::string& record : write.log) to_set.emplace(LogKey(next.next++), Bytes(record));
        next.raw = Bytes(next.Encode());
        to_set[kHeadKey] = next.raw;
      }
      if (!exists) {
        // A new partition: every guard must expect absence; listed in the directory first.
        for (auto& [key, expected] : guards) {
          if (expected.first.length() != 0) return GuardFailed();
        }
        if (to_set.empty()) return outcome;  // only deletes of absent keys
        MT_RETURN_IF_ERROR(AddToDirectory(p, logs));
        librados::ObjectWriteOperation create;
        create.create(true);
        create.omap_set(to_set);
        int r = Run(oid, create);
        if (r == 0) {
          if (logs) RememberHead(oid, next);
          return outcome;
        }
        if (r == -EEXIST) {
          exists = true;
          continue;
        }
        return Failure("commit (creating the partition)", r);
      }
      if (logs && head.next == 1) MT_RETURN_IF_ERROR(AddToDirectory(p, true));  // before the first record
      Assertions assertions = guards;
      if (logs) assertions[kHeadKey] = {head.raw, LIBRADOS_CMPXATTR_OP_EQ};
      librados::ObjectWriteOperation op;
      op.assert_exists();
      int cmp_rval = 0;
      if (!assertions.empty()) op.omap_cmp(assertions, &cmp_rval);
      if (!to_set.empty()) op.omap_set(to_set);
      if (!removes.empty()) op.omap_rm_keys(removes);
      int r = Run(oid, op);
      if (r == 0) {
        if (logs) RememberHead(oid, next);
        return outcome;
      }
      if (logs) ForgetHead(oid);  // stale, or the partition is gone
      if (r == -ENOENT) {
        exists = false;  // never written, or dropped since the head was read
        continue;
      }
      if (r != -ECANCELED) return Failure("commit", r);
      if (!logs) return GuardFailed();  // only the guards were compared
      if (guards.empty()) continue;     // only the head moved
      MT_ASSIGN_OR_RETURN(bool hold, GuardsHold(oid, guards));
      if (!hold) return GuardFailed();
    }
    return Status::Io("rados commit: the partition kept changing");
  }

  Status ScanKeyspace(KeyspaceRef keyspace, std::string_view lower, std::string_view upper,
                      const EntryVisitor& visit) override {
    // A colocated keyspace is walked through its home's directory and objects.
    const uint32_t listed = keyspace.colocated() ? keyspace.home : keyspace.keyspace;
    const std::string prefix = EntryPrefix(keyspace.keyspace, keyspace.home);
    // Start at the partitions sharing all but the last byte of lower's hash prefix: the one holding
    // `lower` (its id is a prefix of it) is among them; ids below `lower` are skipped.
    std::string_view hash = lower.substr(0, std::min<size_t>(lower.size(), 8));
    std::string after = hash.empty() ? "" : Prefixed(kPartitionEntry, hash.substr(0, hash.size() - 1));
    bool stopped = false;
    Status st = WalkDirectory(listed, kPartitionEntry, after, [&](std::string_view id) -> Result<bool> {
      if (!upper.empty() && id >= upper) return false;  // every key of it is >= upper
      std::string_view sort_lower, sort_upper;
      if (lower.size() >= id.size() && lower.substr(0, id.size()) == id) sort_lower = lower.substr(id.size());
      else if (id < lower) return true;
      if (upper.size() > id.size() && upper.substr(0, id.size()) == id) sort_upper = upper.substr(id.size());
      std::string key(id);
      MT_RETURN_IF_ERROR(ReadItems(
          PartitionObject({listed, id}), prefix, sort_lower, sort_upper, /*one_view=*/false,
          [&](std::string_view sort_key, std::string_view value) {
            key.resize(id.size());
            key.append(sort_key);
            return visit(key, value);
          },
          &stopped));
      return !stopped;
    });
    return st;
  }

  Status ReadLog(PartitionRef p, uint64_t after, const LogVisitor& visit) override {
    const std::string oid = PartitionObject(p);
    std::string start = LogKey(after);
    while (true) {
      OmapVals vals;
      bool more = false;
      int rval = 0;
      librados::ObjectReadOperation op;
      op.omap_get_vals2(start, kLogPrefix, kMaxPage, &vals, &more, &rval);
      int r = Run(oid, op);
      if (r == -ENOENT) return Status::Ok();
      if (r < 0) return Failure("read log", r);
      for (auto& [key, record] : vals) {
        if (key.size() != 9) return Corrupt("a log key of " + std::to_string(key.size()) + " bytes");
        if (!visit(DecodeU64(std::string_view(key).substr(1)), View(record))) return Status::Ok();
      }
      if (!more || vals.empty()) return Status::Ok();
      start = vals.rbegin()->first;
    }
  }

  Status TrimLog(PartitionRef p, uint64_t through) override {
    const std::string oid = PartitionObject(p);
    for (int attempt = 0; attempt < kMaxAttempts; ++attempt) {
      OmapVals vals;
      int rval = 0;
      librados::ObjectReadOperation read;
      read.omap_get_vals_by_keys({kHeadKey}, &vals, &rval);
      int r = Run(oid, read);
      if (r == -ENOENT) return Status::Ok();
      if (r < 0) return Failure("trim log (reading the head)", r);
      MT_ASSIGN_OR_RETURN(Head head, Head::From(vals));
      const uint64_t new_first = through >= head.next - 1 ? head.next : through + 1;
      if (new_first <= head.first) return Status::Ok();
      // Records go in batches; the last batch and the new head go in one operation asserting the
      // head, so a concurrent commit or trim makes this one start over (removals are idempotent).
      uint64_t pos = head.first;
      while (true) {
        std::set<std::string> keys;
        while (pos < new_first && keys.size() < kTrimBatch) keys.insert(LogKey(pos++));
        librados::ObjectWriteOperation op;
        op.assert_exists();
        const bool final_batch = pos == new_first;
        int cmp_rval = 0;
        if (final_batch) op.omap_cmp({{kHeadKey, {head.raw, LIBRADOS_CMPXATTR_OP_EQ}}}, &cmp_rval);
        op.omap_rm_keys(keys);
        Head next = head;
        if (final_batch) {
          next.first = new_first;
          next.raw = Bytes(next.Encode());
          op.omap_set({{kHeadKey, next.raw}});
        }
        r = Run(oid, op);
        if (r == -ENOENT) return Status::Ok();
        if (r == -ECANCELED) break;  // the head moved: read it again
        if (r < 0) return Failure("trim log", r);
        if (final_batch) {
          RememberHead(oid, next);
          return Status::Ok();
        }
      }
    }
    return Status::Io("rados trim log: the partition kept changing");
  }

  Status ScanLogs(uint32_t keyspace, const LoggedPartitionVisitor& visit) override {
    return WalkDirectory(keyspace, kLoggedEntry, "", [&](std::string_view id) -> Result<bool> {
      OmapVals vals;
      int rval = 0;
      librados::ObjectReadOperation read;
      read.omap_get_vals_by_keys({kHeadKey}, &vals, &rval);
      int r = Run(PartitionObject({keyspace, id}), read);
      if (r == -ENOENT) return true;
      if (r < 0) return Failure("scan logs (reading a head)", r);
      MT_ASSIGN_OR_RETURN(Head head, Head::From(vals));
      if (head.first >= head.next) return true;
      return visit(id, head.first);
    });
  }

  Status DropKeyspace(uint32_t keyspace) override {
    // Every partition the directory lists, removed a page at a time in parallel, then the directory.
    std::vector<std::string> oids;
    auto remove_all = [&]() -> Status {
      std::vector<librados::AioCompletion*> pending;
      for (const std::string& oid : oids) {
        librados::AioCompletion* c = librados::Rados::aio_create_completion();
        librados::ObjectWriteOperation op;
        op.remove();
        int r = io_.aio_operate(oid, c, &op);
        if (r < 0) {
          c->release();
          c = nullptr;
        }
        pending.push_back(c);
      }
      int failed = 0;
      for (librados::AioCompletion* c : pending) {
        if (!c) {
          failed = -EIO;
          continue;
        }
        c->wait_for_complete();
        int r = c->get_return_value();
        c->release();
        if (r < 0 && r != -ENOENT) failed = r;
      }
      oids.clear();
      return failed ? Failure("drop keyspace (removing a partition)", failed) : Status::Ok();
    };
    MT_RETURN_IF_ERROR(WalkDirectory(keyspace, kPartitionEntry, "", [&](std::string_view id) -> Result<bool> {
      oids.push_back(PartitionObject({keyspace, id}));
      if (oids.size() >= kMaxPage) MT_RETURN_IF_ERROR(remove_all());
      return true;
    }));
    MT_RETURN_IF_ERROR(remove_all());
    {
      std::lock_guard lock(heads_mu_);
      heads_.clear();
    }
    for (int shard = 0; shard < kDirectoryShards; ++shard) {
      librados::ObjectWriteOperation op;
      op.remove();
      int r = Run(DirectoryObject(keyspace, shard), op);
      if (r < 0 && r != -ENOENT) return Failure("drop keyspace (removing the directory)", r);
    }
    return Status::Ok();
  }

  uint64_t ApproximateBytes(PartitionRef p) override {
    uint64_t bytes = 0;
    Status st = ReadItems(ObjectOf(p), EntryPrefix(p), "", "", /*one_view=*/false,
                          [&](std::string_view k, std::string_view v) {
                            bytes += k.size() + v.size();
                            return true;
                          });
    return st.ok() ? bytes : 0;
  }

  std::string Name() const override { return "rados"; }

 private:
  static Status GuardFailed() { return {ErrorCode::kGuardFailed, "a guarded key changed"}; }

  // Runs one operation and waits for it: 0 or -errno; *version: the object's version after it.
  template <typename Op>
  int Run(const std::string& oid, Op& op, uint64_t* version = nullptr) {
    librados::AioCompletion* c = librados::Rados::aio_create_completion();
    int r;
    if constexpr (std::is_same_v<Op, librados::ObjectReadOperation>) r = io_.aio_operate(oid, c, &op, nullptr);
    else r = io_.aio_operate(oid, c, &op);
    if (r == 0) {
      c->wait_for_complete();
      r = c->get_return_value();
      if (version) *version = c->get_version64();
    }
    c->release();
    return r;
  }

  // The head this store last wrote or read for a partition object: a commit with log records
  // asserts it at once instead of reading the head first (one round trip instead of two when this
  // store is the partition's only writer); a stale one fails the assertion and is read again.
  bool CachedHead(const std::string& oid, Head& head) {
    std::lock_guard lock(heads_mu_);
    auto it = heads_.find(oid);
    if (it == heads_.end()) return false;
    head = it->second;
    return true;
  }
  void RememberHead(const std::string& oid, const Head& head) {
    std::lock_guard lock(heads_mu_);
    if (heads_.size() >= kMaxCachedHeads && !heads_.count(oid)) heads_.clear();  // bounded, simply
    heads_[oid] = head;
  }
  void ForgetHead(const std::string& oid) {
    std::lock_guard lock(heads_mu_);
    heads_.erase(oid);
  }

  // Whether every guard holds now (read again after an assertion failed).
  Result<bool> GuardsHold(const std::string& oid, const Assertions& guards) {
    std::set<std::string> keys;
    for (auto& [key, expected] : guards) keys.insert(key);
    OmapVals vals;
    int rval = 0;
    librados::ObjectReadOperation op;
    op.omap_get_vals_by_keys(keys, &vals, &rval);
    int r = Run(oid, op);
    if (r < 0 && r != -ENOENT) return Failure("commit (reading the guards)", r);
    for (auto& [key, expected] : guards) {
      auto it = vals.find(key);
      bufferlist current = it == vals.end() ? bufferlist() : it->second;
      if (!(current == expected.first)) return false;
    }
    return true;
  }

  Status AddToDirectory(PartitionRef p, bool logged) {
    OmapVals entries{{Prefixed(kPartitionEntry, p.id), bufferlist()}};
    if (logged) entries.emplace(Prefixed(kLoggedEntry, p.id), bufferlist());
    librados::ObjectWriteOperation op;
    op.omap_set(entries);
    int r = Run(DirectoryObject(p.keyspace, DirectoryShardOf(p.id)), op);
    return r < 0 ? Failure("adding a partition to its directory", r) : Status::Ok();
  }

  // Visits the partition ids a keyspace's directory lists under `tag` (in id order, shard after
  // shard), from the first entry after `after` (a directory key: tag + id prefix), until `visit`
  // answers false.
  Status WalkDirectory(uint32_t keyspace, const char* tag, std::string after,
                       const std::function<Result<bool>(std::string_view id)>& visit) {
    const int first_shard = after.size() > 1 ? DirectoryShardOf(std::string_view(after).substr(1)) : 0;
    for (int shard = first_shard; shard < kDirectoryShards; ++shard) {
      const std::string dir = DirectoryObject(keyspace, shard);
      if (shard != first_shard) after.clear();
      while (true) {
        OmapVals entries;
        bool more = false;
        int rval = 0;
        librados::ObjectReadOperation op;
        op.omap_get_vals2(after, tag, kMaxPage, &entries, &more, &rval);
        int r = Run(dir, op);
        if (r == -ENOENT) break;
        if (r < 0) return Failure("reading a keyspace directory", r);
        for (auto& [key, unused] : entries) {
          MT_ASSIGN_OR_RETURN(bool go_on, visit(std::string_view(key).substr(1)));
          if (!go_on) return Status::Ok();
        }
        if (!more || entries.empty()) break;
        after = entries.rbegin()->first;
      }
    }
    return Status::Ok();
  }

  // Visits the items of one partition with sort keys in [lower, upper) in order, a page at a time
  // (see the contract). *stopped: the visitor answered false. With one_view, a change of the object
  // between pages stops the read and sets *changed instead of reading on at the new version.
  Status ReadItems(const std::string& oid, const std::string& prefix, std::string_view lower, std::string_view upper,
                   bool one_view, const EntryVisitor& visit, bool* stopped = nullptr, bool* changed = nullptr) {
    const std::string end = upper.empty() ? "" : prefix + std::string(upper);
    std::string include = lower.empty() ? "" : prefix + std::string(lower);
    if (!end.empty() && !include.empty() && include >= end) return Status::Ok();
    std::string after = include;
    uint64_t page_size = kFirstPage, version = 0;
    while (true) {
      OmapVals vals, first;
      bool more = false;
      int rval = 0, first_rval = 0;
      librados::ObjectReadOperation op;
      if (version) op.assert_version(version);
      if (!include.empty()) op.omap_get_vals_by_keys({include}, &first, &first_rval);
      op.omap_get_vals2(after, prefix, page_size, &vals, &more, &rval);
      uint64_t read_version = 0;
      int r = Run(oid, op, &read_version);
      if (version && (r == -ERANGE || r == -EOVERFLOW)) {
        if (one_view) {
          if (changed) *changed = true;
          return Status::Ok();
        }
        version = 0;  // read the rest at the new version
        continue;
      }
      if (r == -ENOENT) return Status::Ok();
      if (r < 0) return Failure("read range", r);
      version = read_version;
      vals.merge(first);
      include.clear();
      for (auto& [key, value] : vals) {
        if (!end.empty() && key >= end) return Status::Ok();
        MT_ASSIGN_OR_RETURN(std::string_view v, ItemValue(value));
        if (!visit(std::string_view(key).substr(prefix.size()), v)) {
          if (stopped) *stopped = true;
          return Status::Ok();
        }
      }
      if (!more || vals.empty()) return Status::Ok();
      after = vals.rbegin()->first;
      page_size = std::min(page_size * 4, kMaxPage);
    }
  }

  std::unique_ptr<librados::Rados> rados_;
  librados::IoCtx io_;  // declared after rados_: closed before the cluster handle shuts down
  std::mutex heads_mu_;
  std::unordered_map<std::string, Head> heads_;  // see CachedHead
};

}  // namespace

Result<std::unique_ptr<PartitionStore>> OpenRadosStore(const RadosOptions& options) {
  auto rados = std::make_unique<librados::Rados>();
  int r = rados->init(options.client_id.c_str());
  if (r < 0) return Failure("init", r);
  r = rados->conf_read_file(options.ceph_conf.c_str());
  if (r < 0) return Failure("reading " + options.ceph_conf, r);
  const std::string timeout = std::to_string(options.op_timeout_seconds);
  for (const char* name : {"client_mount_timeout", "rados_osd_op_timeout", "rados_mon_op_timeout"}) {
    rados->conf_set(name, timeout.c_str());
  }
  rados->conf_set("admin_socket", "");  // several clients of one name in a process or machine
  r = rados->connect();
  if (r < 0) return Failure("connecting with " + options.ceph_conf, r);
  librados::IoCtx io;
  r = rados->ioctx_create(options.pool.c_str(), io);
  if (r < 0) return Failure("opening pool " + options.pool, r);
  io.set_namespace(options.name_space);
  return std::unique_ptr<PartitionStore>(new RadosStore(std::move(rados), std::move(io)));
}

}  // namespace monotable::engine
