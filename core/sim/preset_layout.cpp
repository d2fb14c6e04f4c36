#include "preset_layout.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>

namespace pcplab::sim
{

namespace
{

using u64 = std::uint64_t;

// One stretch of the physical address space, in frames. `consumes`: DIMM capacity ends up here (RAM or
// RAM the firmware shadows); `present`: the kernel gets it in memblock.memory.
struct segment {
    u64 start, end;
    bool consumes, present;
};
constexpr u64 NO_END = ~u64(0);
constexpr segment k_segments[] = {
    {0, 1, true, false}, // frame 0: not in memblock.memory
    {1, LOW_RAM_END_PFN, true, true}, // conventional memory
    {LOW_RAM_END_PFN, ISA_END_PFN, true, false}, // EBDA, VGA window, option ROMs, BIOS
    {ISA_END_PFN, PCI_HOLE_START_PFN, true, true}, // RAM below the PCI hole
    {PCI_HOLE_START_PFN, PCI_HOLE_END_PFN, false, false}, // PCI MMIO; its RAM is remapped above 4 GiB
    {PCI_HOLE_END_PFN, NO_END, true, true}, // everything else
};

void add_range(std::vector<mm::pfn_range>& v, u64 s, u64 e)
{
    if (s >= e) return;
    if (!v.empty() && v.back().end == s)
        v.back().end = static_cast<mm::pfn_t>(e);
    else
        v.push_back({static_cast<mm::pfn_t>(s), static_cast<mm::pfn_t>(e)});
}

// Hand `pages` of DIMM capacity to a node starting at `cursor`; returns the new cursor. Frames beyond
// 2^32 are clamped here; the caller rejects such layouts by looking at the returned end.
u64 place(std::vector<mm::pfn_range>& out, u64 cursor, u64 pages)
{
    for (const segment& seg : k_segments) {
        if (pages == 0) break;
        if (cursor >= seg.end) continue;
        cursor = std::max(cursor, seg.start);
        if (!seg.consumes) {
            cursor = seg.end;
            continue;
        }
        u64 n = std::min(pages, seg.end - cursor);
        if (seg.present) {
            const u64 cap = mm::NO_PFN;
            add_range(out, std::min(cursor, cap), std::min(cursor + n, cap));
        }
        cursor += n;
        pages -= n;
    }
    return cursor;
}

// Reserve [s, e) clipped to the node's memory ranges.
void reserve_clipped(mm::node_spec& n, u64 s, u64 e)
{
    for (const auto& r : n.memory) add_range(n.reserved, std::max<u64>(s, r.start), std::min<u64>(e, r.end));
}

// Reserve `pages` frames at the top of the node's memory, walking its ranges downwards.
void reserve_top(mm::node_spec& n, u64 pages)
{
    for (auto it = n.memory.rbegin(); it != n.memory.rend() && pages; ++it) {
        u64 take = std::min<u64>(pages, it->pages());
        reserve_clipped(n, it->end - take, it->end);
        pages -= take;
    }
}

// memblock.reserved is kept sorted and merged, as memblock_reserve leaves it.
void normalise(std::vector<mm::pfn_range>& v)
{
    std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.start < b.start; });
    std::vector<mm::pfn_range> out;
    for (const auto& r : v) {
        if (!out.empty() && r.start <= out.back().end)
            out.back().end = std::max(out.back().end, r.end);
        else
            out.push_back(r);
    }
    v = std::move(out);
}

} // namespace

unsigned long default_reserved_pages(unsigned long present_pages)
{
    return static_cast<unsigned long>((u64(present_pages) * STRUCT_PAGE_BYTES + mm::PAGE_SIZE - 1) / mm::PAGE_SIZE);
}

std::uint64_t layout_x86_memory(
    std::vector<mm::node_spec>& nodes, const std::vector<node_memory_request>& req, const mm::kernel_version& era)
{
    u64 cursor = 0;
    for (std::size_t i = 0; i < req.size() && i < nodes.size(); ++i) {
        mm::node_spec& n = nodes[i];
        n.memory.clear();
        n.reserved.clear();
        if (i > 0) // nodes begin on a memory section, as SRAT ranges do
            cursor = (cursor + mm::PAGES_PER_SECTION - 1) / mm::PAGES_PER_SECTION * mm::PAGES_PER_SECTION;
        cursor = place(n.memory, cursor, req[i].pages);

        if (i == 0) {
            if (era.at_least(5, 13)) {
                reserve_clipped(n, 0, ISA_END_PFN);
            } else {
                reserve_clipped(n, 0, 16); // reserve_low = 64 KiB
                reserve_clipped(n, LOW_RAM_END_PFN - 6, LOW_RAM_END_PFN); // real-mode trampoline
            }
            reserve_clipped(n, KERNEL_START_PFN, KERNEL_START_PFN + KERNEL_RESERVED_PAGES);
        }
        unsigned long present = 0;
        for (const auto& r : n.memory) present += r.pages();
        reserve_top(n, req[i].reserved_pages.value_or(default_reserved_pages(present)));
        normalise(n.reserved);
    }
    return cursor;
}

std::uint64_t layout_zones(
    std::vector<mm::node_spec>& nodes, const std::vector<std::vector<zone_request>>& zones, unsigned long section_pages)
{
    u64 cursor = 0;
    for (std::size_t i = 0; i < zones.size() && i < nodes.size(); ++i) {
        mm::node_spec& n = nodes[i];
        n.memory.clear();
        n.reserved.clear();
        n.zones.clear();
        cursor = (cursor + section_pages - 1) / section_pages * section_pages;
        std::vector<zone_request> sorted = zones[i];
        std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.type < b.type; });
        for (const auto& z : sorted) {
            const u64 end = cursor + z.present;
            add_range(n.memory, std::min<u64>(cursor, mm::NO_PFN), std::min<u64>(end, mm::NO_PFN));
            add_range(n.reserved, std::min<u64>(cursor + z.managed, mm::NO_PFN), std::min<u64>(end, mm::NO_PFN));
            n.zones.push_back({z.type,
                {static_cast<mm::pfn_t>(std::min<u64>(cursor, mm::NO_PFN)),
                    static_cast<mm::pfn_t>(std::min<u64>(end, mm::NO_PFN))},
                z.highmem});
            cursor = end;
        }
    }
    return cursor;
}

std::vector<std::vector<int>> enumerate_cpus(
    const std::vector<int>& node_socket, const std::vector<int>& node_cpus, int threads_per_core)
{
    const std::size_t nr = std::min(node_socket.size(), node_cpus.size());
    std::vector<std::size_t> order(nr);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(
        order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return node_socket[a] < node_socket[b]; });

    std::vector<std::vector<int>> cpus(nr);
    const int tpc = std::max(threads_per_core, 1);
    int next = 0;
    for (int thread = 0; thread < tpc; ++thread)
        for (std::size_t i : order)
            for (int core = 0; core < node_cpus[i] / tpc; ++core) cpus[i].push_back(next++);
    return cpus;
}

} // namespace pcplab::sim
