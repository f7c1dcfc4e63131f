#include "common/large_copy.h"

#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstring>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

// glibc's own functions, as named by the linker's --wrap.
extern "C" void* __real_memcpy(void* dst, const void* src, size_t n);
extern "C" void* __real_memmove(void* dst, const void* src, size_t n);

namespace monotable {
namespace {

constexpr size_t kUnknown = SIZE_MAX;
std::atomic<size_t> chunked_copy_limit{kUnknown};

bool CpuIsAmd() {
#if defined(__x86_64__)
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid(0, &eax, &ebx, &ecx, &edx)) return false;
  return ebx == signature_AMD_ebx && ecx == signature_AMD_ecx && edx == signature_AMD_edx;
#else
  return false;
#endif
}

// A large copy: glibc's memcpy, or the chunks when the CPU needs them. Out of line, so that the
// wrappers' path for small copies stays a compare and a jump to glibc.
[[gnu::noinline]] void* CopyNonOverlapping(void* dst, const void* src, size_t n) {
  if (n < ChunkedCopyLimitHere()) return CopyInChunks(dst, src, n);
  return __real_memcpy(dst, src, n);
}

}  // namespace

size_t ChunkedCopyLimit(bool amd, long l2_bytes) {
  if (!amd) return 0;
  return l2_bytes > 0 ? static_cast<size_t>(l2_bytes) : size_t{512} << 10;
}

size_t ChunkedCopyLimitHere() {
  size_t limit = chunked_copy_limit.load(std::memory_order_relaxed);
  if (limit == kUnknown) {  // two threads may both get here; they store the same value
    limit = ChunkedCopyLimit(CpuIsAmd(), sysconf(_SC_LEVEL2_CACHE_SIZE));
    chunked_copy_limit.store(limit, std::memory_order_relaxed);
  }
  return limit;
}

void* CopyInChunks(void* dst, const void* src, size_t n) {
  auto* to = static_cast<char*>(dst);
  const auto* from = static_cast<const char*>(src);
  while (n > kCopyChunkBytes) {
    __real_memcpy(to, from, kCopyChunkBytes);
    to += kCopyChunkBytes;
    from += kCopyChunkBytes;
    n -= kCopyChunkBytes;
  }
  __real_memcpy(to, from, n);
  return dst;
}

}  // namespace monotable

extern "C" void* __wrap_memcpy(void* dst, const void* src, size_t n) {
  if (n <= monotable::kCopyChunkBytes) return __real_memcpy(dst, src, n);
  return monotable::CopyNonOverlapping(dst, src, n);
}

extern "C" void* __wrap_memmove(void* dst, const void* src, size_t n) {
  if (n <= monotable::kCopyChunkBytes) return __real_memmove(dst, src, n);
  const auto to = reinterpret_cast<uintptr_t>(dst);
  const auto from = reinterpret_cast<uintptr_t>(src);
  const bool overlap = to < from ? from - to < n : to - from < n;
  if (overlap) return __real_memmove(dst, src, n);
  return monotable::CopyNonOverlapping(dst, src, n);
}
