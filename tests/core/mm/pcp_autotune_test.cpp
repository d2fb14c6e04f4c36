// Seed 002 (pcp-high-autotune, v6.7): pcp->high floats in [high_min, high_max].
#include "pcp_test_support.hpp"

#include "mm/pcp_limits.hpp"

#include <random>

using namespace pcp_test;

namespace
{
constexpr int k_batch = 63;
const limits k_limits{.batch = k_batch, .high = 4 * k_batch, .high_min = 4 * k_batch, .high_max = 4000};

std::unique_ptr<machine> autotune_machine(bool on = true)
{
    return make_machine({"v6.7", 1, 2, 65536, {{patch::pcp_high_autotune, on}}}, k_limits);
}
} // namespace

TEST_CASE("autotune: pcp->high grows by the refill batch on every refill, up to high_max")
{
    auto m = autotune_machine();
    zone& z = normal_zone(*m);
    per_cpu_pages& pcp = this_cpu_pcp(z, 0);
    mm_ctx c = m->ctx(0);
    int refills = 0;
    for (int i = 0; i < 6000; ++i) {
        const bool refill = pcp.lists[MIGRATE_MOVABLE].empty();
        const int high_before = pcp.high;
        const int batch = k_batch << pcp.alloc_factor;
        REQUIRE(rmqueue_pcplist(c, z, 0, MIGRATE_MOVABLE, ALLOC_WMARK_LOW) != NO_PFN);
        if (refill) {
            ++refills;
            CHECK(pcp.high == std::min(high_before + batch, k_limits.high_max));
        } else {
            CHECK(pcp.high == high_before);
        }
    }
    CHECK(refills >= 3);
    CHECK(pcp.high == k_limits.high_max);
    CHECK(pcp.alloc_factor == kernel_era::PCP_BATCH_SCALE_MAX);
}

TEST_CASE("autotune: high does not grow on refill while the zone is below its high watermark")
{
    auto m = autotune_machine();
    zone& z = normal_zone(*m);
    z.flags |= ZONE_BELOW_HIGH;
    mm_ctx c = m->ctx(0);
    REQUIRE(rmqueue_pcplist(c, z, 0, MIGRATE_MOVABLE, ALLOC_WMARK_LOW) != NO_PFN);
    CHECK(this_cpu_pcp(z, 0).high == k_limits.high_min);
}

TEST_CASE("autotune off on v6.7: the refill size and high stay fixed")
{
    auto m = autotune_machine(false);
    zone& z = normal_zone(*m);
    per_cpu_pages& pcp = this_cpu_pcp(z, 0);
    pcp.high = 500;
    mm_ctx c = m->ctx(0);
    for (int i = 0; i < 1000; ++i) REQUIRE(rmqueue_pcplist(c, z, 0, MIGRATE_MOVABLE, ALLOC_WMARK_LOW) != NO_PFN);
    CHECK(pcp.high == 500);
    CHECK(pcp.alloc_factor == 0);
    CHECK(pcp.count == (k_batch - 1000 % k_batch) % k_batch);
    CHECK_FALSE(decay_pcp_high(c, z, pcp));
    CHECK(pcp.high == 500);
}

TEST_CASE("autotune: decay_pcp_high lowers high by 1/8 per call towards high_min, never below it")
{
    auto m = autotune_machine();
    zone& z = normal_zone(*m);
    per_cpu_pages& pcp = this_cpu_pcp(z, 0);
    pcp.high = k_limits.high_max;
    mm_ctx c = m->ctx(0);
    int calls = 0;
    while (pcp.high > k_limits.high_min) {
        const int before = pcp.high;
        const bool todo = decay_pcp_high(c, z, pcp);
        ++calls;
        CHECK(pcp.high == std::max(before - before / 8, k_limits.high_min));
        CHECK(pcp.high >= k_limits.high_min);
        CHECK(todo == (pcp.high > k_limits.high_min));
        REQUIRE(calls < 100);
    }
    CHECK(calls > 10);
    CHECK_FALSE(decay_pcp_high(c, z, pcp));
    CHECK(pcp.high == k_limits.high_min);
}

TEST_CASE("autotune: decay frees what is above the new high but never more than batch << 5 at once")
{
    auto m = autotune_machine();
    zone& z = normal_zone(*m);
    per_cpu_pages& pcp = this_cpu_pcp(z, 0);
    pcp.high = k_limits.high_max;
    free_all(*m, 0, take_from_buddy(*m, 0, z, 3500));
    REQUIRE(pcp.count == 3500);
    mm_ctx c = m->ctx(0);
    // max3(3500 - 2016, 4000 - 500, 252) = 3500: nothing to drain yet.
    decay_pcp_high(c, z, pcp);
    CHECK(pcp.high == 3500);
    CHECK(pcp.count == 3500);
    // max3(3500 - 2016, 3500 - 437, 252) = 3063.
    decay_pcp_high(c, z, pcp);
    CHECK(pcp.high == 3063);
    CHECK(pcp.count == 3063);
    require_conserved(*m);
}

TEST_CASE("autotune: under ZONE_RECLAIM_ACTIVE the effective high is capped at 4 * batch and high shrinks")
{
    auto m = autotune_machine();
    zone& z = normal_zone(*m);
    per_cpu_pages& pcp = this_cpu_pcp(z, 0);
    pcp.high = k_limits.high_max;
    z.flags |= ZONE_RECLAIM_ACTIVE;
    mm_ctx c = m->ctx(0);
    CHECK(nr_pcp_high(c, pcp, z, k_batch, false) <= 4 * k_batch);

    pcp.high = k_limits.high_max;
    auto pages = take_from_buddy(*m, 0, z, 1000);
    for (pfn_t pfn : pages) {
        free_unref_page(c, pfn, 0);
        REQUIRE(pcp.count < 4 * k_batch);
    }
    CHECK(pcp.high == k_limits.high_min);
    require_conserved(*m);
}

TEST_CASE("autotune: high stays within [high_min, high_max] through a seeded random alloc/free run")
{
    auto m = autotune_machine();
    zone& z = normal_zone(*m);
    per_cpu_pages& pcp = this_cpu_pcp(z, 0);
    mm_ctx c = m->ctx(0);
    std::mt19937 rng(20231016);
    std::vector<std::pair<pfn_t, unsigned>> held;
    const unsigned orders[] = {0, 0, 0, 0, 1, 2, 3, pageblock_order};
    for (int step = 0; step < 30000; ++step) {
        const unsigned r = rng() % 100;
        if (r < 48) {
            unsigned order = orders[rng() % 8];
            pfn_t pfn = rmqueue_pcplist(c, z, order, MIGRATE_MOVABLE, ALLOC_WMARK_LOW);
            if (pfn == NO_PFN) pfn = rmqueue_buddy(c, z, order, MIGRATE_MOVABLE, ALLOC_WMARK_MIN);
            if (pfn != NO_PFN) {
                m->pfn_to_page(pfn).set_state(page_state::allocated);
                m->pfn_to_page(pfn).set_order(order);
                held.emplace_back(pfn, order);
            }
        } else if (r < 96) {
            if (held.empty()) continue;
            std::size_t i = rng() % held.size();
            free_unref_page(c, held[i].first, held[i].second);
            held[i] = held.back();
            held.pop_back();
        } else if (r < 98) {
            decay_pcp_high(c, z, pcp);
        } else {
            z.flags ^= (rng() % 2) ? ZONE_BELOW_HIGH : ZONE_RECLAIM_ACTIVE;
        }
        REQUIRE(pcp.high >= k_limits.high_min);
        REQUIRE(pcp.high <= k_limits.high_max);
    }
    for (auto [pfn, order] : held) free_unref_page(c, pfn, order);
    drain_pages_zone(c, 0, z);
    require_conserved(*m);
    CHECK(static_cast<unsigned long>(z.nr_free_pages) == z.managed());
}

TEST_CASE("vm.pcp_batch_scale_max bounds the decay step live, from v6.7, within 0 .. 6")
{
    auto m = autotune_machine();
    CHECK_THAT(set_pcp_batch_scale_max(*m, 7).message(), Catch::Contains("0 .. 6"));
    CHECK_THAT(set_pcp_batch_scale_max(*m, -1).message(), Catch::Contains("0 .. 6"));
    auto old = make_machine({"v6.6"}, k_limits);
    CHECK_THAT(set_pcp_batch_scale_max(*old, 3).message(), Catch::Contains("does not exist on era v6.6"));
    CHECK(old->sysctl.pcp_batch_scale_max == 5); // refused: unchanged

    zone& z = normal_zone(*m);
    per_cpu_pages& pcp = this_cpu_pcp(z, 0);
    pcp.high = k_limits.high_max;
    free_all(*m, 0, take_from_buddy(*m, 0, z, 3500));
    REQUIRE(pcp.count == 3500);
    REQUIRE(set_pcp_batch_scale_max(*m, 0).ok());
    CHECK(m->sysctl.pcp_batch_scale_max == 0);
    mm_ctx c = m->ctx(0);
    // With the scale at 0 a decay step lowers high at most batch below count: max3(3500 - 63, 4000 - 500, 252).
    decay_pcp_high(c, z, pcp);
    CHECK(pcp.high == 3500);
    // max3(3500 - 63, 3500 - 437, 252) = 3437, where the default scale (5) gives 3063.
    decay_pcp_high(c, z, pcp);
    CHECK(pcp.high == 3437);
    CHECK(pcp.count == 3437);
    require_conserved(*m);
}
