// Same configuration and seed, same snapshots: the boot's (built at instants of the boot's time axis) and the
// run's, compared field by field through the recording's blob. Only the host's wall times may differ.
#include "core/session/snapshot_diff.hpp"
#include "core/sim/engine_test_support.hpp"
#include "session/snapshot_codec.hpp"
#include "sim/boot_presenter.hpp"
#include "sim/machine_config.hpp"
#include "sim/snapshot_builder.hpp"

#include <catch2/catch.hpp>

#include <memory>
#include <vector>

using namespace pcplab;

namespace
{

// A boot watched as the window's driver watches it, then snapshots at fixed instants of the boot and the run.
std::vector<sim::snapshot> boot_and_run(std::uint64_t seed)
{
    auto cfg = test::small_config(2, 2, 2, "v5.4");
    cfg.keep_events = true;
    cfg.workload = "kernbench";
    cfg.seed = seed;
    sim::engine e(cfg);
    sim::snapshot at_setup;
    sim::boot_observer obs;
    obs.on_setup = [&](const mm::machine& m) { sim::copy_memory_state(at_setup, m); };
    e.boot(&obs);
    sim::snapshot_cursor cur;
    sim::snapshot_options opt;
    opt.state_digest = true;
    opt.procfs_every_ns = 0;
    std::vector<sim::snapshot> out;
    const sim::boot_times b = e.timeline();
    for (int i = 0; i <= 8; ++i) {
        sim::boot_frame f;
        f.t = b.workload_start_ns / 8 * static_cast<sim::vtime_ns>(i);
        for (const auto& n : sim::planned_nodes(e, true)) f.nodes.push_back(sim::present_node(n, f.t, true));
        f.at_setup = &at_setup;
        sim::snapshot_context ctx;
        ctx.state = sim::run_state::booting;
        ctx.boundary_ns = f.t;
        out.push_back(*sim::build_boot_snapshot(e, f, cur, ctx));
    }
    for (int i = 1; i <= 4; ++i) {
        test::run_to(e, 2'000'000 * static_cast<sim::vtime_ns>(i));
        sim::snapshot_context ctx;
        ctx.boundary_ns = e.now();
        out.push_back(*sim::build_snapshot(e, cur, ctx, opt));
    }
    for (auto& s : out)
        for (auto& d : s.deferred_init) d.host_ms = 0; // the host's wall time, not the simulation's
    return out;
}

} // namespace

TEST_CASE("the same seed gives the same snapshots, through the boot and the run", "[snapshot][boot]")
{
    const auto a = boot_and_run(7);
    const auto b = boot_and_run(7);
    REQUIRE(a.size() == b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        INFO("snapshot " << i << " at " << a[i].sim_time_ns << " ns");
        CHECK(test::first_difference(a[i], b[i], true).empty());
        CHECK(session::encode_snapshot(a[i]) == session::encode_snapshot(b[i]));
    }
    // The boot's snapshots move through the boot: time, progress and the zones' managed pages climb.
    CHECK(a[4].sim_time_ns > a[3].sim_time_ns);
    unsigned long before = 0, after = 0;
    for (const auto& d : a[3].deferred_init) before += d.done;
    for (const auto& d : a[7].deferred_init) after += d.done;
    CHECK(after > before);
    // Another seed runs differently.
    const auto c = boot_and_run(8);
    CHECK_FALSE(test::first_difference(a.back(), c.back(), true).empty());
}
