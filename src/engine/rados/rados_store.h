// RadosStore: the PartitionStore contract (engine.h, part 1) kept in a Ceph RADOS pool through
// librados, so that several monotable servers can share one cluster (issue #46). This is the
// storage foundation only: `serve --ceph`, partition split and directory sharding come later.
//
// Layout in the pool (inside RadosOptions::name_space; <ks> is the keyspace as 8 hex digits):
//   p.<ks>.<partition id in hex>   one object per partition (ids longer than 512 bytes are named
//                                  by their 8-byte hash in hex + ".sha256." + the id's SHA-256)
//     omap "h"                     head: next log position u64 + first untrimmed position u64
//     omap "i" + sort key          an item: "v" + value (the tag tells an empty value from absent)
//     omap "l" + position u64      a change-log record
//     omap "m" + sort key          a prepare marker: "v" + value (guarded like items)
//     omap "x" + keyspace u32 + sort key   an entry of a keyspace colocated with this one (an
//                                  LSI's entry, engine.h): "v" + value, written by the home
//                                  partition's commits (local_mutations) in the same operation
//   k.<ks>.<h>                     the keyspace's directory, 16 objects: <h> is the top 4 bits of
//                                  the partition hash (one hex digit), so shard order is hash order
//     omap "p" + partition id      every partition ever written (value empty)
//     omap "l" + partition id      a partition that has ever had a log record (ScanLogs' list)
// all integers big-endian. omap keys are ordered bytewise, so a partition's items are its omap
// range "i"..."j" in sort-key order and the directory lists partitions in hash order.
//
// Contract (beyond engine.h):
// - A Commit is ONE librados::ObjectWriteOperation on the partition's object, applied atomically
//   by its primary OSD: guards are omap_cmp assertions (absent = empty, which no stored value is),
//   then omap_set / omap_rm_keys. A commit with log records first reads the head, then adds the
//   head to the assertions and writes records "l"+position and the new head in the same operation;
//   when an assertion fails (-ECANCELED) the guarded keys are read again: a guard that no longer
//   holds answers kGuardFailed (nothing applied), a moved head retries. Commits without log records
//   cost one round trip; with them, one too when the head this store last saw for the partition
//   (a bounded cache) is still current, else two (or three, when the cached head was stale).
// - The first write to a partition meets -ENOENT (every write asserts the object exists): the
//   partition is then added to its directory, and the object is made by an exclusive create
//   carrying the write (guards expecting a value fail; -EEXIST retries). A partition's "l" entry
//   in the directory is written before its first log record, so ScanLogs finds every partition
//   with records. Directory entries are never removed except by DropKeyspace: an emptied partition
//   stays listed, and ScanLogs reads the head of every partition that ever logged (a cost, not a
//   correctness issue).
// - Reads. Get is one round trip. ReadRange forward reads pages of omap (32 entries, then growing
//   to 1024) from "i"+lower and visits each page as it arrives; each page is one consistent view
//   of the partition, and later pages assert the object version of the first one: if the partition
//   changed meanwhile, the rest is read at the new version (a limit against the contract's one view
//   per read, for reads longer than one page under concurrent writes). ReadRange backward reads the
//   whole [lower, upper) forward (omap iterates forward only), restarting until all pages share one
//   version, then visits it in reverse: one view, O(range) cost however early the visitor stops.
//   ScanKeyspace walks the directory from the partition holding `lower` and reads each partition
//   as ReadRange forward does. Reads of a colocated keyspace (PartitionRef/KeyspaceRef with a home)
//   are the same reads on the home's objects and directory, over that keyspace's "x" range, so an
//   LSI Query or Scan reads its table's partition objects. ApproximateBytes sums the sizes of a
//   partition's items, or of one colocated keyspace's entries (an item collection's size is the
//   table partition's plus each LSI's); it reads them, no counter is kept yet. ReadToken is not
//   used (guards always compare on the OSD).
// - DropKeyspace removes every partition object its directory lists, then the directory (the
//   colocated keyspaces' entries go with their home's objects). Stores keep no cache of the
//   directory, so another store's later writes re-create entries as needed.
// - Known limits: no split of a partition by sort-key range yet: Ceph warns past ~200k omap keys
//   per object (osd_deep_scrub_large_omap_object_key_threshold), and one partition object is one
//   OSD's work. The planned split: the head gets a range map (sort-key boundary -> child object
//   "p.<ks>.<id>.<n>"); a split copies the upper half to a child in steps, then swaps the range
//   map under the head assertion, so commits keep one-object atomicity per range and a guard
//   spanning two ranges is refused and retried by the caller. The directory's 16 shards hold
//   about 3 million partitions per keyspace before Ceph's large-omap warning (more shards, chosen
//   per keyspace, would be the next step).
// - librados calls block the caller's thread (asynchronous completions waited on); all methods
//   are thread-safe. Errors from the cluster surface as kIo with librados' error text.
#pragma once

#include <memory>
#include <string>

#include "engine/engine.h"

namespace monotable::engine {

struct RadosOptions {
  std::string ceph_conf;              // path of a ceph.conf naming the monitors
  std::string pool = "dyn";           // an existing replicated pool
  std::string name_space;             // RADOS namespace for every object of the store ("" = default)
  std::string client_id = "admin";    // the cephx user (client.<id>)
  int op_timeout_seconds = 30;        // an operation or connect attempt that takes longer fails (kIo)
};

// Connects to the cluster (kIo when it cannot within the timeout, or when the pool is missing).
Result<std::unique_ptr<PartitionStore>> OpenRadosStore(const RadosOptions& options);

}  // namespace monotable::engine
