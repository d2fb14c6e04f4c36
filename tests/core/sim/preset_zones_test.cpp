// Presets given by zones (what preset-from-zoneinfo writes): the zones come out with the sizes asked for, the
// page and section sizes reach the machine, and bad zone lists are refused with the field at fault.
#include "mm/boot.hpp"
#include "mm/machine.hpp"
#include "sim/preset.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <variant>

using namespace pcplab;

namespace
{

mm::machine_spec ok(const sim::preset_result& r)
{
    if (auto* e = std::get_if<pcplab::error>(&r)) FAIL(e->str());
    return std::get<mm::machine_spec>(r);
}

std::string err(const sim::preset_result& r)
{
    REQUIRE(std::holds_alternative<pcplab::error>(r));
    return std::get<pcplab::error>(r).str();
}

std::string preset(const std::string& era, const std::string& nodes, const std::string& top = "")
{
    return R"({"description": "zones", "era": ")" + era + R"(", "sockets": 1, )" + top + R"("nodes": [)" + nodes + "]}";
}

} // namespace

TEST_CASE("a preset given by zones boots to exactly those zone sizes")
{
    auto spec = ok(sim::parse_preset(preset("v6.6",
                                         R"({"cpus": 2, "zones": [)"
                                         R"({"zone": "Normal", "present_pages": 300000, "managed_pages": 290000},)"
                                         R"({"zone": "DMA", "present_pages": 3998, "managed_pages": 3840}]})"),
        "z.json"));
    REQUIRE(spec.nodes.size() == 1);
    REQUIRE(spec.nodes[0].zones.size() == 2);
    CHECK(spec.nodes[0].zones[0].type == mm::ZONE_DMA); // laid out in zone order
    CHECK(spec.nodes[0].zones[0].range.start == 0);
    CHECK(spec.nodes[0].zones[1].range.start == 3998);
    mm::machine m(spec, *mm::kernel_version::parse("v6.6"), mm::default_patches(*mm::kernel_version::parse("v6.6")));
    mm::boot(m);
    const auto& dma = m.nodes[0]->z(mm::ZONE_DMA);
    const auto& normal = m.nodes[0]->z(mm::ZONE_NORMAL);
    CHECK(dma.present_pages == 3998);
    CHECK(dma.managed() == 3840);
    CHECK(normal.present_pages == 300000);
    CHECK(normal.managed() == 290000);
    CHECK_FALSE(m.nodes[0]->z(mm::ZONE_DMA32).populated());
}

TEST_CASE("page size and section size reach the machine and its formulas")
{
    const std::string node
        = R"({"cpus": 1, "zones": [{"zone": "DMA", "present_pages": 65536, "managed_pages": 65218}]})";
    auto spec = ok(sim::parse_preset(preset("v4.17", node, R"("page_size_kib": 64, "section_mib": 256, )"), "z.json"));
    CHECK(spec.page_shift == 16);
    CHECK(spec.pages_per_section == 4096);
    mm::machine m(spec, *mm::kernel_version::parse("v4.17"), mm::default_patches(*mm::kernel_version::parse("v4.17")));
    mm::boot(m);
    // v4.17 sizes the node's highest zone from what deferred init left initialised early (seed 000): one
    // 256 MiB section = 4096 pages of 64 KiB. 4096 >> 10 = 4, under the 512 KiB / 64 KiB = 8 cap; 4 / 4 = 1
    // -> 2^0 - 1 = 0: batch 1 (at least 1), high 6 x 0 = 0. With 4 KiB pages the section (65536 pages) holds
    // the whole zone and the limits would be 15/90; with 64 KiB pages and no early section, 1/6.
    const auto& pcp = m.nodes[0]->z(mm::ZONE_DMA).per_cpu_pageset[0];
    CHECK(pcp.batch == 1);
    CHECK(pcp.high == 0);
}

TEST_CASE("a 16 KiB page machine boots to the kernel's batch, high and watermarks worked by hand")
{
    // An arm64 machine with CONFIG_ARM64_16K_PAGES (the layout of an 8 GiB Apple M1 under Asahi: 8 CPUs,
    // 4 GiB of DMA and 4 GiB of Normal in 16 KiB pages), v6.18 with pcp-high-autotune.
    auto spec = ok(sim::parse_preset(
        preset("v6.18",
            R"({"cpus": 8, "zones": [{"zone": "DMA", "present_pages": 262144, "managed_pages": 258000},
                                     {"zone": "Normal", "present_pages": 262144, "managed_pages": 259000}]})",
            R"("page_size_kib": 16, )"),
        "m1.json"));
    CHECK(spec.page_shift == 14);
    mm::machine m(spec, *mm::kernel_version::parse("v6.18"), mm::default_patches(*mm::kernel_version::parse("v6.18")));
    mm::boot(m);
    // calculate_min_free_kbytes: lowmem 517000 pages x 16 KiB = 8272000 kB; int_sqrt(8272000 * 16) = 11504.
    CHECK(m.min_free_kbytes == 11504);
    // __setup_per_zone_wmarks: pages_min = 11504 >> (14 - 10) = 719, shared by managed pages: DMA
    // 719 * 258000 / 517000 = 358; low and high add max(358 / 4, 258000 * 10 / 10000) = 258 once and twice.
    const auto& dma = m.nodes[0]->z(mm::ZONE_DMA);
    CHECK(dma.min_wmark_pages() == 358);
    CHECK(dma.low_wmark_pages() == 616);
    CHECK(dma.high_wmark_pages() == 874);
    const auto& normal = m.nodes[0]->z(mm::ZONE_NORMAL);
    CHECK(normal.min_wmark_pages() == 360); // 719 * 259000 / 517000
    CHECK(normal.low_wmark_pages() == 619);
    // zone_batchsize: min(258000 >> 10, 1 MiB / 16 KiB = 64) / 4 = 16 -> 15; zone_highsize: low / 8 CPUs
    // and managed / 8 / 8 CPUs; calculate_normal_threshold: 2 * fls(8) * (1 + fls(258000 >> 13)) = 48.
    for (const auto* z : {&dma, &normal}) {
        const auto& pcp = z->per_cpu_pageset[7];
        CHECK(pcp.batch == 15);
        CHECK(pcp.high_min == 77);
        CHECK(pcp.stat_threshold == 48);
    }
    CHECK(dma.per_cpu_pageset[0].high_max == 4031);
    CHECK(normal.per_cpu_pageset[0].high_max == 4046); // 259000 / 8 / 8
}

TEST_CASE("a HighMem zone sits in the Movable slot and is highmem to the watermarks")
{
    auto spec = ok(sim::parse_preset(
        preset("v4.17",
            R"({"cpus": 4, "zones": [{"zone": "DMA", "present_pages": 114688, "managed_pages": 105724},
                                                                  {"zone": "HighMem", "present_pages": 381696, "managed_pages": 381696}]})"),
        "arm.json"));
    mm::machine m(spec, *mm::kernel_version::parse("v4.17"), mm::default_patches(*mm::kernel_version::parse("v4.17")));
    mm::boot(m);
    const auto& high = m.nodes[0]->z(mm::ZONE_MOVABLE);
    CHECK(high.highmem);
    CHECK(std::string(high.name()) == "HighMem");
    CHECK(high.min_wmark_pages() == 128); // clamp(381696 / 1024, 32, 128)
}

TEST_CASE("bad zone lists are refused with the field at fault")
{
    const std::string dma = R"({"zone": "DMA", "present_pages": 4000, "managed_pages": 3900})";
    CHECK(err(sim::parse_preset(preset("v5.4", R"({"cpus": 1, "zones": [)" + dma + ", " + dma + "]}"), "p.json"))
        == "p.json: nodes[0].zones[1].zone: zone DMA is listed twice");
    CHECK(
        err(sim::parse_preset(
                preset("v5.4", R"({"cpus": 1, "zones": [{"zone": "Device", "present_pages": 1, "managed_pages": 1}]})"),
                "p.json"))
            .find("'Device' is not a zone")
        != std::string::npos);
    CHECK(
        err(sim::parse_preset(
                preset("v5.4", R"({"cpus": 1, "zones": [{"zone": "DMA", "present_pages": 10, "managed_pages": 11}]})"),
                "p.json"))
            .find("nodes[0].zones[0].managed_pages: must be an integer from 0 to 10")
        != std::string::npos);
    CHECK(err(sim::parse_preset(preset("v5.4", R"({"cpus": 1, "memory_gib": 4, "zones": [)" + dma + "]}"), "p.json"))
              .find("nodes[0].memory_gib: cannot be given with \"zones\"")
        != std::string::npos);
    CHECK(err(sim::parse_preset(
                  preset("v5.4", R"({"cpus": 1, "zones": [{"zone": "HighMem", "present_pages": 9, "managed_pages": 9},
                                                  {"zone": "Movable", "present_pages": 9, "managed_pages": 9}]})"),
                  "p.json"))
              .find("HighMem and Movable together")
        != std::string::npos);
    CHECK(
        err(sim::parse_preset(preset("v5.4", R"({"cpus": 1, "memory_gib": 4})", R"("page_size_kib": 64, )"), "p.json"))
            .find("page_size_kib: needs nodes given by \"zones\"")
        != std::string::npos);
    CHECK(err(sim::parse_preset(
                  preset("v5.4", R"({"cpus": 1, "zones": [)" + dma + "]}", R"("page_size_kib": 8, )"), "p.json"))
              .find("page_size_kib: must be 4, 16 or 64, not 8")
        != std::string::npos);
    CHECK(err(sim::parse_preset(
                  preset("v5.4", R"({"cpus": 1, "zones": [)" + dma + "]}", R"("section_mib": 100, )"), "p.json"))
              .find("section_mib: must be a power of two")
        != std::string::npos);
    CHECK(err(sim::parse_preset(
                  preset("v5.4", R"({"cpus": 1, "zones": [)" + dma + R"(]}, {"cpus": 1, "memory_gib": 1})"), "p.json"))
              .find("nodes[1]: has no \"zones\" while nodes[0] has")
        != std::string::npos);
}
