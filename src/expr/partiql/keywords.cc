#include "expr/partiql/keywords.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace monotable::expr::partiql {
namespace {

// Sorted, lower case.
constexpr std::array<std::string_view, 246> kReserved = {
    "absolute", "action", "add", "all", "allocate", "alter", "and", "any", "are", "as", "asc", "assertion", "at",
    "authorization", "avg", "bag", "begin", "between", "bit", "bit_length", "blob", "bool", "boolean", "both", "by",
    "cascade", "cascaded", "case", "cast", "catalog", "char", "char_length", "character", "character_length", "check",
    "clob", "close", "coalesce", "collate", "collation", "column", "commit", "conflict", "connect", "connection",
    "constraint", "constraints", "continue", "convert", "corresponding", "count", "create", "cross", "current",
    "current_date", "current_time", "current_timestamp", "current_user", "cursor", "date", "date_add", "date_diff",
    "deallocate", "dec", "decimal", "declare", "default", "deferrable", "deferred", "delete", "desc", "describe",
    "descriptor", "diagnostics", "disconnect", "distinct", "do", "domain", "double", "drop", "else", "end",
    "end-exec", "escape", "except", "exception", "exec", "execute", "exists", "external", "extract", "false", "fetch",
    "first", "float", "for", "foreign", "found", "from", "full", "get", "global", "go", "goto", "grant", "group",
    "having", "identity", "immediate", "in", "index", "indicator", "initially", "inner", "input", "insensitive",
    "insert", "int", "integer", "intersect", "interval", "into", "is", "isolation", "join", "key", "language", "last",
    "leading", "left", "let", "level", "like", "limit", "list", "local", "lower", "match", "max", "min", "missing",
    "modified", "module", "names", "national", "natural", "nchar", "new", "next", "no", "not", "nothing", "null",
    "nullif", "numeric", "octet_length", "of", "offset", "old", "on", "only", "open", "option", "or", "order",
    "outer", "output", "overlaps", "pad", "partial", "pivot", "position", "precision", "prepare", "preserve",
    "primary", "prior", "privileges", "procedure", "public", "read", "real", "references", "relative", "remove",
    "restrict", "returning", "revoke", "right", "rollback", "rows", "schema", "scroll", "section", "select",
    "session", "session_user", "set", "sexp", "size", "smallint", "some", "space", "sql", "sqlcode", "sqlerror",
    "sqlstate", "string", "struct", "substring", "sum", "symbol", "system_user", "table", "temporary", "then", "time",
    "timestamp", "to", "trailing", "transaction", "translate", "translation", "trim", "true", "tuple", "union",
    "unique", "unknown", "unpivot", "update", "upper", "usage", "user", "using", "value", "values", "varchar", "view",
    "when", "whenever", "where", "with", "work", "write", "zone",
};

}  // namespace

bool IsReservedWord(std::string_view word) {
  if (word.empty() || word.size() > 32) return false;
  char lower[32];
  for (size_t i = 0; i < word.size(); ++i) lower[i] = static_cast<char>(std::tolower(static_cast<unsigned char>(word[i])));
  return std::binary_search(kReserved.begin(), kReserved.end(), std::string_view(lower, word.size()));
}

}  // namespace monotable::expr::partiql
