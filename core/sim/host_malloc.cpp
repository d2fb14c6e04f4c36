#include "sim/host_malloc.hpp"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace pcplab::sim
{

void keep_freed_memory_for_reuse()
{
#if defined(__GLIBC__)
    // 32 MiB is the largest mmap threshold glibc accepts on 64-bit hosts (a larger one is refused).
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
}

} // namespace pcplab::sim
