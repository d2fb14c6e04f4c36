#include "mm/pcp_limits.hpp"
#include "sim/machine_config.hpp"
#include "sim/pageset_summary.hpp"

#include <catch2/catch.hpp>

using namespace pcplab;

namespace
{

// One node, 2 CPUs, 6 GiB: DMA, DMA32 and 2 GiB of Normal, whose init is deferred after its first section.
mm::machine_spec spec_with(const std::string& era, std::map<std::string, bool> patches = {})
{
    mm::machine_spec s;
    s.name = "unit";
    s.era = era;
    s.patches = std::move(patches);
    mm::node_spec n;
    n.cpus = {0, 1};
    n.memory.push_back({256, mm::MAX_DMA32_PFN + (1U << 19)});
    s.nodes.push_back(n);
    return s;
}

sim::machine_config config_ok(const mm::machine_spec& s, const sim::machine_options& o = {})
{
    auto r = sim::make_machine_config(s, o);
    if (auto* e = std::get_if<pcplab::error>(&r)) FAIL("unexpected config error: " << e->str());
    return std::get<sim::machine_config>(r);
}

pcplab::error config_err(const mm::machine_spec& s, const sim::machine_options& o = {})
{
    auto r = sim::make_machine_config(s, o);
    REQUIRE(std::holds_alternative<pcplab::error>(r));
    return std::get<pcplab::error>(r);
}

sim::switch_setting setting(const char* text)
{
    return std::get<sim::switch_setting>(sim::parse_switch_setting(text));
}

constexpr auto fix000 = mm::patch::pcp_update_after_deferred_init;

} // namespace

TEST_CASE("switch settings parse as NAME=on|off and name what is wrong")
{
    auto s = setting("batched-bulk-free=on");
    CHECK(s.p == mm::patch::batched_bulk_free);
    CHECK(s.on);
    CHECK_FALSE(setting("pcp-high-autotune=off").on);

    auto unknown = sim::parse_switch_setting("foo=on");
    REQUIRE_FALSE(unknown.ok());
    CHECK_THAT(unknown.error().message, Catch::Contains("unknown switch 'foo'"));
    auto maybe = sim::parse_switch_setting("batched-bulk-free=maybe");
    REQUIRE_FALSE(maybe.ok());
    CHECK_THAT(maybe.error().message, Catch::Contains("maybe"));
    CHECK_FALSE(sim::parse_switch_setting("batched-bulk-free").ok());
}

TEST_CASE("the switch defaults follow the requested version, not the era it maps to")
{
    // 5.4.0-rc3 runs as era v5.4 but is the kernel before Mel Gorman's fix went in.
    auto rc3 = config_ok(spec_with("5.4.0-rc3"));
    CHECK(rc3.era.str() == "v5.4");
    CHECK(rc3.requested.rc == 3);
    CHECK_FALSE(rc3.era_note.empty());
    CHECK_FALSE(rc3.patches[fix000]);

    auto v54 = config_ok(spec_with("v5.4"));
    CHECK(v54.era_note.empty());
    CHECK(v54.patches[fix000]);
    CHECK(v54.origin[static_cast<unsigned>(fix000)] == sim::switch_origin::era_default);
}

TEST_CASE("an era given by the user replaces the preset's era and a mapped version carries a note")
{
    sim::machine_options o;
    o.era = "5.10";
    auto c = config_ok(spec_with("v6.7"), o);
    CHECK(c.era.str() == "v5.4");
    CHECK(c.requested.str() == "v5.10");
    CHECK_THAT(c.era_note, Catch::Contains("v5.10") && Catch::Contains("v5.4"));
    CHECK_FALSE(c.patches[mm::patch::pcp_high_autotune]);

    o.era = "five";
    auto e = config_err(spec_with("v6.7"), o);
    CHECK(e.source == "--era");
    CHECK_THAT(e.message, Catch::Contains("five"));
}

TEST_CASE("preset overrides apply after the era defaults and the command line after the preset")
{
    auto s = spec_with("v6.7", {{"batched-bulk-free", true}});
    auto c = config_ok(s);
    CHECK(c.patches[mm::patch::batched_bulk_free]);
    CHECK(c.origin[static_cast<unsigned>(mm::patch::batched_bulk_free)] == sim::switch_origin::preset);

    sim::machine_options o;
    o.switches = {setting("batched-bulk-free=off"), setting("pcp-high-autotune=off"), setting("pcp-high-autotune=on")};
    auto u = config_ok(s, o);
    CHECK_FALSE(u.patches[mm::patch::batched_bulk_free]);
    CHECK(u.origin[static_cast<unsigned>(mm::patch::batched_bulk_free)] == sim::switch_origin::user);
    CHECK(u.patches[mm::patch::pcp_high_autotune]); // the last setting wins
}

TEST_CASE("a switch set where it means nothing is refused, naming who set it")
{
    // From v5.14 the watermark setup recomputes every pageset: seed 000's switch has nothing to change.
    sim::machine_options o;
    o.switches = {setting("pcp-update-after-deferred-init=off")};
    auto e = config_err(spec_with("v6.7"), o);
    CHECK(e.source == "--patch pcp-update-after-deferred-init=off");
    CHECK_FALSE(e.message.empty());

    auto p = config_err(spec_with("v6.7", {{"pcp-update-after-deferred-init", true}}));
    CHECK(p.source == "preset unit");
    CHECK(p.message.find("pcp-update-after-deferred-init=on") != std::string::npos);

    o.switches = {setting("pcp-high-autotune=on")};
    CHECK(config_err(spec_with("v5.4"), o).source == "--patch pcp-high-autotune=on");

    CHECK(config_err(spec_with("v5.4", {{"no-such-switch", true}})).source == "preset unit");
    // The era default itself is never an error, even where the switch means nothing.
    CHECK(std::holds_alternative<sim::machine_config>(sim::make_machine_config(spec_with("v6.7"), {})));
}

TEST_CASE("a preset's setting that only the user's era makes meaningless is left out with a note")
{
    // epyc2-256 bundles pcp-update-after-deferred-init=off for 5.4.0-rc3; asked to run as v6.7 it still runs.
    auto s = spec_with("5.4.0-rc3", {{"pcp-update-after-deferred-init", false}, {"batched-bulk-free", true}});
    sim::machine_options o;
    o.era = "v6.7";
    auto c = config_ok(s, o);
    REQUIRE(c.notes.size() == 1);
    CHECK_THAT(c.notes.front(), Catch::Contains("pcp-update-after-deferred-init=off") && Catch::Contains("v6.7"));
    CHECK(c.origin[static_cast<unsigned>(fix000)] == sim::switch_origin::era_default);
    CHECK(c.patches[mm::patch::batched_bulk_free]); // applicable settings still apply

    o.era = "v5.4";
    auto v54 = config_ok(s, o);
    CHECK(v54.notes.empty());
    CHECK_FALSE(v54.patches[fix000]);
    CHECK(v54.origin[static_cast<unsigned>(fix000)] == sim::switch_origin::preset);
}

TEST_CASE("several init threads need parallel deferred init")
{
    sim::machine_options o;
    o.init_threads = 4;
    auto e = config_err(spec_with("v5.4"), o); // padata arrived in v5.8: off on v5.4
    CHECK(e.source == "--init-threads");
    CHECK_THAT(e.message, Catch::Contains("parallel-deferred-init"));

    o.init_threads = 1;
    CHECK(config_ok(spec_with("v5.4"), o).patches.init_threads == 1);

    o.init_threads = 4;
    o.switches = {setting("parallel-deferred-init=on")};
    CHECK(config_ok(spec_with("v5.4"), o).patches.init_threads == 4);

    o.init_threads = 0;
    CHECK(config_err(spec_with("v6.7"), o).source == "--init-threads");

    auto s = spec_with("v6.7");
    s.init_threads = 3;
    CHECK(config_ok(s).patches.init_threads == 3);
}

TEST_CASE("boot stages parse by name")
{
    CHECK(sim::parse_boot_target("setup") == sim::boot_target::setup);
    CHECK(sim::parse_boot_target("after-init") == sim::boot_target::after_init);
    CHECK_FALSE(sim::parse_boot_target("later"));
    CHECK(std::string(sim::boot_target_name(sim::boot_target::after_init)) == "after-init");
}

TEST_CASE("setup stops before deferred init, and after-init with or without an observer gives the same machine")
{
    sim::machine_options o;
    o.switches = {setting("pcp-update-after-deferred-init=off")};
    auto cfg = config_ok(spec_with("v5.4"), o);

    auto setup = sim::build_machine(cfg);
    CHECK_FALSE(sim::boot_to(*setup, sim::boot_target::setup));
    CHECK(setup->stage == mm::boot_stage::pagesets_setup);
    const mm::zone& normal = setup->nodes[0]->z(mm::ZONE_NORMAL);
    CHECK(normal.managed() < normal.present_pages / 4); // only the first section is initialised
    int setup_batch = normal.per_cpu_pageset[0].batch;
    CHECK(setup_batch == mm::zone_batchsize(setup->era, normal.managed()));

    auto plain = sim::build_machine(cfg);
    REQUIRE(sim::boot_to(*plain, sim::boot_target::after_init));
    CHECK(plain->stage == mm::boot_stage::booted);

    // Continue the setup machine to the end, watched: the same result as the plain boot.
    int calls = 0;
    sim::boot_observer obs;
    obs.interval = std::chrono::milliseconds(1);
    obs.on_progress = [&](const mm::machine&, const mm::deferred_init& di) {
        ++calls;
        CHECK(di.progress(0) <= di.total(0));
    };
    auto rep = sim::boot_to(*setup, sim::boot_target::after_init, &obs);
    REQUIRE(rep);
    CHECK(calls >= 1);
    CHECK(setup->stage == mm::boot_stage::booted);
    CHECK(sim::summarize_pagesets(*setup) == sim::summarize_pagesets(*plain));
    for (unsigned t = 0; t < mm::MAX_NR_ZONES; ++t) {
        const mm::zone& a = setup->nodes[0]->z(static_cast<mm::zone_type>(t));
        const mm::zone& b = plain->nodes[0]->z(static_cast<mm::zone_type>(t));
        CHECK(a.managed() == b.managed());
        CHECK(a.nr_free_pages == b.nr_free_pages);
        CHECK(a._watermark == b._watermark);
    }
    // Seed 000 switched off: the Normal zone keeps the limits it got at setup.
    CHECK(plain->nodes[0]->z(mm::ZONE_NORMAL).per_cpu_pageset[1].batch == setup_batch);

    o.switches = {setting("pcp-update-after-deferred-init=on")};
    auto fixed = sim::build_machine(config_ok(spec_with("v5.4"), o));
    sim::boot_to(*fixed, sim::boot_target::after_init);
    const mm::zone& fz = fixed->nodes[0]->z(mm::ZONE_NORMAL);
    CHECK(fz.per_cpu_pageset[1].batch == mm::zone_batchsize(fixed->era, fz.managed()));
    CHECK(fz.per_cpu_pageset[1].batch > setup_batch);
}
