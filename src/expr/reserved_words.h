// Reserved words: DynamoDB's 573 words that may not appear bare as attribute names in expressions.
//
// Contract: IsReservedWord() is case-insensitive ("Size", "SIZE" and "size" are all reserved) and
// allocation-free. Callers report the word as the user wrote it, which is what DynamoDB echoes.
#pragma once

#include <cstddef>
#include <string_view>

namespace monotable::expr {

bool IsReservedWord(std::string_view word);
size_t ReservedWordCount();

}  // namespace monotable::expr
