// Seed 003 (batched-bulk-free): drain_pages_zone, decay_pcp_high and the free path free in chunks of
// pcp->batch, dropping pcp->lock and zone->lock between chunks.
#include "pcp_test_support.hpp"

#include <algorithm>

using namespace pcp_test;

namespace
{

constexpr int k_batch = 63;

std::unique_ptr<machine> machine_with(const char* era, bool batched, const limits& l)
{
    return make_machine({era, 1, 2, 65536, {{patch::batched_bulk_free, batched}}}, l);
}

// Put `n` pages on CPU 0's pageset without a flush (high is far above n).
void fill(machine& m, int n)
{
    zone& z = normal_zone(m);
    free_all(m, 0, take_from_buddy(m, 0, z, n));
    REQUIRE(this_cpu_pcp(z, 0).count == n);
}

std::uint64_t max_pages_in_one_hold(const std::vector<counting_lock_ops::hold>& hs)
{
    std::uint64_t mx = 0;
    for (const auto& h : hs) mx = std::max(mx, h.inside.pages_to_buddy);
    return mx;
}

} // namespace

TEST_CASE("batched-bulk-free on: drain_pages_zone frees at most pcp->batch pages per zone->lock hold")
{
    for (const char* era : {"v5.4", "v6.6", "v6.18"}) {
        INFO(era);
        auto m = machine_with(era, true, {.batch = k_batch, .high = 10000, .high_min = 10000, .high_max = 10000});
        fill(*m, 3000);
        auto& locks = record_holds(*m);
        mm_ctx c = m->ctx(0);
        drain_pages_zone(c, 0, normal_zone(*m));
        auto holds = holds_of(locks, lock_kind::zone_lock, lock_caller::drain_pages_zone);
        CHECK(max_pages_in_one_hold(holds) <= k_batch);
        CHECK(holds.size() == (3000 + k_batch - 1) / k_batch);
        CHECK(pages_to_buddy_in(holds) == 3000);
        CHECK(this_cpu_pcp(normal_zone(*m), 0).count == 0);
        if (m->era.has_pcp_lock()) // pcp->lock is dropped between chunks too
            CHECK(holds_of(locks, lock_kind::pcp_lock, lock_caller::drain_pages_zone).size() == holds.size());
        require_conserved(*m);
    }
}

TEST_CASE("batched-bulk-free off: draining thousands of pages takes one zone->lock hold before v6.10")
{
    for (const char* era : {"v5.4", "v6.6", "v6.7"}) {
        INFO(era);
        auto m = machine_with(era, false, {.batch = k_batch, .high = 10000, .high_min = 10000, .high_max = 10000});
        fill(*m, 3000);
        auto& locks = record_holds(*m);
        mm_ctx c = m->ctx(0);
        drain_pages_zone(c, 0, normal_zone(*m));
        auto holds = holds_of(locks, lock_kind::zone_lock, lock_caller::drain_pages_zone);
        REQUIRE(holds.size() == 1);
        CHECK(holds[0].inside.pages_to_buddy == 3000);
        require_conserved(*m);
    }
}

TEST_CASE("batched-bulk-free off on v6.10+: drain_pages_zone frees batch << 5 per hold")
{
    auto m = machine_with("v6.18", false, {.batch = k_batch, .high = 10000, .high_min = 10000, .high_max = 10000});
    fill(*m, 3000);
    auto& locks = record_holds(*m);
    mm_ctx c = m->ctx(0);
    drain_pages_zone(c, 0, normal_zone(*m));
    auto holds = holds_of(locks, lock_kind::zone_lock, lock_caller::drain_pages_zone);
    REQUIRE(holds.size() == 2);
    CHECK(holds[0].inside.pages_to_buddy == static_cast<std::uint64_t>(k_batch << 5));
    CHECK(holds[1].inside.pages_to_buddy == static_cast<std::uint64_t>(3000 - (k_batch << 5)));
}

TEST_CASE("batched-bulk-free: decay_pcp_high frees in pcp->batch chunks when on, in one hold when off")
{
    for (bool batched : {true, false}) {
        INFO("batched " << batched);
        auto m = machine_with("v6.7", batched, {.batch = k_batch, .high = 10000, .high_min = 252, .high_max = 10000});
        fill(*m, 3000);
        zone& z = normal_zone(*m);
        per_cpu_pages& pcp = this_cpu_pcp(z, 0);
        pcp.high = 300;
        auto& locks = record_holds(*m);
        mm_ctx c = m->ctx(0);
        CHECK(decay_pcp_high(c, z, pcp));
        // high drops by at most batch << 5 below count: max3(3000 - 2016, 300 - 37, 252) = 984.
        CHECK(pcp.high == 3000 - (k_batch << 5));
        CHECK(pcp.count == pcp.high);
        auto holds = holds_of(locks, lock_kind::zone_lock, lock_caller::decay_pcp_high);
        CHECK(pages_to_buddy_in(holds) == static_cast<std::uint64_t>(k_batch << 5));
        if (batched) {
            CHECK(max_pages_in_one_hold(holds) <= k_batch);
            CHECK(holds.size() == 32);
        } else {
            CHECK(holds.size() == 1);
        }
        require_conserved(*m);
    }
}

TEST_CASE("batched-bulk-free: the free path flushes in pcp->batch chunks, re-taking pcp->lock between them")
{
    for (bool batched : {true, false}) {
        INFO("batched " << batched);
        // high_min == high_max: high is fixed at 3000, so the 3000th free flushes free_count = batch << 5.
        auto m = machine_with("v6.7", batched, {.batch = k_batch, .high = 3000, .high_min = 3000, .high_max = 3000});
        zone& z = normal_zone(*m);
        auto pages = take_from_buddy(*m, 0, z, 3000);
        auto& locks = record_holds(*m);
        free_all(*m, 0, pages);
        auto holds = holds_of(locks, lock_kind::zone_lock, lock_caller::free_pcppages_bulk);
        CHECK(pages_to_buddy_in(holds) == static_cast<std::uint64_t>(k_batch << 5));
        CHECK(this_cpu_pcp(z, 0).count == 3000 - (k_batch << 5));
        const auto pcp_holds = holds_of(locks, lock_kind::pcp_lock, lock_caller::pcp_free).size();
        if (batched) {
            CHECK(max_pages_in_one_hold(holds) <= k_batch);
            CHECK(holds.size() == 32);
            CHECK(pcp_holds == 3000 + 31); // one per free, plus a re-take between chunks
        } else {
            REQUIRE(holds.size() == 1);
            CHECK(holds[0].inside.pages_to_buddy == static_cast<std::uint64_t>(k_batch << 5));
            CHECK(pcp_holds == 3000);
        }
        require_conserved(*m);
    }
}

namespace
{
// Fails the n-th pcp->lock trylock (1-based), counting from when it is installed.
class fail_nth_pcp_trylock : public counting_lock_ops
{
public:
    explicit fail_nth_pcp_trylock(int n)
        : m_n(n)
    {
    }
    bool trylock(const lock_id& id, int cpu, lock_caller caller) override
    {
        if (id.kind == lock_kind::pcp_lock && ++m_seen == m_n) return false;
        return counting_lock_ops::trylock(id, cpu, caller);
    }

private:
    int m_n;
    int m_seen = 0;
};
} // namespace

TEST_CASE("batched-bulk-free: a failed pcp re-trylock in the free path ends the flush")
{
    auto m = machine_with("v6.7", true, {.batch = k_batch, .high = 3000, .high_min = 3000, .high_max = 3000});
    zone& z = normal_zone(*m);
    auto pages = take_from_buddy(*m, 0, z, 3000);
    free_all(*m, 0, std::vector<pfn_t>(pages.begin(), pages.end() - 1));
    REQUIRE(this_cpu_pcp(z, 0).count == 2999);

    fail_nth_pcp_trylock locks(2); // the last free's trylock succeeds, the re-take after the first chunk fails
    locks.record_holds = true;
    m->set_lock_ops(&locks);
    free_all(*m, 0, {pages.back()});
    m->set_lock_ops(nullptr);

    auto holds = holds_of(locks, lock_kind::zone_lock, lock_caller::free_pcppages_bulk);
    REQUIRE(holds.size() == 1);
    CHECK(holds[0].inside.pages_to_buddy == static_cast<std::uint64_t>(k_batch));
    CHECK(this_cpu_pcp(z, 0).count == 3000 - k_batch);
    CHECK(locks.depth(lock_kind::pcp_lock) == 0); // nothing left locked
    require_conserved(*m);
}
