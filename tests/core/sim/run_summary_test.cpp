#include "core/sim/engine_test_support.hpp"
#include "sim/engine.hpp"
#include "sim/machine_config.hpp"
#include "sim/preset.hpp"
#include "sim/run_summary.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <variant>

using namespace pcplab;
using json = nlohmann::json;

namespace
{

// A run as summarize_run would fill it, made by hand: two zones on a v6.7 machine with autotune.
sim::run_summary made_up_run(std::uint64_t seed, std::uint64_t sys_ns, bool autotune)
{
    sim::run_summary s;
    s.preset = "classroom";
    s.era = "v6.7";
    s.requested_era = "v6.7";
    s.patches = {{"pcp-update-after-deferred-init", true}, {"pcp-high-autotune", autotune}};
    s.patch_origins = {"era default", "user"};
    s.workload = "kernbench";
    s.seed = seed;
    s.hold_threshold_ns = 1'000'000;
    s.stop_reason = "duration";
    s.sim_time_ns = 1'000'000'000;
    s.events = 12345 + seed;
    s.wall_ns = 5e8;
    s.totals.allocs = 1000 * seed;
    s.totals.sys_ns = sys_ns;
    s.totals.elapsed_ns = s.sim_time_ns;
    s.totals.score = 42.5;
    s.work_units = 42.5;
    s.score_unit = "jobs";
    s.seed_measure = "elapsed seconds";
    s.seed_measure_value = 1.0;
    for (int node = 0; node < 2; ++node) {
        sim::zone_summary z;
        z.node = node;
        z.zone = 2;
        z.name = "Normal";
        z.managed_pages = 1u << 20;
        z.batch = 63;
        z.high = 378;
        z.autotune = autotune;
        z.high_min = 378;
        z.high_max = 32768;
        z.acquisitions = 100;
        z.contended = 10 * seed;
        z.waiting_ns = 250'000'000;
        z.contention_pct = 25.0;
        z.hold_ns_p99 = 4096;
        z.callers.push_back({"free_pcppages_bulk", 40, 400'000, 63});
        s.zones.push_back(z);
    }
    s.boot.push_back({0, 2, 1000, 12.5, 3.0});
    return s;
}

json parse(const std::string& text)
{
    return json::parse(text);
}

} // namespace

TEST_CASE("mean and sample standard deviation")
{
    auto ms = sim::compute_mean_stddev({2, 4, 4, 4, 5, 5, 7, 9});
    CHECK(ms.mean == Approx(5.0));
    CHECK(ms.stddev == Approx(std::sqrt(32.0 / 7.0))); // n - 1, as mmtests reports
    CHECK(sim::compute_mean_stddev({3}).stddev == 0);
    CHECK(sim::compute_mean_stddev({}).mean == 0);
}

TEST_CASE("the run JSON has every required key with the run's values")
{
    json j = parse(sim::run_summary_json(made_up_run(7, 5000, false)));
    CHECK(j["preset"] == "classroom");
    CHECK(j["era"] == "v6.7");
    CHECK(j["seed"] == 7);
    CHECK(j["sim_time_ns"] == 1'000'000'000);
    CHECK(j["patches"]["pcp-high-autotune"] == false);
    CHECK(j["patch_origins"]["pcp-high-autotune"] == "user");
    for (const char* k : {"allocs", "frees", "pcp_hits", "zone_allocs", "free_high_drains", "pcp_resident_pages",
             "sys_ns", "user_ns", "elapsed_ns", "score"})
        CHECK(j["totals"].contains(k));
    CHECK(j["totals"]["sys_ns"] == 5000);
    CHECK(j["totals"]["allocs"] == 7000);
    REQUIRE(j["zones"].size() == 2);
    const json& z = j["zones"][1];
    CHECK(z["node"] == 1);
    CHECK(z["zone"] == "Normal");
    CHECK(z["managed_pages"] == 1u << 20);
    CHECK(z["batch"] == 63);
    CHECK(z["high"] == 378);
    for (const char* k : {"acquisitions", "contended", "wait_ns_total", "wait_ns_max", "hold_ns_total", "hold_ns_max",
             "hold_ns_p99", "max_pages_per_hold", "holds_over_threshold", "waits_over_threshold"})
        CHECK(z["lock"].contains(k));
    CHECK(z["lock"]["contended"] == 70);
    CHECK(z["contention_pct"] == 25.0);
    CHECK(z["callers"]["free_pcppages_bulk"]["holds"] == 40);
    // high_min / high_max only exist where high floats (pcp-high-autotune)
    CHECK_FALSE(z.contains("high_min"));
    json a = parse(sim::run_summary_json(made_up_run(7, 5000, true)));
    CHECK(a["zones"][0]["high_min"] == 378);
    CHECK(a["zones"][0]["high_max"] == 32768);
}

TEST_CASE("a repeat turns every measured figure into mean and standard deviation")
{
    std::vector<sim::run_summary> runs = {made_up_run(3, 100, false), made_up_run(4, 300, false)};
    json j = parse(sim::run_repeat_json(runs));
    CHECK(j["repeat"] == 2);
    CHECK(j["seeds"] == json::array({3, 4}));
    CHECK(j["seed"] == 3); // configuration: the first run's
    CHECK(j["preset"] == "classroom"); // equal strings stay plain
    CHECK(j["totals"]["sys_ns"]["mean"] == Approx(200));
    CHECK(j["totals"]["sys_ns"]["stddev"] == Approx(std::sqrt(2.0) * 100));
    CHECK(j["totals"]["allocs"]["mean"] == Approx(3500));
    CHECK(j["zones"][0]["node"] == 0); // identifies the row: not averaged
    CHECK(j["zones"][0]["lock"]["contended"]["mean"] == Approx(35));
    CHECK(j["zones"][0]["lock"]["contended"]["stddev"] == Approx(std::sqrt(50.0)));
    CHECK(j["zones"][0]["batch"]["mean"] == Approx(63));
    CHECK(j["zones"][0]["batch"]["stddev"] == 0);
    CHECK(j["zones"][0]["callers"]["free_pcppages_bulk"]["holds"]["mean"] == Approx(40));
    CHECK(j["boot"][0]["modelled_ms"]["mean"] == Approx(12.5));
}

TEST_CASE("a caller present in only some runs counts as zero in the others")
{
    auto a = made_up_run(1, 100, false);
    auto b = made_up_run(2, 100, false);
    b.zones[0].callers.push_back({"drain_pages_zone", 10, 1000, 5});
    json j = parse(sim::run_repeat_json({a, b}));
    CHECK(j["zones"][0]["callers"]["drain_pages_zone"]["holds"]["mean"] == Approx(5));
}

TEST_CASE("the text shows the zone table with its lock figures and the score")
{
    std::string t = sim::run_summary_text(made_up_run(1, 2'500'000, true));
    CHECK(t.find("preset classroom") != std::string::npos);
    CHECK(t.find("pcp-high-autotune on (user)") != std::string::npos);
    CHECK(t.find("Node 1 Normal") != std::string::npos);
    CHECK(t.find("25.00%") != std::string::npos); // contention
    CHECK(t.find("2.500 ms") != std::string::npos); // sys time
    CHECK(t.find("high_max") != std::string::npos);
    CHECK(t.find("free_pcppages_bulk") != std::string::npos);
    CHECK(t.find("42.5 jobs per virtual second") != std::string::npos);
    CHECK(t.find("±") == std::string::npos);

    std::string r = sim::run_repeat_text({made_up_run(1, 100, false), made_up_run(2, 300, false)});
    CHECK(r.find("200 ns ± 141 ns") != std::string::npos);
    CHECK(r.find("2 runs, seeds [1,2]") != std::string::npos);
}

TEST_CASE("summarize_run reports the engine's own counters")
{
    auto loaded = sim::load_preset("classroom");
    REQUIRE(std::holds_alternative<mm::machine_spec>(loaded));
    auto cfg = sim::make_machine_config(std::get<mm::machine_spec>(loaded), sim::machine_options{});
    REQUIRE(std::holds_alternative<sim::machine_config>(cfg));
    const auto& mc = std::get<sim::machine_config>(cfg);
    sim::engine_config ec;
    ec.spec = mc.spec;
    ec.era = mc.era;
    ec.patches = mc.patches;
    ec.workload = "kernbench";
    ec.seed = 9;
    sim::engine e(ec);
    e.boot();
    test::run_to(e, 5'000'000);
    sim::run_summary s = sim::summarize_run(e);

    CHECK(s.workload == "kernbench");
    CHECK(s.seed == 9);
    CHECK(s.era == "v5.4");
    CHECK(s.sim_time_ns == e.elapsed());
    CHECK(s.sim_time_ns >= 5'000'000);
    CHECK(s.events == e.events_processed());
    CHECK(s.totals.allocs == e.totals().allocs);
    CHECK(s.totals.allocs > 0);
    CHECK(s.totals.zone_allocs == e.totals().zone_allocs);
    std::uint64_t sys = 0;
    for (const auto& c : e.cpus()) sys += c.sys_ns;
    CHECK(s.totals.sys_ns == sys);
    REQUIRE(s.zones.size() == e.zone_locks().size());
    std::uint64_t acquisitions = 0;
    for (std::size_t i = 0; i < s.zones.size(); ++i) {
        const auto& l = e.zone_locks()[i];
        CHECK(s.zones[i].node == l.node);
        CHECK(s.zones[i].acquisitions == l.acquisitions);
        CHECK(s.zones[i].hold_ns_max == l.hold_ns_max);
        CHECK(s.zones[i].contention_pct == Approx(100.0 * double(l.waiting_ns) / double(s.sim_time_ns)));
        const auto& z = e.machine().nodes[std::size_t(l.node)]->z(mm::zone_type(l.zone));
        CHECK(s.zones[i].managed_pages == z.managed());
        CHECK(s.zones[i].batch == z.pageset_batch);
        acquisitions += l.acquisitions;
    }
    CHECK(acquisitions > 0);
    REQUIRE(s.boot.size() == 2);
    CHECK(s.boot[1].modelled_ms == e.boot_report()[1].modelled_ms);
}
