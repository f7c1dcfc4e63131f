// A RocksDB file system that declines to write RocksDB's OPTIONS file.
//
// Why (bench/RESULTS.md, session 14): on every open RocksDB serialises all of its options into a
// new OPTIONS file, parses the file back to verify it and renames it into place: 1.1 ms of a 9 ms
// start on the benchmark machine. monotable never reads that file: its options are code
// (MakeOptions in rocksdb_engine.cc), and the custom memtable and the table-properties collector it
// configures could not be rebuilt from the file anyway. RocksDB documents that an options file it
// cannot persist does not fail the open (DBOptions::fail_if_options_file_error, false by default):
// it logs a warning, which IsOptionsFileWarning lets the engine's logger drop.
//
// Contract:
// - NoOptionsFileSystem forwards everything to its target, except that NewWritableFile of a file
//   named OPTIONS-* (RocksDB writes it as OPTIONS-<n>.dbtmp, then renames it) returns NotSupported
//   and creates nothing. OPTIONS files an earlier version left in a directory stay as they are.
// - IsOptionsFileWarning(line): `line` is the warning RocksDB logs when that happens.
// - Tools that load a database's options from its OPTIONS file (ldb without options,
//   rocksdb::LoadLatestOptions) find none in a directory this created.
#pragma once

#include <rocksdb/file_system.h>

#include <memory>
#include <string>
#include <string_view>

namespace monotable::engine {

class NoOptionsFileSystem : public rocksdb::FileSystemWrapper {
 public:
  explicit NoOptionsFileSystem(const std::shared_ptr<rocksdb::FileSystem>& target) : FileSystemWrapper(target) {}

  static const char* kClassName() { return "MonotableNoOptionsFileSystem"; }
  const char* Name() const override { return kClassName(); }

  rocksdb::IOStatus NewWritableFile(const std::string& name, const rocksdb::FileOptions& options,
                                    std::unique_ptr<rocksdb::FSWritableFile>* result,
                                    rocksdb::IODebugContext* debug) override;
};

bool IsOptionsFileWarning(std::string_view line);

}  // namespace monotable::engine
