#include "struct_page_cache_model.hpp"

#include <algorithm>
#include <new>
#include <sys/mman.h>

namespace pcplab::sim
{

struct_page_cache_model::struct_page_cache_model(int nr_cpus, int lines_per_cpu)
{
    std::uint32_t sets = 1;
    const auto want_sets = static_cast<std::uint32_t>(std::max(lines_per_cpu, 4)) / cpu_struct_page_cache::WAYS;
    while (sets * 2 <= want_sets) sets *= 2;
    m_lines_per_cpu = sets * cpu_struct_page_cache::WAYS;
    const auto cpus = static_cast<std::size_t>(std::max(nr_cpus, 0));
    m_bytes = std::max<std::size_t>(
        static_cast<std::size_t>(m_lines_per_cpu) * cpus * sizeof(cpu_struct_page_cache::line), 1);
    // Zero-filled by the kernel: every way empty, so the first touch of any page misses.
    m_storage = mmap(nullptr, m_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m_storage == MAP_FAILED) throw std::bad_alloc();
    madvise(m_storage, m_bytes, MADV_HUGEPAGE);
    auto* lines = static_cast<cpu_struct_page_cache::line*>(m_storage);
    m_cpus.reserve(cpus);
    for (std::size_t c = 0; c < cpus; ++c) m_cpus.emplace_back(lines + c * m_lines_per_cpu, sets - 1);
}

struct_page_cache_model::~struct_page_cache_model()
{
    munmap(m_storage, m_bytes);
}

} // namespace pcplab::sim
