// Seed 000 (Mel Gorman, 2019): the batch/high table of all 1024 pagesets of the 2-socket EPYC 2, exact.
#include "mm/boot.hpp"
#include "mm/verify.hpp"
#include "sim/preset.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <utility>

using namespace pcplab;
using namespace pcplab::mm;

namespace
{
using table = std::map<std::pair<int, int>, int>; // (batch, high) -> pagesets

table boot_epyc(bool fix)
{
    auto res = sim::load_preset("epyc2-256");
    REQUIRE(std::holds_alternative<machine_spec>(res));
    const machine_spec& spec = std::get<machine_spec>(res);
    kernel_version era{5, 4, 0, 0};
    patch_set ps = default_patches(era);
    ps.set(patch::pcp_update_after_deferred_init, fix);
    machine m(spec, era, ps);
    boot(m);
    table t;
    m.for_each_populated_zone([&](zone& z) {
        for (const auto& pcp : z.per_cpu_pageset) ++t[{pcp.batch, pcp.high}];
    });
    verify_result v = verify(m);
    INFO((v.errors.empty() ? std::string() : v.errors.front()));
    CHECK(v.ok());
    return t;
}
} // namespace

TEST_CASE("seed 000: without the fix the Normal zones keep batch 7 / high 42 from their first section")
{
    table t = boot_epyc(false);
    CHECK(t == table{{{1, 0}, 256}, {{63, 378}, 256}, {{7, 42}, 512}});
}

TEST_CASE("seed 000: zone_pcp_update after deferred init gives every large zone batch 63 / high 378")
{
    table t = boot_epyc(true);
    CHECK(t == table{{{1, 0}, 256}, {{63, 378}, 768}});
}
