#include "model/json_writer.h"

#include <cstring>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include <string>

#include "common/base64.h"

namespace monotable::model {
namespace {

// What a string needs before it can be copied between quotes: kEscape when some byte is below
// 0x20, a quote or a backslash (what JSON strings escape), kNonAscii when some byte is 0x80 or
// above (then the text is checked to be UTF-8). Checked sixteen bytes at a time with SSE2 where
// there is SSE2, then eight at a time: a byte b < n sets the high bit of (b - n) & ~b (exact as
// to whether any does).
constexpr int kEscape = 1, kNonAscii = 2;

int ScanString(const char* s, size_t n) {
  size_t i = 0;
  int found = 0;
#ifdef __SSE2__
  const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\'), control = _mm_set1_epi8(0x1f);
  for (; i + 16 <= n; i += 16) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i));
    const __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, quote), _mm_cmpeq_epi8(x, backslash)),
                                     _mm_cmpeq_epi8(_mm_min_epu8(x, control), x));  // x <= 0x1f
    if (_mm_movemask_epi8(hit) != 0) found |= kEscape;
    if (_mm_movemask_epi8(x) != 0) found |= kNonAscii;
    if (found == (kEscape | kNonAscii)) return found;
  }
#endif
  constexpr uint64_t kOnes = 0x0101010101010101ULL, kHigh = 0x8080808080808080ULL;
  auto has_less = [&](uint64_t x, uint64_t below) { return (x - below * kOnes) & ~x & kHigh; };
  for (; i + 8 <= n; i += 8) {
    uint64_t x;
    std::memcpy(&x, s + i, 8);
    if (has_less(x, 0x20) | has_less(x ^ (0x22 * kOnes), 1) | has_less(x ^ (0x5C * kOnes), 1)) found |= kEscape;
    if (x & kHigh) found |= kNonAscii;
  }
  for (; i < n; ++i) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 || c == '"' || c == '\\') found |= kEscape;
    if (c >= 0x80) found |= kNonAscii;
  }
  return found;
}

// Length of the well-formed UTF-8 sequence at s[0] (RFC 3629: no overlong forms, no surrogates,
// nothing above U+10FFFF), or 0 when it is not one.
size_t Utf8SequenceLength(const unsigned char* s, size_t n) {
  const unsigned char c = s[0];
  if (c < 0x80) return 1;
  auto tail = [&](size_t i, unsigned char lo = 0x80, unsigned char hi = 0xBF) { return i < n && s[i] >= lo && s[i] <= hi; };
  if (c >= 0xC2 && c <= 0xDF) return tail(1) ? 2 : 0;
  if (c >= 0xE0 && c <= 0xEF) {
    const unsigned char lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
    return tail(1, lo, hi) && tail(2) ? 3 : 0;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    const unsigned char lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
    return tail(1, lo, hi) && tail(2) && tail(3) ? 4 : 0;
  }
  return 0;
}

bool IsUtf8(const char* s, size_t n) {
  const auto* p = reinterpret_cast<const unsigned char*>(s);
  for (size_t i = 0; i < n;) {
    const size_t length = Utf8SequenceLength(p + i, n - i);
    if (length == 0) return false;
    i += length;
  }
  return true;
}

// The text with every byte that does not start a well-formed sequence replaced by U+FFFD.
std::string ToUtf8(const char* s, size_t n) {
  const auto* p = reinterpret_cast<const unsigned char*>(s);
  std::string out;
  out.reserve(n + 8);
  for (size_t i = 0; i < n;) {
    const size_t length = Utf8SequenceLength(p + i, n - i);
    if (length == 0) {
      out += "\xEF\xBF\xBD";
      ++i;
    } else {
      out.append(s + i, length);
      i += length;
    }
  }
  return out;
}

// Appends `s` quoted and escaped as JSON: \b \t \n \f \r \" \\ and \u00XX for the other
// control characters, as RapidJSON writes them. (RapidJSON's own writer cannot be used: its SSE2
// scan, RAPIDJSON_SSE2, compares with 0x19 instead of 0x1F and copies U+001A..U+001F unescaped
// from any aligned 16-byte block, which makes the answer JSON no reader accepts.)
void AppendQuoted(rapidjson::StringBuffer& os, const char* s, size_t n) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  char* out = os.Push(n * 6 + 2);  // the worst case: every byte as \u00XX
  char* const start = out;
  *out++ = '"';
  for (size_t i = 0; i < n; ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\') {
      *out++ = static_cast<char>(c);
      continue;
    }
    *out++ = '\\';
    switch (c) {
      case '"': *out++ = '"'; break;
      case '\\': *out++ = '\\'; break;
      case '\b': *out++ = 'b'; break;
      case '\t': *out++ = 't'; break;
      case '\n': *out++ = 'n'; break;
      case '\f': *out++ = 'f'; break;
      case '\r': *out++ = 'r'; break;
      default:
        *out++ = 'u', *out++ = '0', *out++ = '0', *out++ = kHex[c >> 4], *out++ = kHex[c & 15];
    }
  }
  *out++ = '"';
  os.Pop(n * 6 + 2 - static_cast<size_t>(out - start));
}

}  // namespace

// Every string of every answer goes through here or RawString: the one place that makes the
// output JSON a strict reader accepts. Control characters, quotes and backslashes are escaped;
// text that is not UTF-8 (stored strings are, as requests are validated; a message may quote a
// cut byte sequence) has its stray bytes replaced by U+FFFD rather than sent as they are, which
// would make clients drop the whole answer.
bool JsonWriter::String(const char* s, rapidjson::SizeType length, bool) {
  Prefix(rapidjson::kStringType);
  RawString({s, length});
  return EndValue(true);
}

void JsonWriter::RawString(std::string_view text) {
  const int found = ScanString(text.data(), text.size());
  if ((found & kNonAscii) && !IsUtf8(text.data(), text.size())) {
    const std::string valid = ToUtf8(text.data(), text.size());
    AppendQuoted(*os_, valid.data(), valid.size());
    return;
  }
  if (found & kEscape) {
    AppendQuoted(*os_, text.data(), text.size());
    return;
  }
  char* out = os_->Push(text.size() + 2);
  out[0] = '"';
  std::memcpy(out + 1, text.data(), text.size());
  out[text.size() + 1] = '"';
}

void WriteAttributeValue(JsonWriter& w, const AttributeValue& value) {
  w.StartObject();
  switch (value.type()) {
    case AttrType::kS:
      w.Key("S");
      w.String(value.s().data(), static_cast<rapidjson::SizeType>(value.s().size()));
      break;
    case AttrType::kN: {
      w.Key("N");
      std::string text = value.n().ToString();
      w.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
      break;
    }
    case AttrType::kB: {
      w.Key("B");
      std::string text = Base64Encode(value.bytes());
      w.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
      break;
    }
    case AttrType::kBool:
      w.Key("BOOL");
      w.Bool(value.boolean());
      break;
    case AttrType::kNull:
      w.Key("NULL");
      w.Bool(true);
      break;
    case AttrType::kL:
      w.Key("L");
      w.StartArray();
      for (const auto& element : value.l()) WriteAttributeValue(w, element);
      w.EndArray();
      break;
    case AttrType::kM:
      w.Key("M");
      WriteItem(w, value.m());
      break;
    case AttrType::kSS:
      w.Key("SS");
      w.StartArray();
      for (const auto& m : value.string_set()) w.String(m.data(), static_cast<rapidjson::SizeType>(m.size()));
      w.EndArray();
      break;
    case AttrType::kBS:
      w.Key("BS");
      w.StartArray();
      for (const auto& m : value.string_set()) {
        std::string text = Base64Encode(m);
        w.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
      }
      w.EndArray();
      break;
    case AttrType::kNS:
      w.Key("NS");
      w.StartArray();
      for (const auto& m : value.number_set()) {
        std::string text = m.ToString();
        w.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
      }
      w.EndArray();
      break;
  }
  w.EndObject();
}

void WriteItem(JsonWriter& w, const Item& item) {
  w.StartObject();
  for (const auto& [name, value] : item) {
    w.Key(name.data(), static_cast<rapidjson::SizeType>(name.size()));
    WriteAttributeValue(w, value);
  }
  w.EndObject();
}

}  // namespace monotable::model
