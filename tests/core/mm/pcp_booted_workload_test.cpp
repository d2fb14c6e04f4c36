// The PCP code on a machine booted the kernel's way (boot(): limits from pcp_limits, watermarks), driven
// through alloc_pages / free_pages with the vmstat tick and drains, in every modelled era and switch setting.
#include "mm/boot.hpp"
#include "mm/page_alloc.hpp"
#include "mm/vmstat.hpp"
#include "pcp_test_support.hpp"

#include <random>

using namespace pcp_test;

namespace
{

machine_spec two_node_spec()
{
    machine_spec spec;
    spec.name = "pcp-booted";
    const pfn_t gib = (1UL << 30) >> PAGE_SHIFT;
    node_spec n0;
    n0.socket = 0;
    n0.cpus = {0, 1};
    n0.memory = {{1, gib}}; // DMA and DMA32
    node_spec n1;
    n1.socket = 1;
    n1.cpus = {2, 3};
    n1.memory = {{MAX_DMA32_PFN, MAX_DMA32_PFN + gib}}; // Normal
    spec.nodes = {n0, n1};
    return spec;
}

// Returns how many allocations succeeded.
int run_workload(machine& m, unsigned seed)
{
    int allocated = 0;
    std::mt19937 rng(seed);
    std::vector<std::pair<pfn_t, unsigned>> held;
    const unsigned orders[] = {0, 0, 0, 0, 0, 1, 2, 3, pageblock_order};
    for (int step = 0; step < 20000; ++step) {
        const int cpu = static_cast<int>(rng() % 4);
        mm_ctx c = m.ctx(cpu);
        const unsigned r = rng() % 1000;
        if (r < 490) {
            alloc_request req;
            req.order = orders[rng() % 9];
            req.migratetype = (rng() % 4) ? MIGRATE_MOVABLE : MIGRATE_UNMOVABLE;
            req.preferred_nid = (rng() % 8) ? -1 : static_cast<int>(rng() % 2); // some remote allocations
            pfn_t pfn = alloc_pages(c, req);
            if (pfn != NO_PFN) {
                held.emplace_back(pfn, req.order);
                ++allocated;
            }
        } else if (r < 985) {
            if (held.empty()) continue;
            std::size_t i = rng() % held.size();
            free_pages(c, held[i].first, held[i].second); // possibly on another CPU than allocated it
            held[i] = held.back();
            held.pop_back();
        } else if (r < 998) {
            refresh_cpu_vm_stats(c, true);
        } else {
            drain_all_pages(c, nullptr);
        }
        if (step % 5000 == 0) require_conserved(m);
    }
    for (auto [pfn, order] : held) {
        mm_ctx c = m.ctx(0);
        free_pages(c, pfn, order);
    }
    return allocated;
}

} // namespace

TEST_CASE("every page stays accounted for through a mixed PCP workload on a booted machine, every era")
{
    for (const char* era : {"v4.17", "v5.4", "v6.6", "v6.7", "v6.13", "v6.18"}) {
        for (bool all_on : {false, true}) {
            INFO(era << (all_on ? " all switches on" : " all switches off"));
            kernel_version v = *kernel_version::parse(era);
            patch_set ps;
            for (unsigned p = 0; p < NR_PATCHES; ++p) ps.set(static_cast<patch>(p), all_on);
            machine m(two_node_spec(), v, ps);
            boot(m);
            require_conserved(m);
            const mm_work before = m.work;
            CHECK(run_workload(m, 7 + (all_on ? 1U : 0U)) > 9000);
            // The PCP did the bulk of the work: most allocations never reached the buddy allocator.
            const mm_work done = m.work - before;
            CHECK(done.pcp_list_ops > 20000);
            require_conserved(m);

            m.for_each_populated_zone([&](zone& z) {
                for (const auto& pcp : z.per_cpu_pageset) {
                    if (pcp_tuning_of(m) == pcp_tuning::autotune_v6_7 && pcp.high != 0) {
                        CHECK(pcp.high >= pcp.high_min);
                        CHECK(pcp.high <= pcp.high_max);
                    }
                }
            });
            mm_ctx c = m.ctx(0);
            drain_all_pages(c, nullptr);
            long free = 0;
            unsigned long managed = 0;
            m.for_each_populated_zone([&](zone& z) {
                for (const auto& pcp : z.per_cpu_pageset) CHECK(pcp.count == 0);
                free += z.nr_free_pages;
                managed += z.managed();
            });
            CHECK(static_cast<unsigned long>(free) == managed);
            require_conserved(m);
        }
    }
}
