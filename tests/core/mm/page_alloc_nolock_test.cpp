// alloc-pages-nolock (Alexei Starovoitov, try_alloc_pages / alloc_pages_nolock and free_pages_nolock, v6.15):
// allocation and free for callers that may not spin, with trylocks only.
#include "pcp_test_support.hpp"

#include "mm/page_alloc.hpp"

using namespace pcp_test;

namespace
{

// One node, two CPUs, on v6.18 with the switch at its era default (on); the limits fixed (high_min = high_max
// turns auto-tuning off) so that pcp->high is 30 throughout.
std::unique_ptr<machine> nolock_machine()
{
    return make_machine({"v6.18", 1, 2, 65536, {}}, {.batch = 15, .high = 30, .high_min = 30, .high_max = 30});
}

} // namespace

TEST_CASE("alloc-pages-nolock is on from v6.15, and means nothing turned on before pcp->lock (v6.0)")
{
    CHECK(default_patches(*kernel_version::parse("v6.15"))[patch::alloc_pages_nolock]);
    CHECK_FALSE(default_patches(*kernel_version::parse("v6.13"))[patch::alloc_pages_nolock]);
    CHECK(patch_not_applicable(patch::alloc_pages_nolock, true, *kernel_version::parse("v5.14")).find("pcp->lock")
        != std::string::npos);
    CHECK(patch_not_applicable(patch::alloc_pages_nolock, true, *kernel_version::parse("v6.6")).empty());
    CHECK(patch_not_applicable(patch::alloc_pages_nolock, false, *kernel_version::parse("v5.14")).empty());
    CHECK(patch_from_name("alloc-pages-nolock") == patch::alloc_pages_nolock);
}

TEST_CASE("alloc_pages_nolock fails while deferred init runs and for costly orders, and succeeds once booted")
{
    auto m = nolock_machine();
    mm_ctx c = m->ctx(0);
    m->stage = boot_stage::deferred_init;
    CHECK(deferred_pages_enabled(*m));
    CHECK(alloc_pages_nolock(c, -1, 0) == NO_PFN);
    // The ordinary allocator does not care: it would grow the zone (deferred_grow_zone) or take what is free.
    CHECK(alloc_pages(c, {}) != NO_PFN);

    m->stage = boot_stage::booted;
    CHECK_FALSE(deferred_pages_enabled(*m));
    CHECK(alloc_pages_nolock(c, -1, PAGE_ALLOC_COSTLY_ORDER + 1) == NO_PFN);
    const pfn_t pfn = alloc_pages_nolock(c, -1, 0);
    REQUIRE(pfn != NO_PFN);
    CHECK(m->pfn_to_page(pfn).state() == page_state::allocated);
    require_conserved(*m);
}

TEST_CASE("alloc_pages_nolock gives up when zone->lock is taken instead of waiting for it")
{
    auto m = nolock_machine();
    mm_ctx c = m->ctx(0);
    auto& locks = m->counting_locks();
    locks.fail_zone_trylock = true; // another CPU holds zone->lock; this CPU's pageset is empty
    CHECK(alloc_pages_nolock(c, -1, 0) == NO_PFN);
    CHECK(locks.stats(lock_kind::zone_lock, lock_caller::rmqueue_bulk).trylock_failures == 1);
    CHECK(locks.stats(lock_kind::zone_lock, lock_caller::rmqueue_buddy).trylock_failures == 1);
    CHECK(alloc_pages(c, {}) != NO_PFN); // the ordinary path spins and gets its refill
    locks.fail_zone_trylock = false;
    CHECK(alloc_pages_nolock(c, -1, 0) != NO_PFN);
    require_conserved(*m);
}

TEST_CASE("free_pages_nolock leaves pcp->count above high until an ordinary free flushes")
{
    auto m = nolock_machine();
    zone& z = normal_zone(*m);
    const auto pages = take_from_buddy(*m, 0, z, 41);
    mm_ctx c = m->ctx(0);
    auto& locks = record_holds(*m);
    for (std::size_t i = 0; i < 40; ++i) free_pages_nolock(c, pages[i], 0);
    const per_cpu_pages& pcp = z.per_cpu_pageset[0];
    CHECK(pcp.count == 40); // 10 over high, and no zone->lock taken
    CHECK(holds_of(locks, lock_kind::zone_lock, lock_caller::free_pcppages_bulk).empty());
    free_pages(c, pages[40], 0);
    CHECK(pcp.count <= pcp.high);
    CHECK(holds_of(locks, lock_kind::zone_lock, lock_caller::free_pcppages_bulk).size() == 1);
    require_conserved(*m);
}

TEST_CASE("free_pages_nolock parks a block on zone->trylock_free_pages when both trylocks fail and the next "
          "ordinary free_one_page merges it")
{
    auto m = nolock_machine();
    zone& z = normal_zone(*m);
    const pfn_t page0 = take_from_buddy(*m, 0, z, 1).front();
    const pfn_t block = take_from_buddy(*m, 0, z, 1, PAGE_ALLOC_COSTLY_ORDER + 1).front();
    const long free_before = z.nr_free_pages;
    mm_ctx c = m->ctx(0);
    auto& locks = m->counting_locks();
    locks.fail_pcp_trylock = locks.fail_zone_trylock = true;
    free_pages_nolock(c, page0, 0);
    REQUIRE(z.trylock_free_pages.size() == 1);
    CHECK(z.nr_free_pages == free_before);
    require_conserved(*m); // a parked page is neither free nor lost

    locks.fail_pcp_trylock = locks.fail_zone_trylock = false;
    free_pages(c, block, PAGE_ALLOC_COSTLY_ORDER + 1); // not PCP-cacheable: free_one_page under zone->lock
    CHECK(z.trylock_free_pages.empty());
    CHECK(z.nr_free_pages == free_before + 1 + (1L << (PAGE_ALLOC_COSTLY_ORDER + 1)));
    require_conserved(*m);
}
