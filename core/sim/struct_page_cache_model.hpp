// What each simulated CPU's caches still hold of the memmap: a deterministic 4-way set-associative array of
// struct page lines with LRU replacement per set, aged by the CPU's other memory traffic. A struct page
// picked off a PCP list and merged into the buddy allocator moments later is a hit the second time; this
// is how moving the picking out of zone->lock (seed 001) shortens the hold without a formula saying so.
#pragma once

#include "mm/machine.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

namespace pcplab::sim
{

// One CPU's view; the lines live in the shared struct_page_cache_model. Every line carries a stamp of the
// CPU's memory traffic (in cache lines) at its last use: a line is still cached only while less than the
// cache's capacity of other lines has gone through since, which is what LRU replacement in a cache of that
// size gives. Struct page touches are one line of traffic each; user work adds its own (add_traffic), so a
// long compute phase leaves the allocator's struct pages cold.
class cpu_struct_page_cache final : public mm::struct_page_cache
{
public:
    static constexpr unsigned WAYS = 4;
    struct line {
        std::uint32_t tag; // pfn + 1; 0 = empty
        std::uint32_t stamp; // traffic counter at the last use (wraps; compared by difference)
    };
    cpu_struct_page_cache(line* lines, std::uint32_t set_mask)
        : m_lines(lines)
        , m_set_mask(set_mask)
        , m_capacity((set_mask + 1) * WAYS)
    {
        m_hint_base = reinterpret_cast<const char*>(lines);
        m_hint_mask = set_mask;
        m_hint_stride = sizeof(line) * WAYS;
    }
    // The set is chosen by the low pfn bits: consecutive struct pages are consecutive 64-byte lines and so
    // fall into consecutive sets, as physical indexing does.
    bool touch(mm::pfn_t pfn) override
    {
        const std::uint32_t tag = pfn + 1;
        const std::uint32_t now = ++m_traffic;
        line* w = m_lines + static_cast<std::size_t>(pfn & m_set_mask) * WAYS;
        unsigned hit = WAYS;
        for (unsigned i = 0; i < WAYS; ++i)
            if (w[i].tag == tag) {
                hit = i;
                break;
            }
        const bool cached = hit != WAYS && now - w[hit].stamp <= m_capacity;
        // Move to the front (most recently used); on a miss the last way is evicted.
        for (unsigned i = hit == WAYS ? WAYS - 1 : hit; i > 0; --i) w[i] = w[i - 1];
        w[0] = {tag, now};
        return cached;
    }
    // `lines` cache lines of other data went through this CPU's caches (user work).
    void add_traffic(std::uint64_t lines)
    {
        // Anything beyond the capacity evicts everything; clamping keeps the counter far from wrapping.
        m_traffic += static_cast<std::uint32_t>(std::min<std::uint64_t>(lines, m_capacity + 1));
    }
    std::uint32_t lines() const { return m_capacity; }

private:
    line* m_lines;
    std::uint32_t m_set_mask;
    std::uint32_t m_capacity;
    std::uint32_t m_traffic = 0;
};

// The caches of all CPUs in one allocation: lines_per_cpu is rounded down to a power of two (at least 4).
class struct_page_cache_model
{
public:
    struct_page_cache_model(int nr_cpus, int lines_per_cpu);
    ~struct_page_cache_model();
    struct_page_cache_model(const struct_page_cache_model&) = delete;
    struct_page_cache_model& operator=(const struct_page_cache_model&) = delete;
    cpu_struct_page_cache* cpu(int c) { return &m_cpus[static_cast<std::size_t>(c)]; }
    std::uint32_t lines_per_cpu() const { return m_lines_per_cpu; }

private:
    std::uint32_t m_lines_per_cpu = 0;
    // Tens of MiB for a large machine, touched at random: anonymous memory with transparent huge pages
    // where the host allows them (fewer host TLB misses per touch), zero (every way empty) without a pass.
    void* m_storage = nullptr;
    std::size_t m_bytes = 0;
    std::vector<cpu_struct_page_cache> m_cpus;
};

} // namespace pcplab::sim
