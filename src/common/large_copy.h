// Large memory copies without `rep movsb` on the CPUs where it is slow.
//
// Debian 12's glibc (2.36) copies blocks of 2,112 bytes up to the L2 cache's size with `rep movsb`
// on CPUs with "fast short rep movsb". On AMD Zen 3 and 4 that instruction runs 4-35x slower when
// the destination starts 1 to 31 bytes past the source modulo 4096: up to 2.5 us instead of 0.07
// for 4 KB (sourceware.org glibc bug 30994). Heap blocks of one size class sit at fixed offsets in
// their pages, so a hot path can meet that window on every request: a 4 KB PutItem's item encoding
// did (2.7 us a request), and copies took 10 % of the server's CPU in that workload.
//
// Every executable that links this layer (the server, the tests, the benchmarks) is linked with
// -Wl,--wrap=memcpy,--wrap=memmove (CMakeLists.txt), so that every memcpy and memmove call of
// monotable's code and of the libraries linked in statically (RocksDB, libstdc++) goes to
// __wrap_memcpy/__wrap_memmove (large_copy.cc). On AMD CPUs, a copy of more than
// kCopyChunkBytes and less than the L2 cache's size, between regions that do not overlap, is made
// as glibc copies of at most kCopyChunkBytes each, which glibc makes with vector loads and stores
// whatever the alignment. Every other call goes straight to glibc's memcpy or memmove.
#pragma once

#include <cstddef>

namespace monotable {

// Below glibc's smallest `rep movsb` threshold (2,112 bytes with fast short rep movsb).
inline constexpr size_t kCopyChunkBytes = 2048;

// The size from which copies go whole to glibc again (glibc stops using `rep movsb` at the L2
// cache's size on AMD), or 0 when no copy is split: CPUs of other vendors. `l2_bytes` <= 0 (not
// known) counts as 512 KB.
size_t ChunkedCopyLimit(bool amd, long l2_bytes);

// ChunkedCopyLimit for this machine's CPU, determined on first use.
size_t ChunkedCopyLimitHere();

// Copies n bytes as glibc copies of at most kCopyChunkBytes, front to back. The regions must not
// overlap. Returns dst.
void* CopyInChunks(void* dst, const void* src, size_t n);

}  // namespace monotable
