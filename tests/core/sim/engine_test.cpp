#include "core/sim/engine_test_support.hpp"

#include "sim/engine_prices.hpp"
#include "sim/struct_page_cache_model.hpp"

#include "mm/state_digest.hpp"

#include <catch2/catch.hpp>

using namespace pcplab;
using namespace pcplab::test;

namespace
{

struct run_result {
    std::uint64_t digest = 0;
    std::uint64_t steps = 0;
    sim::vtime_ns now = 0;
    sim::global_metrics totals;
    std::vector<sim::lock_metrics> locks;
    std::vector<sim::cpu_metrics> cpus;
    std::size_t events = 0;
};

run_result run_twice_config(const loop_params& p, sim::vtime_ns until)
{
    auto cfg = small_config(2, 3, 1, "v6.7");
    sim::engine e(cfg, loop_factory(p));
    run_to(e, until);
    run_result r;
    r.digest = mm::state_digest(e.machine());
    r.steps = e.events_processed();
    r.now = e.now();
    r.totals = e.totals();
    r.locks = e.zone_locks();
    r.cpus = e.cpus();
    r.events = e.events().size();
    return r;
}

void require_same(const run_result& a, const run_result& b)
{
    REQUIRE(a.digest == b.digest);
    REQUIRE(a.steps == b.steps);
    REQUIRE(a.now == b.now);
    REQUIRE(a.totals.allocs == b.totals.allocs);
    REQUIRE(a.totals.zone_allocs == b.totals.zone_allocs);
    REQUIRE(a.totals.pcp_hits == b.totals.pcp_hits);
    REQUIRE(a.totals.pcp_resident_pages == b.totals.pcp_resident_pages);
    REQUIRE(a.events == b.events);
    REQUIRE(a.locks.size() == b.locks.size());
    for (std::size_t i = 0; i < a.locks.size(); ++i) {
        REQUIRE(a.locks[i].acquisitions == b.locks[i].acquisitions);
        REQUIRE(a.locks[i].wait_ns_total == b.locks[i].wait_ns_total);
        REQUIRE(a.locks[i].hold_ns_total == b.locks[i].hold_ns_total);
        REQUIRE(a.locks[i].waiting_ns == b.locks[i].waiting_ns);
        REQUIRE(a.locks[i].hold_hist.buckets == b.locks[i].hold_hist.buckets);
    }
    for (std::size_t c = 0; c < a.cpus.size(); ++c) {
        REQUIRE(a.cpus[c].sys_ns == b.cpus[c].sys_ns);
        REQUIRE(a.cpus[c].user_ns == b.cpus[c].user_ns);
        REQUIRE(a.cpus[c].spin_ns == b.cpus[c].spin_ns);
    }
}

} // namespace

TEST_CASE("the same configuration gives the same metrics and allocator state")
{
    loop_params p;
    p.burst = 300;
    p.gap_ns = 20'000;
    const sim::vtime_ns until = 30'000'000;
    run_result a = run_twice_config(p, until);
    run_result b = run_twice_config(p, until);
    REQUIRE(a.totals.allocs > 10'000);
    require_same(a, b);

    // The comparison can tell runs apart: a different workload gives a different state.
    p.burst = 301;
    run_result c = run_twice_config(p, until);
    REQUIRE(c.digest != a.digest);
}

TEST_CASE("step stops when every CPU of a finite workload is done")
{
    auto cfg = small_config(1, 2, 1, "v5.4");
    loop_params p;
    p.burst = 10;
    p.rounds = 3;
    sim::engine e(cfg, loop_factory(p));
    e.boot();
    while (e.step()) { }
    REQUIRE(e.finished());
    REQUIRE(loop_of(e).allocations == 2 * 3 * 10);
    REQUIRE(e.totals().allocs == 60);
    REQUIRE(e.totals().frees == 60);
    REQUIRE(e.elapsed() > 0);
    REQUIRE_FALSE(e.step());
}

TEST_CASE("engine prices agree with work_ns")
{
    sim::cost_rates r;
    r.list_op_ns = 1.25;
    r.page_miss_local_ns = 97.5;
    r.page_miss_remote_ns = 151;
    r.page_hit_ns = 2.5;
    const auto prices = sim::work_prices::from(r);
    mm::mm_work w;
    w.pcp_list_ops = 17;
    w.buddy_list_ops = 40;
    w.merge_steps = 9;
    w.split_steps = 3;
    w.page_touch_local = 11;
    w.page_touch_remote = 5;
    w.page_touch_hit = 23;
    w.pages_to_buddy = 63;
    w.fallback_area_checks = 7;
    w.claim_searches = 2;
    const double want_ps = sim::work_ns(r, w) * 1000;
    REQUIRE(static_cast<double>(prices.price_ps(w)) == Approx(want_ps).margin(1));
    REQUIRE(prices.lock_ns == static_cast<std::uint64_t>(r.lock_ns));
}

TEST_CASE("a fallback search costs its pageblock walks' struct page touches and its counters cost nothing")
{
    sim::cost_rates r;
    r.page_hit_ns = 2.5;
    mm::mm_work w;
    w.fallback_area_checks = 8;
    w.claim_searches = 3;
    CHECK(sim::work_ns(r, w) == 0);
    w.page_touch_hit = 512; // one walk of a pageblock whose frames all hit the cache
    CHECK(sim::work_ns(r, w) == 512 * 2.5);
}

TEST_CASE("log histogram percentiles are bucket upper bounds")
{
    sim::log_histogram h;
    REQUIRE(h.percentile(0.99) == 0);
    for (int i = 0; i < 98; ++i) h.add(100); // bucket [64, 128)
    h.add(5000); // [4096, 8192)
    h.add(70000); // [65536, 131072)
    REQUIRE(h.count() == 100);
    REQUIRE(h.percentile(0.5) == 128);
    REQUIRE(h.percentile(0.99) == 8192);
    REQUIRE(h.percentile(99) == 8192);
    REQUIRE(h.percentile(1.0) == 131072);
}

TEST_CASE("a struct page touched again soon hits the CPU's cache model")
{
    sim::struct_page_cache_model caches(2, 64); // 16 sets x 4 ways
    auto* c0 = caches.cpu(0);
    auto* c1 = caches.cpu(1);
    REQUIRE_FALSE(c0->touch(100));
    REQUIRE(c0->touch(100));
    REQUIRE_FALSE(c1->touch(100)); // each CPU has its own cache
    // Three more pages of the same set (pfn & 15 == 4) fill its four ways; a fifth evicts the least recently
    // used one, which is 100.
    for (mm::pfn_t p : {116U, 132U, 148U}) REQUIRE_FALSE(c0->touch(p));
    REQUIRE(c0->touch(100));
    REQUIRE(c0->touch(116)); // now 100 is the least recently used but one: 132 is the oldest
    REQUIRE_FALSE(c0->touch(180));
    REQUIRE_FALSE(c0->touch(132));
    REQUIRE(c0->touch(100));
    // Other traffic of a cache's size makes every line cold again.
    c0->add_traffic(30);
    REQUIRE(c0->touch(132));
    c0->add_traffic(64);
    REQUIRE_FALSE(c0->touch(100));
}
