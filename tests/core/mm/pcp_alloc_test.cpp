#include "pcp_test_support.hpp"

using namespace pcp_test;

TEST_CASE("v5.4 refill takes pcp->batch pages from the buddy allocator in one zone->lock hold")
{
    auto m = make_machine({"v5.4"}, {.batch = 31, .high = 186});
    zone& z = normal_zone(*m);
    per_cpu_pages& pcp = this_cpu_pcp(z, 0);
    auto& locks = record_holds(*m);
    mm_ctx c = m->ctx(0);
    const long free_before = total_free_pages(*m);

    pfn_t first = rmqueue_pcplist(c, z, 0, MIGRATE_MOVABLE, ALLOC_WMARK_LOW);
    REQUIRE(first != NO_PFN);
    CHECK(m->pfn_to_page(first).state() == page_state::allocated);
    CHECK(free_before - total_free_pages(*m) == 31);
    CHECK(pcp.count == 30);
    auto refills = holds_of(locks, lock_kind::zone_lock, lock_caller::rmqueue_bulk);
    REQUIRE(refills.size() == 1);

    // The next 30 allocations are served from the list without touching the zone.
    for (int i = 0; i < 30; ++i) REQUIRE(rmqueue_pcplist(c, z, 0, MIGRATE_MOVABLE, ALLOC_WMARK_LOW) != NO_PFN);
    CHECK(pcp.count == 0);
    CHECK(holds_of(locks, lock_kind::zone_lock, lock_caller::rmqueue_bulk).size() == 1);
    CHECK(free_before - total_free_pages(*m) == 31);

    // The 32nd refills another batch.
    REQUIRE(rmqueue_pcplist(c, z, 0, MIGRATE_MOVABLE, ALLOC_WMARK_LOW) != NO_PFN);
    CHECK(pcp.count == 30);
    CHECK(holds_of(locks, lock_kind::zone_lock, lock_caller::rmqueue_bulk).size() == 2);
    // v5.4 has no pcp->lock: nothing but zone->lock was taken.
    CHECK(locks.stats(lock_kind::pcp_lock, lock_caller::pcp_alloc).holds == 0);
    require_conserved(*m);
}

TEST_CASE("allocation takes the most recently freed page (the list head)")
{
    auto m = make_machine({"v6.6"}, {.batch = 31, .high = 500});
    zone& z = normal_zone(*m);
    auto pages = take_from_buddy(*m, 0, z, 10);
    free_all(*m, 0, pages);
    mm_ctx c = m->ctx(0);
    CHECK(rmqueue_pcplist(c, z, 0, MIGRATE_MOVABLE, ALLOC_WMARK_LOW) == pages.back());
    CHECK(rmqueue_pcplist(c, z, 0, MIGRATE_MOVABLE, ALLOC_WMARK_LOW) == pages[pages.size() - 2]);
}

TEST_CASE("v5.14-v6.6 high-order refill takes batch >> order blocks, at least 2")
{
    auto m = make_machine({"v6.6"}, {.batch = 63, .high = 1000});
    zone& z = normal_zone(*m);
    per_cpu_pages& pcp = this_cpu_pcp(z, 0);
    mm_ctx c = m->ctx(0);
    const long before = total_free_pages(*m);
    pfn_t pfn = rmqueue_pcplist(c, z, 2, MIGRATE_MOVABLE, ALLOC_WMARK_LOW);
    REQUIRE(pfn != NO_PFN);
    CHECK(m->pfn_to_page(pfn).order() == 2);
    CHECK(before - total_free_pages(*m) == (63 >> 2) * 4);
    CHECK(pcp.count == ((63 >> 2) - 1) * 4);
    // A THP-order refill with batch 63 still takes 2 blocks.
    pfn_t thp = rmqueue_pcplist(c, z, pageblock_order, MIGRATE_MOVABLE, ALLOC_WMARK_LOW);
    REQUIRE(thp != NO_PFN);
    CHECK(pcp.count == ((63 >> 2) - 1) * 4 + (1 << pageblock_order));
    // Allocation halves free_factor (the free batching scale).
    pcp.free_factor = 4;
    REQUIRE(rmqueue_pcplist(c, z, 2, MIGRATE_MOVABLE, ALLOC_WMARK_LOW) != NO_PFN);
    CHECK(pcp.free_factor == 2);
    require_conserved(*m);
}

TEST_CASE("v6.0+ failed pcp trylock makes the allocation fall back (NO_PFN) without touching the lists")
{
    auto m = make_machine({"v6.6"}, {.batch = 31, .high = 500});
    zone& z = normal_zone(*m);
    per_cpu_pages& pcp = this_cpu_pcp(z, 0);
    mm_ctx c = m->ctx(0);
    REQUIRE(rmqueue_pcplist(c, z, 0, MIGRATE_MOVABLE, ALLOC_WMARK_LOW) != NO_PFN);
    const int count = pcp.count;
    const long before = total_free_pages(*m);
    auto& locks = record_holds(*m);
    locks.fail_pcp_trylock = true;

    CHECK(rmqueue_pcplist(c, z, 0, MIGRATE_MOVABLE, ALLOC_WMARK_LOW) == NO_PFN);
    CHECK(pcp.count == count);
    CHECK(total_free_pages(*m) == before);
    CHECK(locks.holds.empty());
    CHECK(locks.stats(lock_kind::pcp_lock, lock_caller::pcp_alloc).trylock_failures == 1);

    locks.fail_pcp_trylock = false;
    CHECK(rmqueue_pcplist(c, z, 0, MIGRATE_MOVABLE, ALLOC_WMARK_LOW) != NO_PFN);
    CHECK(pcp.count == count - 1);
    CHECK(holds_of(locks, lock_kind::pcp_lock, lock_caller::pcp_alloc).size() == 1);
}

TEST_CASE("before v6.0 there is no pcp->lock to fail: the allocation is served")
{
    auto m = make_machine({"v5.4"}, {.batch = 31, .high = 186});
    zone& z = normal_zone(*m);
    m->counting_locks().fail_pcp_trylock = true;
    mm_ctx c = m->ctx(0);
    CHECK(rmqueue_pcplist(c, z, 0, MIGRATE_MOVABLE, ALLOC_WMARK_LOW) != NO_PFN);
    CHECK(this_cpu_pcp(z, 0).count == 30);
}

TEST_CASE("a boot pageset (high 0, batch 1) refills a single page and keeps none")
{
    for (const char* era : {"v5.4", "v6.6", "v6.7"}) {
        INFO(era);
        auto m = make_machine({era});
        zone& z = normal_zone(*m);
        for (auto& pcp : z.per_cpu_pageset) pcp = per_cpu_pages{};
        z.set_list_bases();
        z.pagesets_allocated = false;
        mm_ctx c = m->ctx(0);
        const long before = total_free_pages(*m);
        REQUIRE(rmqueue_pcplist(c, z, 0, MIGRATE_MOVABLE, ALLOC_WMARK_LOW) != NO_PFN);
        CHECK(before - total_free_pages(*m) == 1);
        CHECK(this_cpu_pcp(z, 0).count == 0);
    }
}
