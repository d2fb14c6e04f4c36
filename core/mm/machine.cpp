#include "machine.hpp"

#include <algorithm>
#include <cstdlib>
#include <new>
#include <stdexcept>
#include <string>
#include <sys/mman.h>

namespace pcplab::mm
{

int machine_spec::nr_cpus() const
{
    int n = 0;
    for (const auto& node : nodes) n += static_cast<int>(node.cpus.size());
    return n;
}

namespace
{
// The x86-64 zone bounds (zone_sizes_init: max_zone_pfns[]).
pfn_t zone_low(zone_type t)
{
    return t == ZONE_DMA ? 0 : t == ZONE_DMA32 ? MAX_DMA_PFN : MAX_DMA32_PFN;
}
pfn_t zone_high(zone_type t, pfn_t max_pfn)
{
    return t == ZONE_DMA ? MAX_DMA_PFN : t == ZONE_DMA32 ? MAX_DMA32_PFN : max_pfn;
}
unsigned long present_in(const node_spec& n, pfn_t lo, pfn_t hi)
{
    unsigned long p = 0;
    for (const auto& r : n.memory) {
        pfn_t s = std::max(r.start, lo), e = std::min(r.end, hi);
        if (s < e) p += e - s;
    }
    return p;
}

} // namespace

// free_area_init / zone_spanned_pages_in_node / zone_absent_pages_in_node (v5.4 / v6.x, x86-64 bounds):
// every node gets all zone types; a zone spans its bounds clipped to the node's first and last frame.
machine::machine(const machine_spec& spec, const kernel_version& era_version, const patch_set& ps)
    : machine(spec, kernel_era{era_version}, ps)
{
}

machine::machine(const machine_spec& spec, const kernel_era& era_in, const patch_set& ps)
    : era{era_in}
    , patches(ps)
    , sysctl(spec.sysctl)
    , page_shift(spec.page_shift)
    , pages_per_section(spec.pages_per_section)
    , m_spec(spec)
{
    if (spec.nodes.empty()) throw std::invalid_argument("machine has no nodes");
    if (spec.nodes.size() > MAX_NUMNODES) throw std::invalid_argument("more than 32 nodes");
    for (const auto& n : spec.nodes)
        for (const auto& r : n.memory) max_pfn = std::max(max_pfn, r.end);

    // The memmap is zero (every frame `uninit`) and only touched when initialised, like
    // a sparse vmemmap; holes cost address space, not memory. Deferred init relies on the zero: it leaves the
    // frames inside the blocks it frees whole unwritten (page::inside_block), so a memmap is never reused.
    // Anonymous memory with transparent huge pages where the host allows them: first touches by the
    // init threads then fault 2 MiB at a time instead of 4 KiB (which otherwise dominates init time).
    m_memmap_bytes = static_cast<std::size_t>(max_pfn) * sizeof(page);
    void* mem
        = mmap(nullptr, m_memmap_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (mem == MAP_FAILED) throw std::bad_alloc();
    madvise(mem, m_memmap_bytes, MADV_HUGEPAGE);
    m_memmap.reset(static_cast<page*>(mem));
    m_memmap.get_deleter().bytes = m_memmap_bytes;
    m_pageblock_mt.assign((max_pfn >> pageblock_order) + 1, MIGRATE_MOVABLE);
    m_pageblock_owner.assign((max_pfn >> pageblock_order) + 1, -1);

    int nr_cpus = spec.nr_cpus();
    cpu_to_node.assign(static_cast<std::size_t>(nr_cpus), 0);
    for (std::size_t nid = 0; nid < spec.nodes.size(); ++nid) {
        const node_spec& ns = spec.nodes[nid];
        auto pg = std::make_unique<pglist_data>();
        pg->node_id = static_cast<int>(nid);
        pg->socket = ns.socket;
        pg->cpus = ns.cpus;
        for (int cpu : ns.cpus) {
            if (cpu < 0 || cpu >= nr_cpus) throw std::invalid_argument("cpu id out of range");
            cpu_to_node[static_cast<std::size_t>(cpu)] = static_cast<int>(nid);
        }
        pfn_t nstart = ns.memory.empty() ? 0 : ns.memory.front().start;
        pfn_t nend = ns.memory.empty() ? 0 : ns.memory.back().end;
        pg->node_start_pfn = nstart;
        pg->node_spanned_pages = nend - nstart;
        pg->node_present_pages = present_in(ns, 0, max_pfn);

        // ZONE_MOVABLE (movablecore=): the top of the node's memory, taken out of its highest zone.
        pfn_t movable_start = nend;
        if (spec.movable_pages_per_node) {
            unsigned long want = spec.movable_pages_per_node;
            for (auto it = ns.memory.rbegin(); it != ns.memory.rend() && want; ++it) {
                unsigned long take = std::min<unsigned long>(want, it->pages());
                movable_start = it->end - static_cast<pfn_t>(take);
                want -= take;
            }
            movable_start = std::max(movable_start, MAX_DMA32_PFN);
        }

        for (unsigned t = 0; t < MAX_NR_ZONES; ++t) {
            auto z = std::make_unique<zone>();
            z->idx = static_cast<zone_type>(t);
            z->node = static_cast<int>(nid);
            pfn_t lo = 0, hi = 0;
            if (!ns.zones.empty()) {
                // Zones given outright: each type at most once per node (checked by the preset loader).
                for (const auto& e : ns.zones)
                    if (e.type == z->idx) {
                        lo = e.range.start;
                        hi = e.range.end;
                        z->highmem = e.highmem;
                    }
            } else if (t <= ZONE_NORMAL) {
                lo = std::max(zone_low(z->idx), nstart);
                hi = std::min(zone_high(z->idx, max_pfn), t == ZONE_NORMAL ? movable_start : nend);
            } else if (t == ZONE_MOVABLE) {
                lo = std::max(movable_start, nstart);
                hi = nend;
            }
            if (lo < hi) {
                z->zone_start_pfn = lo;
                z->spanned_pages = hi - lo;
                z->present_pages = present_in(ns, lo, hi);
            } else {
                // An empty zone starts where it would have (the kernel prints 0 for empty ones above)
                z->zone_start_pfn = 0;
            }
            if (z->spanned_pages >= LINK_NONE)
                throw std::invalid_argument("node " + std::to_string(nid) + " zone " + zone_name(z->idx) + " spans "
                    + std::to_string(z->spanned_pages >> (30 - PAGE_SHIFT))
                    + " GiB: a zone may span at most 1 TiB (the memmap's list links are 28 bits)");
            z->per_cpu_pageset.assign(static_cast<std::size_t>(nr_cpus), per_cpu_pages{});
            z->set_list_bases();
            pg->node_zones[t] = std::move(z);
        }
        nodes.push_back(std::move(pg));
    }
    build_pageblock_zones();
    build_zonelists();
}

// Which zone each pageblock's frames belong to (page_zone without page->flags). Zones of different nodes may
// interleave in pfn order, and a zone boundary need not be pageblock aligned: a pageblock that two zones share
// is marked mixed and answered from the zone spans.
void machine::build_pageblock_zones()
{
    constexpr std::uint8_t unset = PAGEBLOCK_ZONES_MIXED - 1; // make_zone_nid never reaches it (32 nodes x 8)
    m_zone_ranges.clear();
    for (const auto& n : nodes)
        for (const auto& z : n->node_zones)
            if (z->spanned_pages)
                m_zone_ranges.push_back(
                    {z->zone_start_pfn, static_cast<pfn_t>(z->zone_end_pfn()), make_zone_nid(n->node_id, z->idx)});
    std::sort(m_zone_ranges.begin(), m_zone_ranges.end(),
        [](const zone_range& a, const zone_range& b) { return a.start < b.start; });
    for (std::size_t i = 1; i < m_zone_ranges.size(); ++i)
        if (m_zone_ranges[i].start < m_zone_ranges[i - 1].end) {
            m_zone_ranges.clear(); // interleaved nodes: the pageblock bytes answer
            break;
        }
    m_pageblock_zone.clear();
    if (!m_zone_ranges.empty()) return; // the walk answers every pfn; no table to keep
    m_pageblock_zone.assign((max_pfn >> pageblock_order) + 1, unset);
    for (const auto& n : nodes)
        for (const auto& z : n->node_zones) {
            if (!z->spanned_pages) continue;
            const std::uint8_t id = make_zone_nid(n->node_id, z->idx);
            const pfn_t last = static_cast<pfn_t>(z->zone_end_pfn() - 1);
            for (pfn_t pb = z->zone_start_pfn >> pageblock_order; pb <= last >> pageblock_order; ++pb) {
                std::uint8_t& e = m_pageblock_zone[pb];
                e = e == unset || e == id ? id : PAGEBLOCK_ZONES_MIXED;
            }
        }
}

// build_zonelists (v5.4 / v6.x) by node distance: the local node, then nodes of the same socket, then the rest
// (the SLIT distances of the presets' machines order them so); within a node, zones from the highest down.
void machine::build_zonelists()
{
    m_zonelists.clear();
    for (const auto& self : nodes) {
        std::vector<int> order;
        for (const auto& n : nodes) order.push_back(n->node_id);
        auto key = [&](int x) { return x == self->node_id ? 0 : (node_data(x).socket == self->socket ? 1 : 2); };
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return key(a) < key(b); });
        m_zonelists.push_back(std::move(order));
    }
}

machine::~machine() = default;

void machine::free_deleter::operator()(page* p) const
{
    if (p) munmap(p, bytes);
}

std::uint8_t machine::zone_id_of_present_pfn(pfn_t pfn) const
{
    for (std::size_t nid = 0; nid < m_spec.nodes.size(); ++nid)
        for (const auto& r : m_spec.nodes[nid].memory)
            if (pfn >= r.start && pfn < r.end)
                for (const auto& z : nodes[nid]->node_zones)
                    if (z->spanned_pages && z->zone_spans_pfn(pfn)) return make_zone_nid(static_cast<int>(nid), z->idx);
    return PAGEBLOCK_ZONES_MIXED;
}

int machine::pfn_to_nid(pfn_t pfn) const
{
    for (const auto& n : nodes)
        if (pfn >= n->node_start_pfn && pfn < n->node_end_pfn()) return n->node_id;
    return -1;
}

zone* machine::pfn_to_zone(pfn_t pfn)
{
    int nid = pfn_to_nid(pfn);
    if (nid < 0) return nullptr;
    for (auto& z : node_data(nid).node_zones)
        if (z->spanned_pages && z->zone_spans_pfn(pfn)) return z.get();
    return nullptr;
}

const char* limits_cause_name(limits_cause c)
{
    switch (c) {
    case limits_cause::setup_per_cpu_pageset:
        return "setup_per_cpu_pageset";
    case limits_cause::deferred_init_done:
        return "zone_pcp_update after deferred init";
    case limits_cause::watermarks:
        return "setup_per_zone_wmarks";
    case limits_cause::sysctl:
        return "sysctl";
    case limits_cause::cpu_online:
        return "cpu online";
    }
    return "?";
}

} // namespace pcplab::mm
