#include "pcp_test_support.hpp"

#include <algorithm>

using namespace pcp_test;

TEST_CASE("v5.4 free flushes pcp->batch coldest pages when count reaches high")
{
    auto m = make_machine({"v5.4"}, {.batch = 7, .high = 42});
    zone& z = normal_zone(*m);
    per_cpu_pages& pcp = this_cpu_pcp(z, 0);
    auto pages = take_from_buddy(*m, 0, z, 42);
    auto& locks = record_holds(*m);

    free_all(*m, 0, std::vector<pfn_t>(pages.begin(), pages.begin() + 41));
    CHECK(pcp.count == 41);
    CHECK(holds_of(locks, lock_kind::zone_lock, lock_caller::free_pcppages_bulk).empty());

    free_all(*m, 0, {pages[41]});
    CHECK(pcp.count == 42 - 7);
    auto flushes = holds_of(locks, lock_kind::zone_lock, lock_caller::free_pcppages_bulk);
    REQUIRE(flushes.size() == 1);
    CHECK(flushes[0].inside.pages_to_buddy == 7);
    // The flushed pages are the coldest: the first seven freed (the list tail).
    for (int i = 0; i < 7; ++i) CHECK(m->pfn_to_page(pages[static_cast<std::size_t>(i)]).state() != page_state::pcp);
    for (int i = 7; i < 42; ++i) CHECK(m->pfn_to_page(pages[static_cast<std::size_t>(i)]).state() == page_state::pcp);
    require_conserved(*m);
}

TEST_CASE("a boot pageset (high 0) frees every page to the buddy allocator at once")
{
    for (const char* era : {"v5.4", "v6.6", "v6.7", "v6.18"}) {
        INFO(era);
        auto m = make_machine({era});
        zone& z = normal_zone(*m);
        auto pages = take_from_buddy(*m, 0, z, 20, 0);
        auto high_order = take_from_buddy(*m, 0, z, 4, 2);
        for (auto& pcp : z.per_cpu_pageset) pcp = per_cpu_pages{};
        z.set_list_bases();
        z.pagesets_allocated = false;
        const long before = total_free_pages(*m);
        free_all(*m, 0, pages);
        CHECK(this_cpu_pcp(z, 0).count == 0);
        CHECK(total_free_pages(*m) - before == 20);
        free_all(*m, 0, high_order, 2);
        CHECK(this_cpu_pcp(z, 0).count == 0);
        CHECK(total_free_pages(*m) - before == 20 + 16);
        require_conserved(*m);
    }
}

TEST_CASE("v6.0+ failed pcp trylock sends the freed page straight to the buddy allocator")
{
    auto m = make_machine({"v6.7"}, {.batch = 31, .high = 500, .high_min = 124, .high_max = 2000});
    zone& z = normal_zone(*m);
    per_cpu_pages& pcp = this_cpu_pcp(z, 0);
    auto pages = take_from_buddy(*m, 0, z, 2);
    free_all(*m, 0, {pages[0]});
    REQUIRE(pcp.count == 1);
    auto& locks = record_holds(*m);
    locks.fail_pcp_trylock = true;
    const long before = total_free_pages(*m);

    free_all(*m, 0, {pages[1]});
    CHECK(pcp.count == 1);
    CHECK(total_free_pages(*m) - before == 1);
    CHECK(holds_of(locks, lock_kind::zone_lock, lock_caller::free_one_page).size() == 1);
    CHECK(locks.stats(lock_kind::pcp_lock, lock_caller::pcp_free).trylock_failures == 1);
    require_conserved(*m);
}

TEST_CASE("pages of an isolated pageblock and uncached orders bypass the PCP")
{
    auto m = make_machine({"v6.6"}, {.batch = 31, .high = 500});
    zone& z = normal_zone(*m);
    per_cpu_pages& pcp = this_cpu_pcp(z, 0);
    auto order0 = take_from_buddy(*m, 0, z, 1);
    auto order5 = take_from_buddy(*m, 0, z, 1, 5);
    auto& locks = record_holds(*m);

    free_all(*m, 0, order5, 5);
    CHECK(pcp.count == 0);
    CHECK(holds_of(locks, lock_kind::zone_lock, lock_caller::free_one_page).size() == 1);

    m->set_pageblock_migratetype(order0[0], MIGRATE_ISOLATE);
    ++z.nr_isolate_pageblock;
    free_all(*m, 0, order0);
    CHECK(pcp.count == 0);
    CHECK(holds_of(locks, lock_kind::zone_lock, lock_caller::free_one_page).size() == 2);
}

TEST_CASE("highatomic pages are cached on the movable list but return to highatomic")
{
    auto m = make_machine({"v5.4"}, {.batch = 1, .high = 2});
    zone& z = normal_zone(*m);
    per_cpu_pages& pcp = this_cpu_pcp(z, 0);
    auto pages = take_from_buddy(*m, 0, z, 1);
    m->set_pageblock_migratetype(pages[0], MIGRATE_HIGHATOMIC);
    // The page enters the movable list (there is no highatomic PCP list); the drain returns it as HIGHATOMIC.
    mm_ctx c = m->ctx(0);
    free_unref_page(c, pages[0], 0);
    REQUIRE(pcp.lists[MIGRATE_MOVABLE].first == pages[0]);
    CHECK(m->pfn_to_page(pages[0]).migratetype() == MIGRATE_HIGHATOMIC);
    CHECK(m->pfn_to_page(pages[0]).state() == page_state::pcp);
    drain_pages_zone(c, 0, z);
    CHECK(pcp.count == 0);
    // Wherever it merged to, the block went back to a highatomic free list.
    bool on_highatomic = false;
    for (const auto& area : z.free_area_) on_highatomic = on_highatomic || !area.free_list[MIGRATE_HIGHATOMIC].empty();
    CHECK(on_highatomic);
}

TEST_CASE("v5.14-v6.6 free_factor grows the flush on consecutive flushes up to high - batch")
{
    auto m = make_machine({"v6.6"}, {.batch = 8, .high = 200});
    zone& z = normal_zone(*m);
    per_cpu_pages& pcp = this_cpu_pcp(z, 0);
    auto pages = take_from_buddy(*m, 0, z, 600);
    auto& locks = record_holds(*m);
    free_all(*m, 0, pages);
    auto flushes = holds_of(locks, lock_kind::zone_lock, lock_caller::free_pcppages_bulk);
    REQUIRE(flushes.size() >= 3);
    // batch << free_factor: 8, 16, 32, ... capped at high - batch.
    CHECK(flushes[0].inside.pages_to_buddy == 8);
    CHECK(flushes[1].inside.pages_to_buddy == 16);
    CHECK(flushes[2].inside.pages_to_buddy == 32);
    for (const auto& f : flushes) CHECK(f.inside.pages_to_buddy <= 200 - 8);
    CHECK(pcp.count < 200);
    require_conserved(*m);
}

TEST_CASE("v5.18+ a run of high-order frees empties the lists (free_high)")
{
    auto m = make_machine({"v6.6"}, {.batch = 8, .high = 400});
    zone& z = normal_zone(*m);
    per_cpu_pages& pcp = this_cpu_pcp(z, 0);
    auto small = take_from_buddy(*m, 0, z, 50);
    auto order2 = take_from_buddy(*m, 0, z, 2, 2);
    free_all(*m, 0, small);
    REQUIRE(pcp.count == 50);
    pcp.free_factor = 1; // a free run is in progress
    free_all(*m, 0, {order2[0]}, 2);
    CHECK(pcp.count == 0);
    require_conserved(*m);
}

TEST_CASE("v6.7 autotune: consecutive high-order frees trigger free_high at batch, or batch + high_min/2 with "
          "free-high-batch-plus-high-min")
{
    // The switch is a v6.16+ default (c544a952ba61); v6.7 .. v6.15 trigger at batch.
    CHECK_FALSE(default_patches(*kernel_version::parse("v6.15"))[patch::free_high_batch_plus_high_min]);
    CHECK(default_patches(*kernel_version::parse("v6.16"))[patch::free_high_batch_plus_high_min]);
    for (bool on : {false, true}) {
        INFO("free-high-batch-plus-high-min " << on);
        auto m = make_machine({"v6.18", 1, 2, 65536, {{patch::free_high_batch_plus_high_min, on}}},
            {.batch = 8, .high = 600, .high_min = 200, .high_max = 600});
        zone& z = normal_zone(*m);
        per_cpu_pages& pcp = this_cpu_pcp(z, 0);
        auto blocks = take_from_buddy(*m, 0, z, 120, 1);
        int first_free_high = -1;
        for (int i = 0; i < 120 && first_free_high < 0; ++i) {
            int before = pcp.count;
            free_all(*m, 0, {blocks[static_cast<std::size_t>(i)]}, 1);
            if (pcp.count < before) first_free_high = i;
        }
        REQUIRE(first_free_high > 0);
        // free_count counts base pages; T = batch, or batch + high_min / 2 with the switch. The flush happens on
        // the first free that finds free_count >= T before adding its own pages.
        const int threshold = on ? 8 + 100 : 8;
        CHECK(first_free_high * 2 >= threshold);
        CHECK((first_free_high - 1) * 2 < threshold);
        require_conserved(*m);
    }
}
