#include "model/item_codec.h"

#include <optional>

namespace monotable {
namespace {

void AppendVarint(uint64_t v, std::string& out) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

void AppendBytes(std::string_view bytes, std::string& out) {
  AppendVarint(bytes.size(), out);
  out.append(bytes);
}

void EncodeValue(const AttributeValue& value, std::string& out) {
  out.push_back(static_cast<char>(value.type()));
  switch (value.type()) {
    case AttrType::kS:
    case AttrType::kB:
      AppendBytes(value.s(), out);
      break;
    case AttrType::kN:
      value.n().AppendOrderedKey(out);
      break;
    case AttrType::kBool:
      out.push_back(value.boolean() ? 1 : 0);
      break;
    case AttrType::kNull:
      break;
    case AttrType::kL:
      AppendVarint(value.l().size(), out);
      for (const auto& element : value.l()) EncodeValue(element, out);
      break;
    case AttrType::kM:
      AppendVarint(value.m().size(), out);
      for (const auto& [name, element] : value.m()) {
        AppendBytes(name, out);
        EncodeValue(element, out);
      }
      break;
    case AttrType::kSS:
    case AttrType::kBS:
      AppendVarint(value.string_set().size(), out);
      for (const auto& member : value.string_set()) AppendBytes(member, out);
      break;
    case AttrType::kNS:
      AppendVarint(value.number_set().size(), out);
      for (const auto& member : value.number_set()) member.AppendOrderedKey(out);
      break;
  }
}

class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}

  bool ok() const { return ok_; }
  bool done() const { return in_.empty(); }

  uint64_t Varint() {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (in_.empty()) return Fail();
      auto byte = static_cast<uint8_t>(in_.front());
      in_.remove_prefix(1);
      v |= static_cast<uint64_t>(byte & 0x7f) << shift;
      if (!(byte & 0x80)) return v;
    }
    return Fail();
  }

  std::string Bytes() { return std::string(BytesView()); }

  std::string_view BytesView() {
    uint64_t n = Varint();
    if (!ok_ || n > in_.size()) return Fail(), std::string_view();
    std::string_view s = in_.substr(0, n);
    in_.remove_prefix(n);
    return s;
  }

  uint8_t Byte() {
    if (in_.empty()) return Fail();
    auto b = static_cast<uint8_t>(in_.front());
    in_.remove_prefix(1);
    return b;
  }

  uint64_t NumSize() {
    auto n = StoredNumber::Read(in_);
    if (!n.ok()) return Fail();
    return n->StorageSize();
  }

  Number Num() {
    auto n = StoredNumber::Read(in_);
    if (!n.ok()) return Fail(), Number();
    return n->Decode();
  }

  // An N value for a visitor: checked, not decoded; nullopt, the reader failed, when corrupt.
  std::optional<StoredNumber> StoredNum() {
    auto n = StoredNumber::Read(in_);
    if (!n.ok()) return Fail(), std::nullopt;
    return *n;
  }

  // Guards against counts that cannot fit in the remaining bytes (each element takes >= 1 byte).
  uint64_t Count() {
    uint64_t n = Varint();
    if (n > in_.size()) return Fail();
    return n;
  }

  AttributeValue Value(int depth) {
    if (depth > 64) return Fail(), AttributeValue();
    auto type = static_cast<AttrType>(Byte());
    switch (type) {
      case AttrType::kS: return AttributeValue::S(Bytes());
      case AttrType::kB: return AttributeValue::B(Bytes());
      case AttrType::kN: return AttributeValue::N(Num());
      case AttrType::kBool: return AttributeValue::Bool(Byte() != 0);
      case AttrType::kNull: return AttributeValue::Null();
      case AttrType::kL: {
        AttributeValue::List list;
        for (uint64_t i = 0, n = Count(); i < n && ok_; ++i) list.push_back(Value(depth + 1));
        return AttributeValue::L(std::move(list));
      }
      case AttrType::kM: {
        AttributeValue::Map map;
        for (uint64_t i = 0, n = Count(); i < n && ok_; ++i) {
          std::string name = Bytes();
          map.emplace(std::move(name), Value(depth + 1));
        }
        return AttributeValue::M(std::move(map));
      }
      case AttrType::kSS:
      case AttrType::kBS: {
        std::vector<std::string> members;
        for (uint64_t i = 0, n = Count(); i < n && ok_; ++i) members.push_back(Bytes());
        return type == AttrType::kSS ? AttributeValue::SS(std::move(members))
                                     : AttributeValue::BS(std::move(members));
      }
      case AttrType::kNS: {
        std::vector<Number> members;
        for (uint64_t i = 0, n = Count(); i < n && ok_; ++i) members.push_back(Num());
        return AttributeValue::NS(std::move(members));
      }
    }
    return Fail(), AttributeValue();
  }

  // ItemSize's share of the value at the front (AttributeValueSize's rules), read without building
  // it or calling a visitor; an element of a list costs one byte more, which the list adds.
  uint64_t ValueSize(int depth) {
    if (depth > 64) return Fail();
    auto type = static_cast<AttrType>(Byte());
    switch (type) {
      case AttrType::kS:
      case AttrType::kB: return BytesView().size();
      case AttrType::kN: return NumSize();
      case AttrType::kBool: return Byte(), 1;
      case AttrType::kNull: return 1;
      case AttrType::kL:
      case AttrType::kM: {
        uint64_t size = 3;
        for (uint64_t i = 0, n = Count(); i < n && ok_; ++i) {
          if (type == AttrType::kM) size += BytesView().size();  // a member's name
          size += 1 + ValueSize(depth + 1);
        }
        return size;
      }
      case AttrType::kSS:
      case AttrType::kBS:
      case AttrType::kNS: {
        uint64_t size = 0;
        for (uint64_t i = 0, n = Count(); i < n && ok_; ++i) size += type == AttrType::kNS ? NumSize() : BytesView().size();
        return size;
      }
    }
    return Fail();
  }

  void Visit(int depth, EncodedItemVisitor& v) {
    if (depth > 64) return (void)Fail();
    auto type = static_cast<AttrType>(Byte());
    switch (type) {
      case AttrType::kS:
      case AttrType::kB: {
        std::string_view bytes = BytesView();
        if (ok_) v.Bytes(type, bytes);
        return;
      }
      case AttrType::kN: {
        if (auto n = StoredNum()) v.Num(*n);
        return;
      }
      case AttrType::kBool: {
        bool b = Byte() != 0;
        if (ok_) v.Boolean(b);
        return;
      }
      case AttrType::kNull: return v.Null();
      case AttrType::kL:
      case AttrType::kM:
      case AttrType::kSS:
      case AttrType::kBS:
      case AttrType::kNS: {
        uint64_t n = Count();
        if (!ok_) return;
        v.Begin(type, n);
        for (uint64_t i = 0; i < n && ok_; ++i) {
          if (type == AttrType::kM) {
            std::string_view name = BytesView();
            if (!ok_) return;
            v.Name(name);
            Visit(depth + 1, v);
          } else if (type == AttrType::kL) {
            Visit(depth + 1, v);
          } else if (type == AttrType::kNS) {
            if (auto member = StoredNum()) v.Num(*member);
          } else {
            std::string_view member = BytesView();
            if (ok_) v.Bytes(type == AttrType::kSS ? AttrType::kS : AttrType::kB, member);
          }
        }
        if (ok_) v.End(type);
        return;
      }
    }
    Fail();
  }

 private:
  uint8_t Fail() {
    ok_ = false;
    in_ = {};
    return 0;
  }

  std::string_view in_;
  bool ok_ = true;
};

}  // namespace

void EncodeItem(const Item& item, std::string& out) {
  AppendVarint(item.size(), out);
  for (const auto& [name, value] : item) {
    AppendBytes(name, out);
    EncodeValue(value, out);
  }
}

std::string EncodeItem(const Item& item) {
  std::string out;
  EncodeItem(item, out);
  return out;
}

Result<Item> DecodeItem(std::string_view bytes) {
  Reader reader(bytes);
  Item item;
  for (uint64_t i = 0, n = reader.Count(); i < n && reader.ok(); ++i) {
    std::string name = reader.Bytes();
    item.emplace(std::move(name), reader.Value(1));
  }
  if (!reader.ok() || !reader.done()) return Status(ErrorCode::kCorruption, "corrupt item record");
  return item;
}

Status VisitEncodedItem(std::string_view bytes, EncodedItemVisitor& visitor) {
  Reader reader(bytes);
  for (uint64_t i = 0, n = reader.Count(); i < n && reader.ok(); ++i) {
    std::string_view name = reader.BytesView();
    if (!reader.ok()) break;
    visitor.Name(name);
    reader.Visit(1, visitor);
  }
  if (!reader.ok() || !reader.done()) return Status(ErrorCode::kCorruption, "corrupt item record");
  return Status::Ok();
}

namespace {

// ItemSize's rules (model/attribute_value.cc AttributeValueSize) applied while walking: L and M
// cost 3 bytes plus one a member (and the member name in M); set members cost their own size.
class SizeVisitor : public EncodedItemVisitor {
 public:
  uint64_t size = 0;

  void Name(std::string_view name) override { size += name.size() + (depth_ > 0 ? 1 : 0); }
  void Bytes(AttrType, std::string_view bytes) override { Element(bytes.size()); }
  void Num(const StoredNumber& number) override { Element(number.StorageSize()); }
  void Boolean(bool) override { Element(1); }
  void Null() override { Element(1); }
  void Begin(AttrType type, uint64_t) override {
    Element(type == AttrType::kL || type == AttrType::kM ? 3 : 0);
    if (depth_ < kMaxDepth) in_list_[depth_] = type == AttrType::kL;
    ++depth_;
  }
  void End(AttrType) override { --depth_; }

 private:
  static constexpr int kMaxDepth = 80;
  // A list element costs one byte beyond its own size (a map member's byte is counted with its name).
  void Element(uint64_t own) { size += own + (depth_ > 0 && depth_ <= kMaxDepth && in_list_[depth_ - 1] ? 1 : 0); }

  int depth_ = 0;
  bool in_list_[kMaxDepth] = {};
};

// Hands everything to a SizeVisitor and to another visitor.
class SizingVisitor final : public EncodedItemVisitor {
 public:
  explicit SizingVisitor(EncodedItemVisitor& other) : other_(other) {}
  SizeVisitor sizer;

  void Name(std::string_view name) override { sizer.Name(name), other_.Name(name); }
  void Bytes(AttrType type, std::string_view bytes) override { sizer.Bytes(type, bytes), other_.Bytes(type, bytes); }
  void Num(const StoredNumber& number) override { sizer.Num(number), other_.Num(number); }
  void Boolean(bool value) override { sizer.Boolean(value), other_.Boolean(value); }
  void Null() override { sizer.Null(), other_.Null(); }
  void Begin(AttrType type, uint64_t count) override { sizer.Begin(type, count), other_.Begin(type, count); }
  void End(AttrType type) override { sizer.End(type), other_.End(type); }

 private:
  EncodedItemVisitor& other_;
};

}  // namespace

Result<uint64_t> EncodedItemSize(std::string_view bytes) {
  Reader reader(bytes);
  uint64_t size = 0;
  for (uint64_t i = 0, n = reader.Count(); i < n && reader.ok(); ++i) {
    size += reader.BytesView().size();
    if (!reader.ok()) break;
    size += reader.ValueSize(1);
  }
  if (!reader.ok() || !reader.done()) return Status(ErrorCode::kCorruption, "corrupt item record");
  return size;
}

Result<uint64_t> VisitEncodedItemSized(std::string_view bytes, EncodedItemVisitor& visitor) {
  SizingVisitor sizing(visitor);
  MT_RETURN_IF_ERROR(VisitEncodedItem(bytes, sizing));
  return sizing.sizer.size;
}

void AppendKeyComponent(const AttributeValue& key_value, std::string& out) {
  if (key_value.type() == AttrType::kN) {
    key_value.n().AppendOrderedKey(out);
    return;
  }
  // S and B: bytes with 0x00 escaped as 0x00 0xFF, terminated by 0x00 0x01.
  for (char c : key_value.s()) {
    out.push_back(c);
    if (c == '\0') out.push_back(static_cast<char>(0xFF));
  }
  out.push_back('\0');
  out.push_back('\x01');
}

uint64_t PartitionHash(const AttributeValue& partition_key) {
  // FNV-1a over the type tag and the canonical key bytes, then a final avalanche (splitmix64)
  // so that hash-range segments split evenly.
  std::string canonical;
  AppendKeyComponent(partition_key, canonical);
  uint64_t h = 1469598103934665603ULL ^ static_cast<uint8_t>(partition_key.type());
  for (unsigned char c : canonical) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  h += 0x9e3779b97f4a7c15ULL;
  h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
  h = (h ^ (h >> 27)) * 0x94d049bb133111ebULL;
  return h ^ (h >> 31);
}

void AppendBigEndian32(uint32_t v, std::string& out) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<char>((v >> shift) & 0xff));
}

void AppendBigEndian64(uint64_t v, std::string& out) {
  for (int shift = 56; shift >= 0; shift -= 8) out.push_back(static_cast<char>((v >> shift) & 0xff));
}

uint64_t ReadBigEndian(std::string_view bytes) {
  uint64_t v = 0;
  for (unsigned char c : bytes) v = (v << 8) | c;
  return v;
}

}  // namespace monotable
