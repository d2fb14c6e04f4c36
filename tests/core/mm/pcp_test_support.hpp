// A small machine for PCP tests: every frame above 4 GiB (ZONE_NORMAL only), freed to the buddy allocator in
// top-order blocks, with pageset limits set by hand, so each test controls batch and high exactly.
#pragma once

#include "mm/buddy.hpp"
#include "mm/counting_lock_ops.hpp"
#include "mm/machine.hpp"
#include "mm/pcp.hpp"
#include "mm/verify.hpp"

#include <catch2/catch.hpp>

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace pcp_test
{

using namespace pcplab::mm;

struct machine_config {
    std::string era = "v6.7";
    int nodes = 1;
    int cpus_per_node = 2;
    unsigned long pages_per_node = 65536; // 256 MiB
    std::vector<std::pair<patch, bool>> switches;
};

// The limits every pageset of every populated zone gets (pcp->high included, whatever the era).
struct limits {
    int batch = 63;
    int high = 378;
    int high_min = 0;
    int high_max = 0;
};

inline void set_limits(machine& m, const limits& l)
{
    m.for_each_populated_zone([&](zone& z) {
        for (auto& pcp : z.per_cpu_pageset) {
            pcp.batch = l.batch;
            pcp.high = l.high;
            pcp.high_min = l.high_min;
            pcp.high_max = l.high_max;
        }
        z.pagesets_allocated = true;
    });
}

// memmap_init + memblock_free_all by hand: frames initialised (reserved, zone and node set), then freed in
// MAX_PAGE_ORDER blocks, managed_pages counting them; watermarks small enough never to get in the way.
inline std::unique_ptr<machine> make_machine(const machine_config& cfg, const limits& l = {})
{
    auto version = kernel_version::parse(cfg.era);
    REQUIRE(version);
    machine_spec spec;
    spec.name = "pcp-test";
    int cpu = 0;
    pfn_t start = MAX_DMA32_PFN;
    for (int n = 0; n < cfg.nodes; ++n) {
        node_spec ns;
        ns.socket = n;
        for (int i = 0; i < cfg.cpus_per_node; ++i) ns.cpus.push_back(cpu++);
        ns.memory.push_back({start, start + static_cast<pfn_t>(cfg.pages_per_node)});
        start += static_cast<pfn_t>(cfg.pages_per_node);
        spec.nodes.push_back(ns);
    }
    patch_set ps = default_patches(*version);
    for (auto [p, on] : cfg.switches) ps.set(p, on);
    auto m = std::make_unique<machine>(spec, *version, ps);

    for (auto& node : m->nodes) {
        zone& z = node->z(ZONE_NORMAL);
        REQUIRE(z.populated());
        for (pfn_t pfn = z.zone_start_pfn; pfn < z.zone_end_pfn(); ++pfn) {
            m->pfn_to_page(pfn).init(page_state::reserved);
        }
        mm_ctx c = m->ctx(node->cpus.front());
        const pfn_t block = 1U << MAX_PAGE_ORDER;
        for (pfn_t pfn = z.zone_start_pfn; pfn + block <= z.zone_end_pfn(); pfn += block) {
            for (pfn_t i = 1; i < block; ++i) m->pfn_to_page(pfn + i).set_state(page_state::tail);
            m->pfn_to_page(pfn).set_order(MAX_PAGE_ORDER);
            z.managed_pages.fetch_add(block);
            __free_one_page(c, z, pfn, MAX_PAGE_ORDER, MIGRATE_MOVABLE, FPI_NONE);
        }
        z._watermark[WMARK_MIN] = 128;
        z._watermark[WMARK_LOW] = 160;
        z._watermark[WMARK_HIGH] = 192;
    }
    set_limits(*m, l);
    m->stage = boot_stage::booted;
    m->work = {};
    return m;
}

inline zone& normal_zone(machine& m, int nid = 0)
{
    return m.nodes[static_cast<std::size_t>(nid)]->z(ZONE_NORMAL);
}

// Blocks taken straight from the buddy allocator (not through any PCP) and marked allocated, as
// alloc_pages leaves them: the raw material for free-path tests.
inline std::vector<pfn_t> take_from_buddy(machine& m, int cpu, zone& z, int n, unsigned order = 0)
{
    mm_ctx c = m.ctx(cpu);
    std::vector<pfn_t> out;
    for (int i = 0; i < n; ++i) {
        pfn_t pfn = rmqueue_buddy(c, z, order, MIGRATE_MOVABLE, ALLOC_WMARK_MIN);
        REQUIRE(pfn != NO_PFN);
        page& p = m.pfn_to_page(pfn);
        p.set_state(page_state::allocated);
        p.set_order(order);
        out.push_back(pfn);
    }
    return out;
}

inline void free_all(machine& m, int cpu, const std::vector<pfn_t>& pfns, unsigned order = 0)
{
    mm_ctx c = m.ctx(cpu);
    for (pfn_t pfn : pfns) free_unref_page(c, pfn, order);
}

// Start recording lock holds from here on.
inline counting_lock_ops& record_holds(machine& m)
{
    counting_lock_ops& locks = m.counting_locks();
    locks.record_holds = true;
    locks.holds.clear();
    return locks;
}

inline std::vector<counting_lock_ops::hold> holds_of(const counting_lock_ops& locks, lock_kind kind, lock_caller caller)
{
    std::vector<counting_lock_ops::hold> out;
    for (const auto& h : locks.holds)
        if (h.id.kind == kind && h.caller == caller) out.push_back(h);
    return out;
}

inline std::uint64_t pages_to_buddy_in(const std::vector<counting_lock_ops::hold>& hs)
{
    std::uint64_t n = 0;
    for (const auto& h : hs) n += h.inside.pages_to_buddy;
    return n;
}

// Page conservation: every frame in exactly one place and managed = free + PCP + allocated.
inline void require_conserved(const machine& m)
{
    verify_result r = verify(m);
    INFO((r.errors.empty() ? std::string() : r.errors.front()));
    REQUIRE(r.ok());
}

inline long total_free_pages(const machine& m)
{
    long n = 0;
    for (const auto& node : m.nodes)
        for (const auto& z : node->node_zones) n += z->nr_free_pages;
    return n;
}

// The pfns on a PCP list, head first.
inline std::vector<pfn_t> list_pfns(const machine& m, const page_list& l)
{
    std::vector<pfn_t> out;
    for (pfn_t p = l.first; p != NO_PFN; p = m.lists().next(l, p)) out.push_back(p);
    return out;
}

} // namespace pcp_test
