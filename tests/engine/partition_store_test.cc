// The PartitionStore contract suite (partition_store_contract.h) against the embedded backends:
// the ordered adapter over the memory engine and over RocksDB, and the partitioned test engine.
#include <memory>
#include <utility>

#include "engine/memory/memory_engine.h"
#include "engine/ordered_store.h"
#include "engine/partitioned/partitioned_store.h"
#include "engine/rocksdb/rocksdb_engine.h"
#include "partition_store_contract.h"
#include "rocksdb_fixtures.h"

namespace monotable::engine {
namespace {

struct MemoryBackend {
  std::unique_ptr<Engine> engine;
  std::unique_ptr<PartitionStore> Open() {
    if (!engine) engine = NewMemoryEngine();
    return NewOrderedStore(*engine);
  }
  void Close() {}  // the memory engine is the state: kept
};

struct RocksBackend {
  TempDir dir{"mt_pstore_"};
  std::unique_ptr<Engine> engine;
  std::unique_ptr<PartitionStore> Open() {
    auto r = OpenRocksDbEngine({.path = dir.db(), .sync = false});
    EXPECT_TRUE(r.ok()) << r.status().message();
    engine = std::move(r).value();
    return NewOrderedStore(*engine);
  }
  void Close() { engine.reset(); }
};

struct PartitionedBackend {
  std::shared_ptr<PartitionedState> state = NewPartitionedState();
  std::unique_ptr<PartitionStore> Open() { return OpenPartitionedStore(state); }
  void Close() {}
};

using Backends = ::testing::Types<MemoryBackend, RocksBackend, PartitionedBackend>;
INSTANTIATE_TYPED_TEST_SUITE_P(Embedded, PartitionStoreContract, Backends);

}  // namespace
}  // namespace monotable::engine
