// Where a switch flip acts on a machine: now, at the next boot, or nowhere (and why), decided from the era,
// the machine's CPUs per node and what a live flip does in the engine.
#include "sim/machine_config.hpp"
#include "sim/preset.hpp"
#include "sim/switch_reach.hpp"

#include <catch2/catch.hpp>

#include <variant>

using namespace pcplab;

namespace
{
sim::machine_config config_of(const char* preset, const char* era = nullptr)
{
    auto loaded = sim::load_preset(preset);
    REQUIRE(std::holds_alternative<mm::machine_spec>(loaded));
    sim::machine_options o;
    if (era) o.era = era;
    auto cfg = sim::make_machine_config(std::get<mm::machine_spec>(loaded), o);
    REQUIRE(std::holds_alternative<sim::machine_config>(cfg));
    return std::get<sim::machine_config>(cfg);
}

sim::flip_reach reach(const sim::machine_config& c, mm::patch p, bool booted)
{
    return sim::reach_of_flip(c.spec, c.era, c.patches, p, booted);
}
} // namespace

TEST_CASE("parallel deferred init cannot act where the era's rule gives as many threads as without it")
{
    // classroom: 4 CPUs per node on v5.4, where the RFC's quarter of the CPUs is one thread.
    const auto classroom = config_of("classroom");
    const auto r = reach(classroom, mm::patch::parallel_deferred_init, true);
    CHECK(r.when == sim::switch_reach::never);
    CHECK_THAT(r.why, Catch::Contains("4 CPUs per node") && Catch::Contains("1 init thread"));
    // xeon-88-503g: 44 CPUs per node, 11 threads with the RFC: it acts, at the next boot.
    const auto xeon = config_of("xeon-88-503g", "v4.17");
    CHECK(reach(xeon, mm::patch::parallel_deferred_init, true).when == sim::switch_reach::next_boot);
    CHECK(reach(xeon, mm::patch::parallel_deferred_init, false).when == sim::switch_reach::next_boot);
}

TEST_CASE("seed 000's switch acts now, needs a reboot once init is over to be turned off, and means nothing from v5.14")
{
    auto c = config_of("classroom"); // v5.4: the fix is on
    REQUIRE(c.patches[mm::patch::pcp_update_after_deferred_init]);
    CHECK(reach(c, mm::patch::pcp_update_after_deferred_init, false).when == sim::switch_reach::now);
    const auto off_after_init = reach(c, mm::patch::pcp_update_after_deferred_init, true);
    CHECK(off_after_init.when == sim::switch_reach::next_boot);
    CHECK_THAT(off_after_init.why, Catch::Contains("reboot"));
    c.patches.set(mm::patch::pcp_update_after_deferred_init, false);
    CHECK(reach(c, mm::patch::pcp_update_after_deferred_init, true).when == sim::switch_reach::now); // recalculates
    const auto v67 = config_of("classroom", "v6.7");
    const auto never = reach(v67, mm::patch::pcp_update_after_deferred_init, true);
    CHECK(never.when == sim::switch_reach::never);
    CHECK_THAT(never.why, Catch::Contains("v5.14"));
}

TEST_CASE("auto-tuning cannot be turned on before v5.14, and the bulk-free switches act at once")
{
    const auto c = config_of("classroom");
    CHECK(reach(c, mm::patch::pcp_high_autotune, true).when == sim::switch_reach::never);
    CHECK(reach(c, mm::patch::bulk_free_pick_outside_lock, true).when == sim::switch_reach::now);
    CHECK(reach(c, mm::patch::batched_bulk_free, true).when == sim::switch_reach::now);
    const auto v67 = config_of("classroom", "v6.7");
    CHECK(reach(v67, mm::patch::pcp_high_autotune, true).when == sim::switch_reach::now);
}
