#include "engine/rocksdb/no_options_file.h"

namespace monotable::engine {

namespace {
constexpr std::string_view kDeclined = "monotable writes no RocksDB OPTIONS file";
}

rocksdb::IOStatus NoOptionsFileSystem::NewWritableFile(const std::string& name, const rocksdb::FileOptions& options,
                                                       std::unique_ptr<rocksdb::FSWritableFile>* result,
                                                       rocksdb::IODebugContext* debug) {
  std::string_view file = name;
  if (size_t slash = file.rfind('/'); slash != std::string_view::npos) file.remove_prefix(slash + 1);
  if (file.starts_with("OPTIONS-")) return rocksdb::IOStatus::NotSupported(std::string(kDeclined));
  return target()->NewWritableFile(name, options, result, debug);
}

bool IsOptionsFileWarning(std::string_view line) {
  // "[db/db_impl/db_impl.cc:N] Unnable to persist options -- Not implemented: <kDeclined>"
  return line.find(kDeclined) != std::string_view::npos;
}

}  // namespace monotable::engine
