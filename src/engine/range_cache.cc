#include "engine/range_cache.h"

#include <algorithm>
#include <cstring>
#include <utility>

namespace monotable::engine {
namespace {

// A cached range, one string: [u32 lower size][lower][u32 upper size][upper], then each entry in
// key order as [u32 key size][u32 value size][key][value]. Sizes in host order (never stored).
void AppendU32(std::string& out, size_t n) {
  uint32_t v = static_cast<uint32_t>(n);
  out.append(reinterpret_cast<const char*>(&v), sizeof v);
}

uint32_t ReadU32(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

constexpr size_t kEntryHeader = 8;

// The cached contents of [lower, upper): the part of a cached range's entries within it.
class CachedIterator : public Iterator {
 public:
  CachedIterator(std::string encoded, size_t entries_offset, std::string_view lower, std::string_view upper)
      : encoded_(std::move(encoded)) {
    const char* p = encoded_.data() + entries_offset;
    const char* end = encoded_.data() + encoded_.size();
    while (p < end) {
      uint32_t key_size = ReadU32(p), value_size = ReadU32(p + 4);
      std::string_view key(p + kEntryHeader, key_size);
      std::string_view value(p + kEntryHeader + key_size, value_size);
      p += kEntryHeader + key_size + value_size;
      if (key >= lower && key < upper) entries_.emplace_back(key, value);
    }
  }

  void SeekToFirst() override { pos_ = 0; }
  void SeekToLast() override { pos_ = static_cast<ptrdiff_t>(entries_.size()) - 1; }
  void Seek(std::string_view key) override {
    auto it = std::lower_bound(entries_.begin(), entries_.end(), key,
                               [](const auto& entry, std::string_view k) { return entry.first < k; });
    pos_ = it - entries_.begin();
  }
  void SeekForPrev(std::string_view key) override {
    auto it = std::upper_bound(entries_.begin(), entries_.end(), key,
                               [](std::string_view k, const auto& entry) { return k < entry.first; });
    pos_ = (it - entries_.begin()) - 1;
  }
  bool Valid() const override { return pos_ >= 0 && pos_ < static_cast<ptrdiff_t>(entries_.size()); }
  void Next() override {
    if (Valid()) ++pos_;
  }
  void Prev() override {
    if (Valid()) --pos_;
  }
  std::string_view key() const override { return entries_[pos_].first; }
  std::string_view value() const override { return entries_[pos_].second; }
  Status status() const override { return Status::Ok(); }

 private:
  std::string encoded_;
  std::vector<std::pair<std::string_view, std::string_view>> entries_;
  ptrdiff_t pos_ = -1;
};

}  // namespace

// Passes every call to `inner_` and, while the caller walks the whole range in one direction,
// keeps what it reads; at the walk's end the range goes into the cache.
class RecordingIterator : public Iterator {
 public:
  RecordingIterator(std::shared_ptr<RangeCache> cache, std::unique_ptr<Iterator> inner, std::string lower,
                    std::string upper, uint64_t token)
      : cache_(std::move(cache)),
        inner_(std::move(inner)),
        lower_(std::move(lower)),
        upper_(std::move(upper)),
        token_(token) {}

  void SeekToFirst() override {
    inner_->SeekToFirst();
    Start(kForward);
  }
  void SeekToLast() override {
    inner_->SeekToLast();
    Start(kBackward);
  }
  void Seek(std::string_view key) override {
    mode_ = kOff;
    inner_->Seek(key);
  }
  void SeekForPrev(std::string_view key) override {
    mode_ = kOff;
    inner_->SeekForPrev(key);
  }
  bool Valid() const override { return inner_->Valid(); }
  void Next() override {
    if (mode_ != kForward) mode_ = kOff;
    inner_->Next();
    Record();
  }
  void Prev() override {
    if (mode_ != kBackward) mode_ = kOff;
    inner_->Prev();
    Record();
  }
  std::string_view key() const override { return inner_->key(); }
  std::string_view value() const override { return inner_->value(); }
  Status status() const override { return inner_->status(); }

 private:
  enum Mode { kIdle, kForward, kBackward, kOff };

  void Start(Mode mode) {
    mode_ = mode_ == kIdle ? mode : kOff;
    Record();
  }

  // After a move: keep the entry reached, or at the range's end cache what was kept.
  void Record() {
    if (mode_ != kForward && mode_ != kBackward) return;
    if (!inner_->Valid()) {
      if (inner_->status().ok()) Finish();
      mode_ = kOff;
      return;
    }
    std::string_view key = inner_->key(), value = inner_->value();
    if (recorded_.size() + kEntryHeader + key.size() + value.size() > RangeCache::kMaxRangeBytes) {
      mode_ = kOff;
      recorded_ = std::string();
      return;
    }
    offsets_.push_back(static_cast<uint32_t>(recorded_.size()));
    AppendU32(recorded_, key.size());
    AppendU32(recorded_, value.size());
    recorded_.append(key);
    recorded_.append(value);
  }

  void Finish() {
    std::string encoded;
    encoded.reserve(lower_.size() + upper_.size() + 8 + recorded_.size());
    AppendU32(encoded, lower_.size());
    encoded.append(lower_);
    AppendU32(encoded, upper_.size());
    encoded.append(upper_);
    if (mode_ == kForward) {
      encoded.append(recorded_);
    } else {  // recorded last to first
      for (auto it = offsets_.rbegin(); it != offsets_.rend(); ++it) {
        const char* p = recorded_.data() + *it;
        encoded.append(p, kEntryHeader + ReadU32(p) + ReadU32(p + 4));
      }
    }
    cache_->groups_.Fill(std::string_view(lower_).substr(0, cache_->group_bytes_), token_, encoded);
  }

  std::shared_ptr<RangeCache> cache_;
  std::unique_ptr<Iterator> inner_;
  std::string lower_, upper_;
  uint64_t token_;
  Mode mode_ = kIdle;
  std::string recorded_;           // entries in walk order, encoded as in the cache
  std::vector<uint32_t> offsets_;  // where each entry of recorded_ begins
};

RangeCache::RangeCache(size_t capacity_bytes, size_t group_bytes)
    : group_bytes_(group_bytes), groups_(capacity_bytes) {}

bool RangeCache::Cacheable(std::string_view lower, std::string_view upper) const {
  return group_bytes_ > 0 && lower.size() >= group_bytes_ && upper.size() >= group_bytes_ &&
         lower.compare(0, group_bytes_, upper, 0, group_bytes_) == 0;
}

std::unique_ptr<Iterator> RangeCache::Lookup(std::string_view lower, std::string_view upper, uint64_t* token) {
  std::optional<std::string> encoded = groups_.Lookup(lower.substr(0, group_bytes_), token);
  if (!encoded) return nullptr;
  const char* p = encoded->data();
  std::string_view cached_lower(p + 4, ReadU32(p));
  p += 4 + cached_lower.size();
  std::string_view cached_upper(p + 4, ReadU32(p));
  p += 4 + cached_upper.size();
  if (lower < cached_lower || upper > cached_upper) return nullptr;
  size_t entries_offset = p - encoded->data();
  return std::make_unique<CachedIterator>(std::move(*encoded), entries_offset, lower, upper);
}

std::unique_ptr<Iterator> RangeCache::Recording(std::shared_ptr<RangeCache> cache, std::unique_ptr<Iterator> inner,
                                                std::string lower, std::string upper, uint64_t token) {
  return std::make_unique<RecordingIterator>(std::move(cache), std::move(inner), std::move(lower), std::move(upper),
                                             token);
}

std::vector<std::string_view> RangeCache::GroupsOf(const std::vector<std::string_view>& keys) const {
  // A key shorter than a group prefix lies in no cacheable range (both bounds of one have the prefix).
  std::vector<std::string_view> groups;
  groups.reserve(keys.size());
  for (std::string_view key : keys) {
    if (key.size() >= group_bytes_) groups.push_back(key.substr(0, group_bytes_));
  }
  return groups;
}

void RangeCache::BeginWrite(const std::vector<std::string_view>& keys) {
  if (group_bytes_ > 0) groups_.BeginWrite(GroupsOf(keys));  // without groups nothing is ever cached
}

void RangeCache::EndWrite(const std::vector<std::string_view>& keys) {
  if (group_bytes_ > 0) groups_.EndWrite(GroupsOf(keys));
}

}  // namespace monotable::engine
