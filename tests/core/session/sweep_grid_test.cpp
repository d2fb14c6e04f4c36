#include "session/sweep_grid.hpp"

#include <catch2/catch.hpp>

#include <set>

using namespace pcplab;

namespace
{

session::sweep_grid small_grid()
{
    session::sweep_grid g;
    g.presets = {"classroom", "skylake-4s"};
    g.eras = {"v5.4"};
    g.switches = {{"pcp-update-after-deferred-init", {false, true}}};
    g.sysctls = {{"vm.watermark_scale_factor", {10, 100, 1000}}};
    g.seeds = {1, 2};
    g.common_args = {"--workload", "boot", "--duration", "1ms"};
    return g;
}

} // namespace

TEST_CASE("a sweep grid is the product of its axes, seeds innermost, the last axis turning fastest")
{
    const auto g = small_grid();
    CHECK(g.configurations() == 2 * 1 * 2 * 3);
    CHECK(g.points() == 24);
    const auto pts = session::expand(g);
    REQUIRE(pts.size() == 24);
    CHECK(pts[0].id == "p0000");
    CHECK(pts[23].id == "p0023");
    CHECK(pts[0].label(g, true)
        == "classroom v5.4 pcp-update-after-deferred-init=off vm.watermark_scale_factor=10 seed 1");
    CHECK(pts[1].label(g, true)
        == "classroom v5.4 pcp-update-after-deferred-init=off vm.watermark_scale_factor=10 seed 2");
    CHECK(pts[2].label(g) == "classroom pcp-update-after-deferred-init=off vm.watermark_scale_factor=100");
    CHECK(pts[6].label(g) == "classroom pcp-update-after-deferred-init=on vm.watermark_scale_factor=10");
    CHECK(pts[12].preset == "skylake-4s");
    std::set<std::string> labels;
    for (const auto& p : pts) {
        CHECK(p.configuration == p.index / 2);
        labels.insert(p.label(g, true));
    }
    CHECK(labels.size() == 24); // every point differs from every other
}

TEST_CASE("a point's run arguments name every axis value and the common ones")
{
    const auto g = small_grid();
    const auto p = session::expand(g)[7];
    const std::vector<std::string> want = {"run", "--preset", "classroom", "--era", "v5.4", "--patch",
        "pcp-update-after-deferred-init=on", "--sysctl", "vm.watermark_scale_factor=10", "--seed", "2", "--workload",
        "boot", "--duration", "1ms", "--json", "--record", "x.db"};
    CHECK(session::run_args(g, p, "x.db") == want);
}

TEST_CASE("the shards of a sweep take every point exactly once")
{
    const auto g = small_grid();
    const auto pts = session::expand(g);
    for (std::size_t n : {1u, 2u, 5u, 24u, 30u}) {
        std::vector<int> taken(pts.size(), 0);
        for (std::size_t i = 0; i < n; ++i)
            for (const auto& p : pts)
                if (session::sweep_shard{i, n}.takes(p)) ++taken[p.index];
        for (int t : taken) CHECK(t == 1);
    }
    CHECK(session::parse_shard("3/16")->str() == "3/16");
    CHECK_FALSE(session::parse_shard("16/16"));
    CHECK_FALSE(session::parse_shard("1/0"));
    CHECK_FALSE(session::parse_shard("-1/4"));
    CHECK_FALSE(session::parse_shard("1/4x"));
    CHECK_FALSE(session::parse_shard("1"));
}

TEST_CASE("a sweep manifest reads back as the same grid, and a foreign one is refused")
{
    const auto g = small_grid();
    const auto text = session::manifest_json(g);
    const auto back = session::parse_manifest(text);
    CHECK(session::manifest_json(back) == text);
    CHECK_THROWS_WITH(session::parse_manifest(R"({"format": "other"})"), "not a pcplab sweep manifest");
    CHECK_THROWS_WITH(session::parse_manifest(R"({"format": "pcplab-sweep", "version": 7})"),
        "sweep manifest version 7 is not one this pcplab reads (1)");
    CHECK_THROWS_AS(session::parse_manifest("{"), std::invalid_argument);
}
