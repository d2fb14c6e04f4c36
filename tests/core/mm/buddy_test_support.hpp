// A small hand-made machine for buddy allocator tests, and an independent walk of a zone's free lists.
#pragma once

#include "mm/buddy.hpp"
#include "mm/machine.hpp"
#include "mm/verify.hpp"

#include <algorithm>
#include <array>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace pcplab::test
{

using namespace pcplab::mm;

// 1 GiB, one node, two CPUs, with the usual x86 hole below 1 MiB: DMA [1, 159) + [256, 4096) and
// DMA32 [4096, 262144) (252 max-order blocks).
inline machine_spec one_gib_spec()
{
    machine_spec s;
    s.name = "buddy-test-1g";
    node_spec n;
    n.cpus = {0, 1};
    n.memory = {{1, 159}, {256, 262144}};
    s.nodes.push_back(n);
    return s;
}

inline std::unique_ptr<machine> make_machine(const std::string& era, const machine_spec& spec = one_gib_spec())
{
    auto v = kernel_version::parse(era);
    if (!v) throw std::invalid_argument("bad era " + era);
    return std::make_unique<machine>(spec, *v, patch_set{});
}

// __init_single_page for [s, e): reserved frames of zone z until they are freed.
inline void init_frames(machine& m, const zone& z, pfn_t s, pfn_t e)
{
    for (pfn_t pfn = s; pfn < e; ++pfn) {
        (void)z; // the frame's zone comes from its pfn (machine::page_zone)
        m.pfn_to_page(pfn).init(page_state::reserved);
    }
}

// Free [s, e) of zone z in the largest naturally aligned blocks (as __free_pages_memory does at boot).
inline void free_range(mm_ctx& c, zone& z, pfn_t s, pfn_t e, unsigned fpi = FPI_NONE)
{
    while (s < e) {
        unsigned order = std::min<unsigned>(MAX_PAGE_ORDER, s ? static_cast<unsigned>(__builtin_ctz(s)) : 31U);
        while (s + (pfn_t{1} << order) > e) --order;
        page& head = c.m.pfn_to_page(s);
        for (pfn_t i = 1; i < (pfn_t{1} << order); ++i) c.m.pfn_to_page(s + i).set_state(page_state::tail);
        head.set_order(order);
        z.managed_pages.fetch_add(1UL << order);
        __free_one_page(c, z, s, order, c.m.get_pageblock_migratetype(s), fpi);
        s += pfn_t{1} << order;
    }
}

// Initialise and free every memory range of every node, zone by zone.
inline void boot_all(machine& m, unsigned fpi = FPI_NONE)
{
    mm_ctx c = m.ctx(0);
    for (std::size_t nid = 0; nid < m.nodes.size(); ++nid)
        for (const auto& r : m.spec().nodes[nid].memory)
            for (auto& zp : m.nodes[nid]->node_zones) {
                zone& z = *zp;
                if (!z.spanned_pages) continue;
                pfn_t s = std::max<pfn_t>(r.start, z.zone_start_pfn);
                pfn_t e = std::min<pfn_t>(r.end, static_cast<pfn_t>(z.zone_end_pfn()));
                if (s >= e) continue;
                init_frames(m, z, s, e);
                free_range(c, z, s, e, fpi);
            }
    m.stage = boot_stage::booted; // everything is free: verify() may check managed = free + pcp + allocated
}

// verify()'s first complaint about the whole machine, or "" when it is consistent.
inline std::string verify_first_error(const machine& m)
{
    verify_result r = verify(m);
    return r.ok() ? std::string() : r.errors.front();
}

// What the free lists of a zone hold, found by walking them, with every inconsistency found on the way.
struct buddy_census {
    std::array<unsigned long, NR_PAGE_ORDERS> nr_free{};
    long free_pages = 0; // outside MIGRATE_ISOLATE, as NR_FREE_PAGES counts
    std::vector<std::pair<pfn_t, unsigned>> blocks; // (pfn, order), sorted
    std::vector<std::string> errors;
    unsigned max_order_free() const
    {
        for (unsigned o = NR_PAGE_ORDERS; o-- > 0;)
            if (nr_free[o]) return o;
        return NR_PAGE_ORDERS; // nothing free
    }
};

inline buddy_census census(const machine& m, const zone& z)
{
    buddy_census r;
    std::vector<bool> covered(z.spanned_pages, false);
    auto err = [&](std::string s) {
        if (r.errors.size() < 20) r.errors.push_back(std::move(s));
    };
    for (unsigned o = 0; o < NR_PAGE_ORDERS; ++o) {
        for (unsigned mt = 0; mt < MIGRATE_TYPES; ++mt) {
            const page_list& l = z.free_area_[o].free_list[mt];
            pfn_t prev = NO_PFN;
            const list_ops lo = m.lists();
            for (pfn_t pfn = l.first; pfn != NO_PFN; pfn = lo.next(l, pfn)) {
                const page& p = m.pfn_to_page(pfn);
                std::string at
                    = "pfn " + std::to_string(pfn) + " order " + std::to_string(o) + " mt " + std::to_string(mt);
                if (!z.zone_spans_pfn(pfn) || !z.zone_spans_pfn(pfn + (pfn_t{1} << o) - 1)) {
                    err(at + ": outside the zone");
                    break;
                }
                if (lo.prev(l, pfn) != prev) err(at + ": broken prev link");
                if (p.state() != page_state::buddy || p.order() != o || p.migratetype() != mt)
                    err(at + ": head not marked as a free block of this list");
                if (pfn & ((pfn_t{1} << o) - 1)) err(at + ": misaligned");
                for (pfn_t i = 0; i < (pfn_t{1} << o); ++i) {
                    std::size_t idx = pfn + i - z.zone_start_pfn;
                    if (covered[idx]) err(at + ": overlaps another free block");
                    covered[idx] = true;
                    if (i && !m.pfn_to_page(pfn + i).inside_block()) err(at + ": frame inside is not a tail");
                }
                ++r.nr_free[o];
                if (mt != MIGRATE_ISOLATE) r.free_pages += 1L << o;
                r.blocks.emplace_back(pfn, o);
                prev = pfn;
            }
            if (l.last != prev)
                err("order " + std::to_string(o) + " mt " + std::to_string(mt) + ": last does not end the list");
        }
        if (r.nr_free[o] != z.free_area_[o].nr_free)
            err("order " + std::to_string(o) + ": nr_free " + std::to_string(z.free_area_[o].nr_free) + " but "
                + std::to_string(r.nr_free[o]) + " on the lists");
    }
    if (r.free_pages != z.nr_free_pages)
        err("nr_free_pages " + std::to_string(z.nr_free_pages) + " but " + std::to_string(r.free_pages)
            + " on the lists");
    std::sort(r.blocks.begin(), r.blocks.end());
    return r;
}

// The pfns of a free list, head first.
inline std::vector<pfn_t> list_pfns(const machine& m, const page_list& l)
{
    std::vector<pfn_t> v;
    for (pfn_t pfn = l.first; pfn != NO_PFN; pfn = m.lists().next(l, pfn)) v.push_back(pfn);
    return v;
}

} // namespace pcplab::test
