// CRC32C (Castagnoli) with the SSE4.2 instruction, in place of RocksDB's software one.
//
// Why: Debian builds librocksdb for baseline x86-64, so RocksDB computes the CRC32C of every
// write-ahead-log record (and of table blocks when a table uses that checksum) with its portable
// table-driven code: ~2.8 us for a 4 KB item's record, 9 % of the I/O thread's time in a 4 KB
// PutItem workload. The SSE4.2 crc32 instruction does the same in ~0.5 us.
//
// How: crc32c_hardware.cc defines the three functions of RocksDB's util/crc32c.cc object
// (rocksdb::crc32c::Extend, Crc32cCombine and IsFastCrc32Supported, the object's only global
// symbols in Debian's RocksDB 7.8). Linked before librocksdb.a, they resolve RocksDB's
// references, so the linker never takes that object from the archive. Should a future RocksDB
// put more into that object, or reference a symbol only it defines, the link fails with a
// duplicate definition instead of mixing the two. With the shared librocksdb
// (MONOTABLE_STATIC_LIBS=OFF) the executable exports them and Debian's librocksdb.so calls Extend
// through its PLT, so these interpose there too. Only on x86-64: elsewhere the file defines none
// of RocksDB's functions and RocksDB keeps its own.
//
// Contract:
// - rocksdb::crc32c::Extend(crc, data, n) returns the CRC32C of (the data whose CRC32C is crc)
//   followed by data[0, n), as RocksDB's does; Crc32cCombine(crc1, crc2, n2) the CRC32C of the
//   concatenation of data A (CRC crc1) and data B of n2 bytes (CRC crc2).
// - Without SSE4.2 at run time, a byte-at-a-time table is used (same results). With PCLMULQDQ too,
//   data of 192 bytes or more is read as three interleaved crc32 chains joined by carry-less
//   multiplies (three times the rate of one chain); Crc32cCombine multiplies with PCLMULQDQ where
//   the processor has it, bit by bit where not.
// - HardwareCrc32cInUse() tells whether the instruction is used; calling it also keeps this
//   object in every link that has the RocksDB engine.
#pragma once

#include <cstddef>
#include <cstdint>

namespace monotable::engine {

bool HardwareCrc32cInUse();

// The fallbacks without SSE4.2 (or, for the combination, without PCLMUL), also for the tests:
// Extend's result computed a byte at a time, Crc32cCombine's with a bitwise multiplication.
uint32_t ExtendCrc32cBytewise(uint32_t init_crc, const char* data, size_t n);
uint32_t CombineCrc32cSoftware(uint32_t crc1, uint32_t crc2, uint64_t crc2len);

// Extend's result with the instruction in one chain, as Extend computes short data (and, without
// PCLMUL, all data); for the tests and the micro-benchmark. Bytewise without SSE4.2.
uint32_t ExtendCrc32cOneChain(uint32_t init_crc, const char* data, size_t n);

}  // namespace monotable::engine
