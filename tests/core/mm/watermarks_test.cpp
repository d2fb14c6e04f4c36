#include "mm/kernel_era.hpp"
#include "mm/machine.hpp"
#include "mm/pcp_limits.hpp"
#include "mm/watermarks.hpp"

#include <catch2/catch.hpp>

#include <array>
#include <memory>

using namespace pcplab::mm;

namespace
{

kernel_era era_of(const char* v)
{
    return kernel_era{*kernel_version::parse(v)};
}

std::unique_ptr<machine> make_machine(const machine_spec& spec, const char* version)
{
    auto v = *kernel_version::parse(version);
    return std::make_unique<machine>(spec, v, default_patches(v));
}

// Shaped like the 6.18 KVM capture: one node, two CPUs, DMA 3840 / DMA32 772915 / Normal 294912 managed.
std::unique_ptr<machine> kvm_machine(const char* version)
{
    machine_spec s;
    node_spec n;
    n.cpus = {0, 1};
    n.memory = {{1, 4096}, {4096, 786432}, {1048576, 1048576 + 5505024}};
    s.nodes.push_back(n);
    auto m = make_machine(s, version);
    m->nodes[0]->z(ZONE_DMA).managed_pages = 3840;
    m->nodes[0]->z(ZONE_DMA32).managed_pages = 772915;
    m->nodes[0]->z(ZONE_NORMAL).managed_pages = 294912;
    return m;
}

std::array<unsigned long, NR_WMARK> wmarks(const machine& m, zone_type t)
{
    return m.nodes[0]->z(t)._watermark;
}

} // namespace

TEST_CASE("int_sqrt is the floor of the square root")
{
    CHECK(int_sqrt(0) == 0);
    CHECK(int_sqrt(1) == 1);
    CHECK(int_sqrt(15) == 3);
    CHECK(int_sqrt(16) == 4);
    CHECK(int_sqrt(68586688) == 8281);
    for (unsigned long x : {2UL, 99UL, 1000001UL, (1UL << 40) + 12345, ~0UL}) {
        unsigned __int128 y = int_sqrt(x);
        CHECK(y * y <= x);
        CHECK((y + 1) * (y + 1) > x);
    }
}

TEST_CASE("min_free_kbytes defaults to 4 * sqrt(lowmem_kbytes), clamped to the era's bounds")
{
    auto v54 = era_of("v5.4"), v66 = era_of("v6.6");
    CHECK(calculate_min_free_kbytes(v66, 16UL << 10) == 512); // 16 MiB
    CHECK(calculate_min_free_kbytes(v66, 1024UL << 10) == 4096); // 1 GiB
    CHECK(calculate_min_free_kbytes(v66, 16UL << 20) == 16384); // 16 GiB
    CHECK(calculate_min_free_kbytes(v66, 1000) == 128); // floor
    // 8 TiB of lowmem: the bound was 64 MiB before v5.7 and 256 MiB after.
    CHECK(calculate_min_free_kbytes(v54, 8UL << 30) == 65536);
    CHECK(calculate_min_free_kbytes(v66, 8UL << 30) == 262144);
    CHECK(calculate_min_free_kbytes(era_of("v5.7"), 1UL << 30) == 131072);
}

TEST_CASE("nr_free_buffer_pages counts what lies above the high watermark in DMA, DMA32 and Normal")
{
    auto m = kvm_machine("v6.18");
    CHECK(nr_free_buffer_pages(*m) == 3840 + 772915 + 294912);
    m->nodes[0]->z(ZONE_DMA32)._watermark[WMARK_HIGH] = 18277;
    m->nodes[0]->z(ZONE_DMA).watermark_boost = 5000; // boost counts, and a zone below its mark adds nothing
    CHECK(nr_free_buffer_pages(*m) == 772915 - 18277 + 294912);
}

TEST_CASE("init_per_zone_wmark_min uses the default formula unless the user chose more")
{
    auto m = kvm_machine("v6.6");
    init_per_zone_wmark_min(*m);
    CHECK(m->min_free_kbytes == 8281); // int_sqrt(1071667 pages * 4 KiB * 16)
    CHECK(wmarks(*m, ZONE_DMA32)[WMARK_MIN] == 1492); // (8281 >> 2) * 772915 / 1071667

    CHECK(set_min_free_kbytes(*m, 100000).ok());
    CHECK(m->user_min_free_kbytes == 100000);
    init_per_zone_wmark_min(*m); // e.g. after memory hotplug: the user's larger value stays
    CHECK(m->min_free_kbytes == 100000);

    auto p = kvm_machine("v6.6");
    p->sysctl.min_free_kbytes = 67584; // a preset's vm.min_free_kbytes
    init_per_zone_wmark_min(*p);
    CHECK(p->min_free_kbytes == 67584);
    CHECK(wmarks(*p, ZONE_DMA32)[WMARK_MIN] == 12185);
}

TEST_CASE("watermarks of the 6.18 capture's machine with the THP min_free_kbytes")
{
    auto m = kvm_machine("v6.18");
    m->min_free_kbytes = 67584;
    setup_per_zone_wmarks(*m);
    CHECK(wmarks(*m, ZONE_DMA) == std::array<unsigned long, NR_WMARK>{60, 75, 90, 105});
    CHECK(wmarks(*m, ZONE_DMA32) == std::array<unsigned long, NR_WMARK>{12185, 15231, 18277, 21323});
    CHECK(wmarks(*m, ZONE_NORMAL) == std::array<unsigned long, NR_WMARK>{4649, 5811, 6973, 8135});
    // Unpopulated zones get watermarks too; ZONE_MOVABLE gets the highmem minimum (v6.x), Device 0.
    CHECK(wmarks(*m, ZONE_MOVABLE) == std::array<unsigned long, NR_WMARK>{32, 32, 32, 32});
    CHECK(wmarks(*m, ZONE_DEVICE) == std::array<unsigned long, NR_WMARK>{0, 0, 0, 0});

    // v5.4 writes HIGH = MIN + 2 * gap (same values) and has no promo watermark; Movable is plain lowmem.
    auto old = kvm_machine("v5.4");
    old->min_free_kbytes = 67584;
    setup_per_zone_wmarks(*old);
    CHECK(wmarks(*old, ZONE_DMA32) == std::array<unsigned long, NR_WMARK>{12185, 15231, 18277, 0});
    CHECK(wmarks(*old, ZONE_MOVABLE)[WMARK_MIN] == 0);
}

TEST_CASE("ZONE_MOVABLE is left out of the lowmem share from v6.x and gets the small highmem minimum")
{
    machine_spec s;
    node_spec n;
    n.cpus = {0};
    n.memory = {{4096, 1048576 + 262144}};
    s.nodes.push_back(n);
    s.movable_pages_per_node = 131072;
    auto set = [](machine& m) {
        m.nodes[0]->z(ZONE_DMA32).managed_pages = 800000;
        m.nodes[0]->z(ZONE_NORMAL).managed_pages = 131072;
        m.nodes[0]->z(ZONE_MOVABLE).managed_pages = 131072;
        m.min_free_kbytes = 16384; // 4096 pages
    };
    auto m66 = make_machine(s, "v6.6");
    REQUIRE(m66->nodes[0]->z(ZONE_MOVABLE).populated());
    set(*m66);
    setup_per_zone_wmarks(*m66);
    CHECK(wmarks(*m66, ZONE_DMA32)[WMARK_MIN] == 3519); // 4096 * 800000 / (800000 + 131072)
    CHECK(wmarks(*m66, ZONE_DMA32)[WMARK_LOW] == 4398);
    CHECK(wmarks(*m66, ZONE_NORMAL)[WMARK_MIN] == 576);
    CHECK(wmarks(*m66, ZONE_MOVABLE)[WMARK_MIN] == 128); // clamp(131072 / 1024, 32, 128)
    CHECK(wmarks(*m66, ZONE_MOVABLE)[WMARK_LOW] == 272); // gap from its proportional share 576 / 4

    auto m54 = make_machine(s, "v5.4");
    set(*m54);
    setup_per_zone_wmarks(*m54);
    CHECK(wmarks(*m54, ZONE_DMA32)[WMARK_MIN] == 3085); // 4096 * 800000 / 1062144
    CHECK(wmarks(*m54, ZONE_MOVABLE)[WMARK_MIN] == 505);
    CHECK(wmarks(*m54, ZONE_MOVABLE)[WMARK_HIGH] == 767);
}

TEST_CASE("from v5.14 a watermark change recomputes the pcp limits, v5.4 leaves them alone")
{
    auto m = kvm_machine("v6.6");
    setup_per_cpu_pageset(*m);
    m->min_free_kbytes = 67584;
    setup_per_zone_wmarks(*m);
    const zone& dma32 = m->nodes[0]->z(ZONE_DMA32);
    CHECK(dma32.per_cpu_pageset[0].high == 7615);

    CHECK(set_watermark_scale_factor(*m, 100).ok());
    CHECK(dma32._watermark[WMARK_LOW] == 12185 + 7729); // gap now 1% of the zone
    CHECK(dma32.per_cpu_pageset[1].high == (12185 + 7729) / 2);

    auto old = kvm_machine("v5.4");
    setup_per_cpu_pageset(*old);
    std::vector<limits_change> seen;
    old->on_limits_change = [&](const limits_change& c) { seen.push_back(c); };
    CHECK(set_min_free_kbytes(*old, 67584).ok());
    CHECK(old->nodes[0]->z(ZONE_DMA32)._watermark[WMARK_MIN] == 12185);
    CHECK(old->nodes[0]->z(ZONE_DMA32).per_cpu_pageset[0].high == 378);
    CHECK(seen.empty());
}

TEST_CASE("the watermark sysctls refuse values outside their ranges")
{
    auto m54 = kvm_machine("v5.4");
    CHECK_FALSE(set_min_free_kbytes(*m54, -1).ok());
    CHECK_FALSE(set_watermark_scale_factor(*m54, 0).ok());
    CHECK_FALSE(set_watermark_scale_factor(*m54, 1001).ok());
    CHECK(m54->sysctl.watermark_scale_factor == 10);
    CHECK(set_watermark_scale_factor(*m54, 1000).ok());

    auto m66 = kvm_machine("v6.6");
    CHECK(set_watermark_scale_factor(*m66, 3000).ok());
    CHECK_FALSE(set_watermark_scale_factor(*m66, 3001).ok());
    CHECK(m66->sysctl.watermark_scale_factor == 3000);
}

TEST_CASE("lowmem reserves: managed above / ratio, with the era's treatment of empty zones")
{
    SECTION("the capture's protection lines")
    {
        auto m = kvm_machine("v6.18");
        setup_per_zone_lowmem_reserve(*m);
        CHECK(m->nodes[0]->z(ZONE_DMA).lowmem_reserve == std::array<long, MAX_NR_ZONES>{0, 3019, 4171, 4171, 4171});
        CHECK(m->nodes[0]->z(ZONE_DMA32).lowmem_reserve == std::array<long, MAX_NR_ZONES>{0, 0, 1152, 1152, 1152});
        CHECK(m->nodes[0]->z(ZONE_NORMAL).lowmem_reserve == std::array<long, MAX_NR_ZONES>{0, 0, 0, 0, 0});
        // v6.10 .. v6.13 showed no protection towards empty upper zones.
        auto m613 = kvm_machine("v6.13");
        setup_per_zone_lowmem_reserve(*m613);
        CHECK(m613->nodes[0]->z(ZONE_DMA).lowmem_reserve == std::array<long, MAX_NR_ZONES>{0, 3019, 4171, 0, 0});
    }
    SECTION("an empty lower zone reserves something only in the old walk-down form (v5.4)")
    {
        machine_spec s;
        node_spec n0, n1;
        n0.cpus = {0};
        n0.memory = {{1, 4096}, {4096, 1048576}};
        n1.cpus = {1};
        n1.memory = {{1048576, 1048576 + 262144}};
        s.nodes = {n0, n1};
        auto run = [&](const char* v) {
            auto m = make_machine(s, v);
            m->nodes[1]->z(ZONE_NORMAL).managed_pages = 262144;
            setup_per_zone_lowmem_reserve(*m);
            return m->nodes[1]->z(ZONE_DMA).lowmem_reserve[ZONE_NORMAL];
        };
        CHECK(run("v5.4") == 1024); // 262144 / 256, although node 1 has no DMA memory
        CHECK(run("v6.6") == 0);
    }
}
