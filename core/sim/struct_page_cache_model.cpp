#include "struct_page_cache_model.hpp"

#include <algorithm>

namespace pcplab::sim
{

struct_page_cache_model::struct_page_cache_model(int nr_cpus, int lines_per_cpu)
{
    std::uint32_t sets = 1;
    const auto want_sets = static_cast<std::uint32_t>(std::max(lines_per_cpu, 4)) / cpu_struct_page_cache::WAYS;
    while (sets * 2 <= want_sets) sets *= 2;
    m_lines_per_cpu = sets * cpu_struct_page_cache::WAYS;
    // Zero-filled: every way empty, so the first touch of any page misses.
    m_storage.assign(static_cast<std::size_t>(m_lines_per_cpu) * static_cast<std::size_t>(std::max(nr_cpus, 0)),
        cpu_struct_page_cache::line{0, 0});
    m_cpus.reserve(static_cast<std::size_t>(std::max(nr_cpus, 0)));
    for (int c = 0; c < nr_cpus; ++c)
        m_cpus.emplace_back(m_storage.data() + static_cast<std::size_t>(c) * m_lines_per_cpu, sets - 1);
}

} // namespace pcplab::sim
