#include "mm/machine.hpp"
#include "sim/pageset_summary.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace pcplab;

namespace
{

// One node with DMA, DMA32 and 1 GiB of Normal; `cpus` CPUs. Not booted: the tests set the limits.
mm::machine_spec small_spec(int cpus)
{
    mm::machine_spec s;
    s.name = "test";
    mm::node_spec n;
    for (int c = 0; c < cpus; ++c) n.cpus.push_back(c);
    n.memory.push_back({1, mm::MAX_DMA32_PFN + (1U << 18)});
    s.nodes.push_back(n);
    return s;
}

void set_zone(mm::machine& m, mm::zone_type t, int batch, int high, int high_min = 0, int high_max = 0)
{
    for (auto& pcp : m.nodes[0]->z(t).per_cpu_pageset) {
        pcp.batch = batch;
        pcp.high = high;
        pcp.high_min = high_min;
        pcp.high_max = high_max;
    }
}

} // namespace

TEST_CASE("the breakdown counts every possible CPU of every populated zone once")
{
    mm::machine m(
        small_spec(3), *mm::kernel_version::parse("v5.4"), mm::default_patches(*mm::kernel_version::parse("v5.4")));
    set_zone(m, mm::ZONE_DMA, 1, 0);
    set_zone(m, mm::ZONE_DMA32, 63, 378);
    set_zone(m, mm::ZONE_NORMAL, 7, 42);
    // Unpopulated zones (Movable, Device) still have pageset slots; they must not be counted.
    set_zone(m, mm::ZONE_MOVABLE, 99, 99);

    auto s = sim::summarize_pagesets(m);
    CHECK(s.pagesets == 9);
    CHECK(s.batch == std::map<int, int>{{1, 3}, {7, 3}, {63, 3}});
    CHECK(s.high == std::map<int, int>{{0, 3}, {42, 3}, {378, 3}});
    CHECK_FALSE(s.has_high_min_max);
    CHECK(s.high_min.empty());
}

TEST_CASE("the text reproduces Mel Gorman's seed-000 listing line for line")
{
    // His counts before the fix on the 2-socket EPYC 2 (shared/seeds/000, "Before, this was the breakdown").
    sim::pageset_summary s;
    s.batch = {{1, 256}, {63, 256}, {7, 512}};
    s.high = {{0, 256}, {378, 256}, {42, 512}};
    s.pagesets = 1024;
    const std::string mel = "    256               batch: 1\n"
                            "    256               batch: 63\n"
                            "    512               batch: 7\n"
                            "\n"
                            "    256               high:  0\n"
                            "    256               high:  378\n"
                            "    512               high:  42\n";
    CHECK(sim::pageset_summary_text(s) == mel);

    sim::pageset_summary after;
    after.batch = {{1, 256}, {63, 768}};
    after.high = {{0, 256}, {378, 768}};
    CHECK(sim::pageset_summary_text(after)
        == "    256               batch: 1\n"
           "    768               batch: 63\n"
           "\n"
           "    256               high:  0\n"
           "    768               high:  378\n");
}

TEST_CASE("the JSON form holds the same counts keyed by value")
{
    mm::machine m(
        small_spec(2), *mm::kernel_version::parse("v5.4"), mm::default_patches(*mm::kernel_version::parse("v5.4")));
    set_zone(m, mm::ZONE_DMA, 1, 0);
    set_zone(m, mm::ZONE_DMA32, 63, 378);
    set_zone(m, mm::ZONE_NORMAL, 63, 378);
    auto j = nlohmann::json::parse(sim::pageset_summary_json(sim::summarize_pagesets(m)));
    CHECK(j == nlohmann::json::parse(R"({"batch": {"1": 2, "63": 4}, "high": {"0": 2, "378": 4}})"));
    CHECK_FALSE(j.contains("high_min"));
}

TEST_CASE("with pcp-high-autotune the breakdown adds high_min and high_max")
{
    auto v67 = *mm::kernel_version::parse("v6.7");
    mm::patch_set ps = mm::default_patches(v67);
    REQUIRE(ps[mm::patch::pcp_high_autotune]);
    mm::machine m(small_spec(2), v67, ps);
    set_zone(m, mm::ZONE_DMA, 1, 0, 4, 4);
    set_zone(m, mm::ZONE_DMA32, 63, 0, 252, 3000);
    set_zone(m, mm::ZONE_NORMAL, 63, 300, 252, 1000);

    auto s = sim::summarize_pagesets(m);
    REQUIRE(s.has_high_min_max);
    CHECK(s.high_min == std::map<int, int>{{4, 2}, {252, 4}});
    CHECK(s.high_max == std::map<int, int>{{4, 2}, {1000, 2}, {3000, 2}});

    auto j = nlohmann::json::parse(sim::pageset_summary_json(s));
    CHECK(j["high"] == nlohmann::json::parse(R"({"0": 4, "300": 2})"));
    CHECK(j["high_max"]["3000"] == 2);

    std::string text = sim::pageset_summary_text(s);
    CHECK(text.find("      4               high_min: 252\n") != std::string::npos);
    CHECK(
        text.find("      2               high_max: 1000\n      2               high_max: 3000\n") != std::string::npos);

    // The same limits with the switch off: no high_min/high_max (v6.6 behaviour).
    ps.set(mm::patch::pcp_high_autotune, false);
    mm::machine off(small_spec(2), v67, ps);
    CHECK_FALSE(sim::summarize_pagesets(off).has_high_min_max);
}
