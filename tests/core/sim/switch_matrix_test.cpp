// Every patch switch on every shipped preset where it means something: the machine boots with the switch set
// against its era default, runs the switch's own scenario workload (so the mechanism the switch changes is
// exercised, e.g. RX interrupts for pcp-lock-irqs-enabled), and the allocator's state still proves page
// conservation (mm::verify). Memory is scaled to 1 GiB per node: none of the switches depends on memory size,
// and the CPUs and nodes, which decide how the mechanism runs, are the preset's.
#include "mm/patch_switches.hpp"
#include "mm/verify.hpp"
#include "sim/engine.hpp"
#include "sim/machine_config.hpp"
#include "sim/preset.hpp"
#include "sim/seed_reference.hpp"
#include "sim/seed_scenarios.hpp"
#include "sim/workload.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <variant>
#include <vector>

using namespace pcplab;

namespace
{

constexpr sim::vtime_ns RUN_NS = 2'000'000;

// The eras to try a switch on: the preset's own, and the newest modelled one.
std::vector<std::string> eras_for(const mm::machine_spec& preset)
{
    std::vector<std::string> eras = {preset.era};
    const std::string newest = mm::modelled_eras().back().str();
    if (newest != preset.era) eras.push_back(newest);
    return eras;
}

} // namespace

TEST_CASE("every switch boots, runs its scenario's workload and keeps the allocator consistent on every preset")
{
    int runs = 0;
    for (const std::string& name : sim::list_presets()) {
        auto loaded = sim::load_preset(name);
        REQUIRE(std::holds_alternative<mm::machine_spec>(loaded));
        const mm::machine_spec spec = sim::scale_machine_memory(std::get<mm::machine_spec>(loaded), 1.0);
        for (const std::string& era : eras_for(spec)) {
            for (unsigned i = 0; i < mm::NR_PATCHES; ++i) {
                const auto p = static_cast<mm::patch>(i);
                const auto version = mm::kernel_version::parse(era);
                REQUIRE(version);
                const bool on = !mm::default_patches(*version)[p]; // against the era's default
                if (!mm::patch_not_applicable(p, on, *version).empty()) continue;
                const sim::seed_reference* ref = sim::find_seed_reference(std::string(mm::patch_info(p).scenario));
                REQUIRE(ref);
                const sim::seed_plan plan = sim::plan_for_seed(*ref, sim::seed_scale::quick);
                // A boot-only scenario (004) still gets a workload, so the machine also allocates after boot.
                const std::string workload = ref->workload == "boot" ? "page-fault1" : ref->workload;
                INFO(name << " " << era << " " << mm::patch_name(p) << (on ? " on" : " off") << ", " << workload);

                sim::machine_options opts;
                opts.era = era;
                opts.switches.push_back({p, on});
                auto cfg = sim::make_machine_config(spec, opts);
                REQUIRE(std::holds_alternative<sim::machine_config>(cfg));
                sim::engine_config ec = sim::engine_config_for(std::get<sim::machine_config>(cfg));
                ec.workload = workload;
                ec.intensity = plan.intensity;
                ec.forced_drain_hz = plan.forced_drain_hz;
                sim::engine e(ec, [&] {
                    auto w = sim::make_workload(workload);
                    if (workload == ref->workload)
                        for (const auto& [key, value] : plan.params) REQUIRE(w->set_param(key, value).ok());
                    return w;
                });
                e.boot();
                CHECK(e.machine().patches[p] == on);
                e.run_until(e.workload_start() + RUN_NS);
                CHECK(e.totals().allocs > 0);
                const auto v = mm::verify(e.machine());
                CHECK(v.ok());
                if (!v.ok()) CHECK(v.errors.front().empty());
                ++runs;
            }
        }
    }
    // 11 presets, each switch at least once: far more than NR_PATCHES runs.
    CHECK(runs > static_cast<int>(3 * mm::NR_PATCHES));
}
