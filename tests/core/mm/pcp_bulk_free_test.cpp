// Seed 001 (bulk-free-pick-outside-lock) and the shapes of free_pcppages_bulk per era.
#include "pcp_test_support.hpp"

using namespace pcp_test;

namespace
{

struct era_case {
    const char* era;
    limits lim;
};

const era_case k_cases[] = {
    {"v5.4", {.batch = 31, .high = 186}},
    {"v6.6", {.batch = 31, .high = 186}},
    {"v6.7", {.batch = 31, .high = 124, .high_min = 124, .high_max = 1000}},
};

// Free 2000 pages through CPU 0 (flushing as the era does) and drain what is left; return the lock record.
counting_lock_ops& free_and_drain(machine& m)
{
    zone& z = normal_zone(m);
    auto pages = take_from_buddy(m, 0, z, 2000);
    auto& locks = record_holds(m);
    free_all(m, 0, pages);
    mm_ctx c = m.ctx(0);
    drain_pages_zone(c, 0, z);
    return locks;
}

} // namespace

TEST_CASE("bulk-free-pick-outside-lock on: no PCP page is picked while zone->lock is held")
{
    for (const era_case& ec : k_cases) {
        INFO(ec.era);
        auto m = make_machine({ec.era, 1, 2, 65536, {{patch::bulk_free_pick_outside_lock, true}}}, ec.lim);
        auto& locks = free_and_drain(*m);
        auto flushes = holds_of(locks, lock_kind::zone_lock, lock_caller::free_pcppages_bulk);
        auto drains = holds_of(locks, lock_kind::zone_lock, lock_caller::drain_pages_zone);
        REQUIRE_FALSE(flushes.empty());
        REQUIRE_FALSE(drains.empty());
        for (const auto* hs : {&flushes, &drains})
            for (const auto& h : *hs) {
                CHECK(h.inside.pcp_pages_picked == 0);
                CHECK(h.inside.pcp_list_ops == 0);
                CHECK(h.inside.pages_to_buddy > 0);
            }
        // The picking still happened, all of it outside the holds.
        CHECK(m->work.pcp_pages_picked == 2000);
        CHECK(this_cpu_pcp(normal_zone(*m), 0).count == 0);
        require_conserved(*m);
    }
}

TEST_CASE("bulk-free-pick-outside-lock off: the picking happens inside the zone->lock hold")
{
    for (const era_case& ec : k_cases) {
        INFO(ec.era);
        auto m = make_machine({ec.era, 1, 2, 65536, {{patch::bulk_free_pick_outside_lock, false}}}, ec.lim);
        auto& locks = free_and_drain(*m);
        auto flushes = holds_of(locks, lock_kind::zone_lock, lock_caller::free_pcppages_bulk);
        REQUIRE_FALSE(flushes.empty());
        std::uint64_t picked_inside = 0;
        for (const auto& h : flushes) {
            CHECK(h.inside.pcp_pages_picked > 0);
            CHECK(h.inside.pcp_pages_picked == h.inside.pages_to_buddy);
            CHECK(h.inside.page_touch_local >= h.inside.pcp_pages_picked);
            picked_inside += h.inside.pcp_pages_picked;
        }
        for (const auto& h : holds_of(locks, lock_kind::zone_lock, lock_caller::drain_pages_zone))
            picked_inside += h.inside.pcp_pages_picked;
        CHECK(picked_inside == 2000);
        require_conserved(*m);
    }
}

TEST_CASE("before v5.18 the switch moves the lock, not the choice of pages")
{
    std::vector<std::vector<pfn_t>> left;
    for (bool on : {true, false}) {
        auto m
            = make_machine({"v5.4", 1, 2, 65536, {{patch::bulk_free_pick_outside_lock, on}}}, {.batch = 5, .high = 30});
        zone& z = normal_zone(*m);
        // Pages of all three migratetypes, so the round-robin and its batch_free matter.
        auto pages = take_from_buddy(*m, 0, z, 29);
        mm_ctx c = m->ctx(0);
        per_cpu_pages& pcp = this_cpu_pcp(z, 0);
        for (std::size_t i = 0; i < pages.size(); ++i) {
            m->pfn_to_page(pages[i]).set_migratetype(i % 3);
            REQUIRE(free_unref_page_commit(c, z, pcp, pages[i], static_cast<int>(i % 3), 0));
        }
        free_pcppages_bulk(c, z, 17, pcp, 0, lock_caller::other);
        std::vector<pfn_t> rest;
        for (unsigned l = 0; l < 3; ++l)
            for (pfn_t p : list_pfns(*m, pcp.lists[l])) rest.push_back(p);
        CHECK(pcp.count == 12);
        left.push_back(rest);
    }
    CHECK(left[0] == left[1]);
}

TEST_CASE("the pre-v5.18 round-robin frees from fuller lists as empty ones are passed (batch_free)")
{
    auto m
        = make_machine({"v5.4", 1, 2, 65536, {{patch::bulk_free_pick_outside_lock, true}}}, {.batch = 5, .high = 100});
    zone& z = normal_zone(*m);
    per_cpu_pages& pcp = this_cpu_pcp(z, 0);
    mm_ctx c = m->ctx(0);
    // 10 unmovable and 10 movable pages, no reclaimable ones.
    auto pages = take_from_buddy(*m, 0, z, 20);
    for (std::size_t i = 0; i < 20; ++i) {
        int mt = i < 10 ? MIGRATE_UNMOVABLE : MIGRATE_MOVABLE;
        m->pfn_to_page(pages[i]).set_migratetype(mt);
        free_unref_page_commit(c, z, pcp, pages[i], mt, 0);
    }
    // batch_free counts every list probed: MOVABLE first (1 probe: 1 page), then RECLAIMABLE (empty) and
    // UNMOVABLE (2 probes: 2 pages), and around again: movable 1, unmovable 2 -> 2 movable + 4 unmovable.
    free_pcppages_bulk(c, z, 6, pcp, 0, lock_caller::other);
    CHECK(m->lists().length(pcp.lists[MIGRATE_MOVABLE]) == 8);
    CHECK(m->lists().length(pcp.lists[MIGRATE_UNMOVABLE]) == 6);
    CHECK(pcp.count == 14);
    // The coldest (first freed, at the list tails) go first.
    for (std::size_t i : {0, 1, 2, 3, 10, 11}) CHECK(m->pfn_to_page(pages[i]).state() != page_state::pcp);
    for (std::size_t i : {4, 12}) CHECK(m->pfn_to_page(pages[i]).state() == page_state::pcp);
    require_conserved(*m);
}

TEST_CASE("v5.18+ single pass drains the requested list first and whole lists")
{
    auto m = make_machine({"v6.6"}, {.batch = 8, .high = 1000});
    zone& z = normal_zone(*m);
    per_cpu_pages& pcp = this_cpu_pcp(z, 0);
    auto order0 = take_from_buddy(*m, 0, z, 12);
    auto order1 = take_from_buddy(*m, 0, z, 3, 1);
    free_all(*m, 0, order0);
    free_all(*m, 0, order1, 1);
    REQUIRE(pcp.count == 12 + 6);
    mm_ctx c = m->ctx(0);
    const unsigned pindex1 = order_to_pindex(m->era, MIGRATE_MOVABLE, 1);

    free_pcppages_bulk(c, z, 4, pcp, pindex1, lock_caller::other);
    CHECK(m->lists().length(pcp.lists[pindex1]) == 1);
    CHECK(m->lists().length(pcp.lists[MIGRATE_MOVABLE]) == 12);

    // Asked for 3 from the order-1 list: it frees its last block (2 pages), then moves on round-robin and
    // empties from the next non-empty list until the count is met.
    free_pcppages_bulk(c, z, 3, pcp, pindex1, lock_caller::other);
    CHECK(pcp.lists[pindex1].empty());
    CHECK(m->lists().length(pcp.lists[MIGRATE_MOVABLE]) == 11);
    CHECK(pcp.count == 11);
    require_conserved(*m);
}

TEST_CASE("free_pcppages_bulk never frees more than the pageset holds")
{
    for (bool on : {true, false}) {
        auto m = make_machine(
            {"v6.6", 1, 2, 65536, {{patch::bulk_free_pick_outside_lock, on}}}, {.batch = 8, .high = 1000});
        zone& z = normal_zone(*m);
        per_cpu_pages& pcp = this_cpu_pcp(z, 0);
        free_all(*m, 0, take_from_buddy(*m, 0, z, 10));
        mm_ctx c = m->ctx(0);
        free_pcppages_bulk(c, z, 500, pcp, 0, lock_caller::other);
        CHECK(pcp.count == 0);
        require_conserved(*m);
    }
}
