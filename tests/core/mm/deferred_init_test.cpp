#include "mm/boot.hpp"
#include "mm/buddy.hpp"
#include "mm/pcp_limits.hpp"
#include "mm/state_digest.hpp"
#include "mm/verify.hpp"
#include "support/small_machine.hpp"

#include <catch2/catch.hpp>

using namespace pcplab;
using namespace pcplab::mm;

namespace
{
std::uint64_t boot_digest(const kernel_version& era, bool parallel, int threads, unsigned long* managed = nullptr)
{
    machine_spec spec = test::small_spec(2, 8, 6);
    patch_set ps = default_patches(era);
    ps.set(patch::parallel_deferred_init, parallel);
    ps.init_threads = threads;
    machine m(spec, era, ps);
    deferred_init_report rep = boot(m);
    verify_result v = verify(m);
    INFO((v.errors.empty() ? std::string() : v.errors.front()));
    REQUIRE(v.ok());
    REQUIRE(rep.nodes.size() == 2);
    for (const auto& n : rep.nodes) CHECK(n.threads == (parallel ? threads : 1));
    if (managed) {
        *managed = 0;
        m.for_each_populated_zone([&](zone& z) { *managed += z.managed(); });
    }
    return state_digest(m);
}
} // namespace

TEST_CASE("deferred init gives identical state with 1, 2, 4 and 8 threads per node")
{
    for (const char* e : {"v5.4", "v6.7"}) {
        kernel_version era = *kernel_version::parse(e);
        unsigned long managed_serial = 0, managed = 0;
        std::uint64_t serial = boot_digest(era, false, 0, &managed_serial);
        for (int threads : {1, 2, 4, 8}) {
            INFO(e << " with " << threads << " threads");
            CHECK(boot_digest(era, true, threads, &managed) == serial);
            CHECK(managed == managed_serial);
        }
    }
}

TEST_CASE("deferred init initialises every free frame and only the first section is early")
{
    kernel_version era{5, 4, 0, 0};
    machine m(test::small_spec(2, 4, 6), era, default_patches(era));
    mem_init(m);
    // Node 1 (all Normal) has one section initialised early; the rest waits for the pgdatinit thread.
    zone& n1 = m.nodes[1]->z(ZONE_NORMAL);
    CHECK(m.nodes[1]->first_deferred_pfn == n1.zone_start_pfn + PAGES_PER_SECTION);
    CHECK(n1.managed() == PAGES_PER_SECTION - 256); // minus the reserved frames
    setup_per_cpu_pageset(m);
    deferred_init d(m);
    d.start();
    deferred_init_report rep = d.finish();
    CHECK(d.progress(1) == d.total(1));
    CHECK(n1.managed() == n1.present_pages - 256);
    unsigned long pages = 0;
    for (const auto& t : rep.threads)
        if (t.node == 1) pages += t.pages;
    CHECK(pages == d.total(1));
}

// The frames inside a block deferred init frees whole are never written (the issue's "inner frames need no
// per-frame state until split"): only the head is. Splitting the block writes the new heads, freeing merges
// them back, and verify() accepts both kinds of inner frame throughout.
TEST_CASE("deferred init writes only the head of a block it frees whole")
{
    auto e = GENERATE(as<std::string>{}, "v5.4", "v6.7");
    CAPTURE(e);
    kernel_version era = *kernel_version::parse(e);
    machine m(test::small_spec(2, 4, 6), era, default_patches(era));
    boot(m);
    REQUIRE(verify(m).ok());
    zone& z = m.nodes[1]->z(ZONE_NORMAL);
    const pfn_t deferred = m.nodes[1]->first_deferred_pfn;
    // A free top-order block in the deferred part of node 1 (v5.4 freed it as two pageblock-order halves).
    pfn_t b = NO_PFN;
    const list_ops lo = m.lists();
    const page_list& top = z.free_area_[MAX_PAGE_ORDER].free_list[MIGRATE_MOVABLE];
    for (pfn_t p = top.first; p != NO_PFN && b == NO_PFN; p = lo.next(top, p))
        if (p >= deferred) b = p;
    REQUIRE(b != NO_PFN);
    const pfn_t half = pfn_t{1} << (MAX_PAGE_ORDER - 1);
    unsigned long unwritten = 0;
    for (pfn_t i = 1; i < (pfn_t{1} << MAX_PAGE_ORDER); ++i) {
        const page& p = m.pfn_to_page(b + i);
        REQUIRE(p.inside_block());
        if (p.state() == page_state::uninit) ++unwritten;
    }
    // v5.4 frees pageblocks (order 9), so the merge marks the upper half's head a tail; v6.4+ frees the block
    // whole. No other frame inside is written.
    const bool halves = era.before(6, 4);
    CHECK(unwritten == (pfn_t{1} << MAX_PAGE_ORDER) - 1 - (halves ? 1 : 0));
    if (halves) CHECK(m.pfn_to_page(b + half).state() == page_state::tail);

    // Take the block apart one frame at a time, check, and give it back.
    mm_ctx c = m.ctx(m.nodes[1]->cpus.front());
    std::vector<pfn_t> taken;
    // rmqueue_buddy takes the smallest free blocks first, then the top-order list from its head: take frames
    // until one comes from the block at b, which splits it.
    for (;;) {
        pfn_t p = rmqueue_buddy(c, z, 0, MIGRATE_MOVABLE, 0);
        REQUIRE(p != NO_PFN);
        taken.push_back(p);
        if (p >= b && p < b + (pfn_t{1} << MAX_PAGE_ORDER)) break;
    }
    REQUIRE(taken.back() == b);
    CHECK(m.pfn_to_page(taken.back()).state() == page_state::allocated);
    CHECK(m.pfn_to_page(taken.back() + 1).state() == page_state::buddy); // a split wrote the new heads
    verify_result v = verify(m);
    INFO((v.errors.empty() ? std::string() : v.errors.front()));
    CHECK(v.ok());
    for (pfn_t p : taken) free_one_page(c, z, p, 0, MIGRATE_MOVABLE, FPI_NONE, lock_caller::free_one_page);
    v = verify(m);
    INFO((v.errors.empty() ? std::string() : v.errors.front()));
    CHECK(v.ok());
    CHECK(m.pfn_to_page(b).state() == page_state::buddy);
    CHECK(m.pfn_to_page(b).order() == MAX_PAGE_ORDER);
    for (pfn_t i = 1; i < (pfn_t{1} << MAX_PAGE_ORDER); ++i) REQUIRE(m.pfn_to_page(b + i).inside_block());
}
