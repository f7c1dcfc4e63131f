// Standard base64 (RFC 4648, '+' '/', '=' padding) as DynamoDB's wire format uses it for B/BS.
//
// IsCanonicalBase64 is true only for text that decodes and re-encodes to itself (length a multiple
// of 4, valid alphabet, correct padding, zero unused bits), which is what AWS accepts.
#pragma once

#include <string>
#include <string_view>

namespace monotable {

std::string Base64Encode(std::string_view bytes);
void Base64Encode(std::string_view bytes, std::string& out);
bool IsCanonicalBase64(std::string_view text);
// Decodes canonical base64; the caller checks IsCanonicalBase64 first.
std::string Base64Decode(std::string_view text);

}  // namespace monotable
