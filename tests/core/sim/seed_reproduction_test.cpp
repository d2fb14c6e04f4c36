// The five seeds and scenarios 005 to 011 reproduced on the engine: each scenario (sim::seed_scenarios, the one
// `pcplab-cli seeds` runs) with its switch off and on, and the direction of each published effect asserted with a
// margin that a wrong model would miss. Margins are about half of what the model produces at the scale used,
// so they leave room for cost-model refinements but fail when an effect vanishes or turns around.
// Where the model does not reproduce a published effect (see the report of `pcplab-cli seeds`), there is
// no assertion pretending it does; the comment says what the model gives instead.
#include "sim/seed_reference.hpp"
#include "sim/seed_scenarios.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <variant>
#include <vector>

using namespace pcplab;

namespace
{

struct seed_runs {
    sim::seed_scenario sc;
    sim::run_summary off, on;
};

seed_runs run_seed(const char* id, sim::seed_scale scale = sim::seed_scale::quick)
{
    const sim::seed_reference* ref = sim::find_seed_reference(id);
    REQUIRE(ref);
    seed_runs r;
    r.sc = sim::make_seed_scenario(*ref, scale);
    r.off = sim::run_seed_side(r.sc, false);
    r.on = sim::run_seed_side(r.sc, true);
    return r;
}

double figure(const sim::run_summary& run, const char* key)
{
    auto v = sim::simulated_figure(run, key);
    INFO("figure " << key);
    REQUIRE(v.has_value());
    return *v;
}

// (on - off) / off in percent.
double change_pct(double off, double on)
{
    REQUIRE(off > 0);
    return (on - off) / off * 100.0;
}

} // namespace

// At the quick scale (a quarter of the CPUs) the build barely contends and its elapsed time moves by < 1%,
// so this seed runs at the CLI's full scale: all 256 CPUs on 16 GiB nodes, which is what the seed is about.
TEST_CASE("seed 000: recalculating batch after deferred init cuts zone->lock wait, system and elapsed time")
{
    const seed_runs r = run_seed("000", sim::seed_scale::full);
    REQUIRE(r.off.stop_reason == "finished");
    REQUIRE(r.on.stop_reason == "finished");

    // The mechanism, exactly as in the mail: the Normal zones' pagesets go from batch 7 to 63.
    CHECK(figure(r.off, "normal_batch") == 7);
    CHECK(figure(r.on, "normal_batch") == 63);

    const double wait = change_pct(figure(r.off, "zone_lock_wait_ns"), figure(r.on, "zone_lock_wait_ns"));
    const double sys = change_pct(figure(r.off, "sys_ns"), figure(r.on, "sys_ns"));
    const double elapsed = change_pct(figure(r.off, "build_elapsed_s"), figure(r.on, "build_elapsed_s"));
    INFO("zone->lock wait " << wait << "%, sys " << sys << "% (published -69.16%), elapsed " << elapsed
                            << "% (published -27.06%)");
    CHECK(wait <= -50.0);
    CHECK(sys <= -35.0);
    CHECK(elapsed <= -10.0);
    // Not asserted: the published user-time rise (+20.2%). The model's user time is the workload's own
    // compute, identical with the switch off and on.
}

TEST_CASE("seed 001: picking pages outside zone->lock shortens the free_pcppages_bulk hold")
{
    const seed_runs r = run_seed("001");
    const double hold = change_pct(figure(r.off, "fpb_hold_mean_ns"), figure(r.on, "fpb_hold_mean_ns"));
    const double iters = change_pct(figure(r.off, "seed_measure"), figure(r.on, "seed_measure"));
    INFO("mean free_pcppages_bulk hold " << hold << "%, page_fault1 iterations/s " << iters << "% (published +10.8%)");
    CHECK(r.off.stop_reason == "finished"); // the rate is over whole loops
    CHECK(r.on.stop_reason == "finished");
    // The base is v4.15-rc4: 2 GiB per node initialised before setup_per_cpu_pageset, so batch 31 (v4.17's
    // one early section would give 7).
    CHECK(figure(r.off, "normal_batch") == 31);
    CHECK(figure(r.on, "normal_batch") == 31);
    CHECK(hold <= -7.0);
    // The score rises, by about +5% here and +4% at full scale: under half of the published +10.8% on
    // Skylake 4S, but more than the mail's Broadwell 4S (+2.9%) (see the figure's model_note).
    CHECK(iters >= 2.5);
}

TEST_CASE("seed 002: auto-tuned pcp->high cuts zone allocations and zone->lock contention, keeps more on PCP")
{
    const seed_runs r = run_seed("002");
    const double zone_allocs = change_pct(figure(r.off, "zone_allocs"), figure(r.on, "zone_allocs"));
    const double contention = change_pct(figure(r.off, "contention_pct"), figure(r.on, "contention_pct"));
    const double resident_off = figure(r.off, "pcp_resident_pages"), resident_on = figure(r.on, "pcp_resident_pages");
    INFO("zone allocations " << zone_allocs << "% (published -83.9%), contention " << figure(r.off, "contention_pct")
                             << "% -> " << figure(r.on, "contention_pct") << "% (published 11% -> 0.5%), PCP pages "
                             << resident_off << " -> " << resident_on);
    CHECK(zone_allocs <= -30.0);
    CHECK(contention <= -15.0);
    CHECK(resident_on >= 3.0 * resident_off);
    // free_high (published -65.6%): every exiting process frees its order-1 PGD after exit_mmap's order-0
    // run; v6.6's rule drains the pageset on it (one per process: 56 CPUs x 4 jobs x 3 here), v6.7's needs two
    // high-order frees in a row. The model removes them all; at least half is asserted.
    const double fh_off = figure(r.off, "free_high_drains"), fh_on = figure(r.on, "free_high_drains");
    INFO("free_high drains " << fh_off << " -> " << fh_on);
    CHECK(fh_off >= 56 * 4 * 3 / 2);
    CHECK(fh_on <= fh_off / 2);
    // Not asserted: the build time (-3.5% published): at this scale the model's change is under 1% (-1.5% at
    // the CLI's full scale, see the figure's model_note).
}

// At the full scale: at --quick (200 ms from boot) the throughput is dominated by the first reclaim's drains
// of every CPU, which the v2 series' drain_pages_zone batching makes slower (see the figure's model_note).
TEST_CASE("seed 003: batched callers never free more than batch pages per zone->lock hold, and the hold and wait "
          "tails shrink")
{
    const seed_runs r = run_seed("003", sim::seed_scale::full);
    const double batch_off = figure(r.off, "max_batch"), batch_on = figure(r.on, "max_batch");
    const double pages_off = figure(r.off, "covered_max_pages"), pages_on = figure(r.on, "covered_max_pages");
    const double tail = change_pct(figure(r.off, "hold_ns_max"), figure(r.on, "hold_ns_max"));
    const double wait_tail = change_pct(figure(r.off, "wait_ns_max"), figure(r.on, "wait_ns_max"));
    const double long_holds_off = figure(r.off, "holds_over_threshold"),
                 long_holds_on = figure(r.on, "holds_over_threshold");
    const double bogo = change_pct(figure(r.off, "score"), figure(r.on, "score"));
    INFO("largest covered hold " << pages_off << " pages (batch " << batch_off << ") -> " << pages_on << " (batch "
                                 << batch_on << "), longest hold " << tail << "%, longest wait " << wait_tail
                                 << "%, holds over 1 ms " << long_holds_off << " -> " << long_holds_on
                                 << ", waits over 1 ms " << figure(r.off, "waits_over_threshold") << " -> "
                                 << figure(r.on, "waits_over_threshold") << ", bogo ops " << bogo
                                 << "% (published +4.85% and -0.02%)");
    CHECK(pages_off > 2 * batch_off); // without the series, a drain frees several batches under one hold
    CHECK(pages_on <= batch_on);
    CHECK(pages_on > 0); // the covered callers did run
    CHECK(tail <= -7.0);
    // Starvation: the longest any CPU queued for zone->lock (the model: about -44%).
    CHECK(wait_tail <= -20.0);
    // No hold reaches the 1 ms default in the model, switch off or on (see the figure's model_note), so the
    // count cannot shrink here; it must not grow. Not asserted: waits over 1 ms, which the model leaves
    // about as many (the queue, not the holds, makes them).
    CHECK(long_holds_on <= long_holds_off);
    // The tail under the threshold, at every log2 bucket edge from 16.4 us (2^14 ns) to 262 us: never more
    // holds with the switch on, and at 131 us at least 30% fewer (the model: about half). Shorter holds grow
    // in number: the chunks of pcp->batch.
    for (unsigned k = 14; k <= 18; ++k) {
        INFO("holds of 2^" << k << " ns or more: " << sim::zone_lock_holds_from(r.off, k) << " -> "
                           << sim::zone_lock_holds_from(r.on, k));
        CHECK(sim::zone_lock_holds_from(r.on, k) <= sim::zone_lock_holds_from(r.off, k));
    }
    CHECK(change_pct(figure(r.off, "holds_from_131us"), figure(r.on, "holds_from_131us")) <= -30.0);
    // Throughput neutral or better (the model gives +0.1%): bogo ops grow with every 32 KiB swept, so a
    // slower machine shows at once, not only at the end of a pass.
    CHECK(figure(r.off, "score") > 100'000);
    CHECK(bogo >= -sim::NEUTRAL_PCT);
}

TEST_CASE("seed 004: deferred-init time falls with threads per node until the memory-bandwidth floor")
{
    const sim::seed_reference* ref = sim::find_seed_reference("004");
    REQUIRE(ref);
    const sim::seed_scenario sc = sim::make_seed_scenario(*ref, sim::seed_scale::quick);

    auto slowest_node_ms = [&](const sim::machine_config& cfg) {
        const sim::run_summary run = sim::run_seed_side(sc, cfg);
        return figure(run, "deferred_init_max_ms");
    };
    const double off = slowest_node_ms(sc.off), on = slowest_node_ms(sc.on);

    const std::vector<int> threads = {1, 2, 4, 8, 16, 32};
    std::vector<double> ms;
    for (int n : threads) {
        auto cfg = sim::seed_machine_config(*ref, sc.spec, true, n);
        REQUIRE(std::holds_alternative<sim::machine_config>(cfg));
        ms.push_back(slowest_node_ms(std::get<sim::machine_config>(cfg)));
    }
    INFO("off " << off << " ms, on " << on << " ms; sweep 1,2,4,8,16,32 threads: " << ms[0] << ", " << ms[1] << ", "
                << ms[2] << ", " << ms[3] << ", " << ms[4] << ", " << ms[5] << " ms");

    // One thread with the switch on is the switch-off boot (one pgdatinit per node).
    CHECK(ms[0] == Approx(off).epsilon(0.01));
    // Each doubling up to 8 threads cuts the time by at least 40% (ideal: 50%) ...
    for (std::size_t i = 1; i <= 3; ++i) CHECK(ms[i] <= 0.6 * ms[i - 1]);
    // ... and then the node's memory bandwidth bounds it: 16 -> 32 threads gains under 10%, and 32 threads
    // are far from a 32x speed-up.
    CHECK(ms[5] >= 0.9 * ms[4]);
    CHECK(ms[0] / ms[5] < 16.0);
    // The seed's own setting (the RFC: a quarter of the node's CPUs) is within 2x of the published 9.56x.
    CHECK(off / on >= 9.56 / 2);
    CHECK(off / on <= 9.56 * 2);
}

// Scenario 005 (Nikhil Dhama's free_high threshold): at the quick scale every CPU of epyc2-256 streams order-3
// blocks to its pair. With the switch off a run of 16 blocks (128 pages) passes batch (63) and is flushed;
// with it on, the threshold batch + high_min/2 (high_min >= 4 x batch) keeps it on the list. The throughput
// gain is far larger than the paper's +44.9% (the stream has no network stack to dilute zone->lock waits:
// the seeds report says so); only its direction is asserted.
TEST_CASE("scenario 005: raising the free_high trigger keeps runs of order-3 frees on the list")
{
    const seed_runs r = run_seed("005");
    const double off_flushes = figure(r.off, "free_high_drains");
    CHECK(off_flushes > 1000);
    CHECK(figure(r.on, "free_high_drains") < off_flushes / 10);
    CHECK(change_pct(figure(r.off, "zone_allocs"), figure(r.on, "zone_allocs")) < -50);
    CHECK(change_pct(figure(r.off, "score"), figure(r.on, "score")) > 10);
}

// Scenario 006 (the v6.0 remote drain): CPU 0 forces __drain_all_pages(NULL, true) 100 times a virtual second
// while every CPU of skylake-2s streams. Off, every other CPU runs a work item per drain and no pcp->lock
// trylock fails; on, no work item runs elsewhere and some allocations or frees find their pageset held by
// CPU 0. The throughput change is the paper's "no degradation" claim: at least neutral.
TEST_CASE("scenario 006: the remote drain interrupts no other CPU, at the price of failed pcp trylocks")
{
    const seed_runs r = run_seed("006");
    const double cpus = 112;
    CHECK(figure(r.off, "remote_work_items") >= 19 * (cpus - 1)); // 200 ms at 100 drains a second
    CHECK(figure(r.on, "remote_work_items") == 0);
    CHECK(figure(r.off, "pcp_trylock_failures") == 0);
    CHECK(figure(r.on, "pcp_trylock_failures") > 0);
    CHECK(change_pct(figure(r.off, "score"), figure(r.on, "score")) > -sim::NEUTRAL_PCT);
}

// Scenario 007 (the v6.15 fallback mode): frag-churn on skylake-4s as v6.18. Off, every page of a movable
// refill searches for a block to claim in the polluted pageblocks; on, the first page of a batch does and the
// rest steal. The searches per refill fall, and with them the longest zone->lock hold; the stream gains.
TEST_CASE("scenario 007: a refill that remembers its fallback mode searches once, holds zone->lock shorter")
{
    const seed_runs r = run_seed("007");
    CHECK(figure(r.off, "claim_searches_per_refill") > 4 * figure(r.on, "claim_searches_per_refill"));
    CHECK(change_pct(figure(r.off, "hold_ns_max"), figure(r.on, "hold_ns_max")) < -30);
    CHECK(change_pct(figure(r.off, "seed_measure"), figure(r.on, "seed_measure")) > 50); // the model: about +590%
}

// Scenario 008 (allocation from any context, v6.15): bpf-any-context on skylake-2s as v6.18 from power-on. Off,
// the program's calls take the ordinary paths: nothing fails for deferred init, no free leaves a pageset above
// high, and they wait for locks like any caller. On, every call during deferred init fails, its frees skip the
// high check, and no call waits. The series publishes no figure: only these directions are asserted.
TEST_CASE("scenario 008: any-context allocations fail during deferred init and their frees overshoot high")
{
    const seed_runs r = run_seed("008");
    CHECK(figure(r.off, "any_context_failures_deferred_init") == 0);
    CHECK(figure(r.on, "any_context_failures_deferred_init") > 0);
    CHECK(figure(r.off, "any_context_over_high_pages_max") == 0);
    CHECK(figure(r.on, "any_context_over_high_pages_max") > 0);
    CHECK(figure(r.on, "any_context_over_high_ns_max") > 0);
    CHECK(figure(r.on, "any_context_spin_ns") == 0);
}

// Scenario 009 (Johannes Weiner's pcp buddy allocator, an RFC not merged): jemalloc-purge on skylake-2s as v6.18.
// Off, the workers refill and the purgers flush up to batch << 5 pages per zone->lock hold; on, a refill claims
// whole pageblocks and splits them outside the lock, and the purgers' frees go to the owners' lists. The RFC
// publishes no figure. The wait for zone->lock falls and the workers fault more; the acquisitions per page rise
// (the model's disagreement with the cover letter, see `pcplab-cli seeds --only 009`): an owner's allocation that
// finds its pcp->lock held by a purger's free takes one page from the buddy lists.
TEST_CASE("scenario 009: claiming whole pageblocks and freeing to the owner cut the wait for zone->lock")
{
    const seed_runs r = run_seed("009");
    CHECK(figure(r.on, "zone_lock_wait_ns") < 0.5 * figure(r.off, "zone_lock_wait_ns"));
    CHECK(figure(r.on, "score") > figure(r.off, "score"));
    CHECK(figure(r.off, "pcp_trylock_failures") == 0);
    CHECK(figure(r.on, "pcp_trylock_failures") > 0);
}

// Scenario 010 (Mel Gorman's "leave IRQs enabled for per-cpu page allocations", v6.2): net-stream with RX
// interrupts on skylake-2s as v6.6. Off (v6.0 / v6.1), IRQs are off for every pcp->lock hold; on, an interrupt
// that lands in its CPU's own pcp->lock hold takes its page from the buddy lists under zone->lock. The commit
// publishes no figure.
TEST_CASE("scenario 010: with IRQs on under pcp->lock interrupts fall back to zone->lock and wait less")
{
    const seed_runs r = run_seed("010");
    CHECK(figure(r.off, "irq_pcp_fallbacks") == 0);
    CHECK(figure(r.on, "irq_pcp_fallbacks") > 0);
    CHECK(figure(r.on, "zone_lock_acquisitions") > figure(r.off, "zone_lock_acquisitions"));
    CHECK(figure(r.on, "irq_delay_ns_total") < figure(r.off, "irq_delay_ns_total"));
    // Off masks IRQs for every pcp->lock hold of every call; on only for zone->lock holds.
    CHECK(figure(r.on, "irq_irqs_off_ns_total") < 0.5 * figure(r.off, "irq_irqs_off_ns_total"));
}

// Scenario 011 (Yafang Shao's vm.pcp_batch_scale_max, 2024): ten page-fault1 tasks on one node of EPYC, the
// batch scale 5 against 0. At 0 a refill takes at most one batch, so a refill's time (its hold and the wait
// before it) falls many times over; the mail: 449.8 us on average at 5, mostly 2-16 us at 0.
TEST_CASE("scenario 011: a batch scale of 0 keeps refills to one batch and cuts their time")
{
    const seed_runs r = run_seed("011");
    CHECK(r.off.zones.size() == r.on.zones.size());
    const double off = figure(r.off, "refill_latency_mean_ns"), on = figure(r.on, "refill_latency_mean_ns");
    CHECK(on < off / 4);
    // The sides differ by the sysctl alone: the same switches.
    CHECK(r.sc.off.patches.on == r.sc.on.patches.on);
    CHECK(r.sc.off.spec.sysctl.pcp_batch_scale_max == 5);
    CHECK(r.sc.on.spec.sysctl.pcp_batch_scale_max == 0);
}
