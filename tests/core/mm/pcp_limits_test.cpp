#include "mm/kernel_era.hpp"
#include "mm/machine.hpp"
#include "mm/pcp_limits.hpp"
#include "mm/vmstat.hpp"
#include "mm/watermarks.hpp"

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace pcplab::mm;

namespace
{

kernel_era era_of(const char* v)
{
    return kernel_era{*kernel_version::parse(v)};
}

// The shape of the real capture linux-6.18-kvm-1node-2cpu.txt: one node, CPUs 0 and 1, DMA from pfn 1,
// DMA32 with a hole below 4 GiB, a Normal zone above it.
machine_spec kvm_spec()
{
    machine_spec s;
    s.name = "kvm-1node-2cpu";
    node_spec n;
    n.cpus = {0, 1};
    n.memory = {{1, 4096}, {4096, 786432}, {1048576, 1048576 + 5505024}};
    s.nodes.push_back(n);
    return s;
}

std::unique_ptr<machine> make_machine(const machine_spec& spec, const char* version)
{
    auto v = *kernel_version::parse(version);
    return std::make_unique<machine>(spec, v, default_patches(v));
}

// The managed pages of the capture's zones (formulas are tested without booting).
void set_kvm_managed(machine& m)
{
    m.nodes[0]->z(ZONE_DMA).managed_pages = 3840;
    m.nodes[0]->z(ZONE_DMA32).managed_pages = 772915;
    m.nodes[0]->z(ZONE_NORMAL).managed_pages = 294912;
}

zone_limit_inputs inputs(unsigned long managed, unsigned long low, int cpus)
{
    zone_limit_inputs in;
    in.managed_pages = managed;
    in.low_wmark = low;
    in.nr_split_cpus = cpus;
    return in;
}

// What the capture says about one zone (only the fields these tests compare).
struct captured_zone {
    std::string name;
    long min = 0, low = 0, high = 0, promo = -1, managed = 0;
    std::vector<long> protection;
    std::vector<long> batch, high_min, high_max, threshold; // one per listed CPU
};

long last_number(const std::string& line)
{
    return std::stol(line.substr(line.find_last_of(" \t") + 1));
}

std::vector<captured_zone> read_capture(const std::string& path)
{
    std::ifstream in(path);
    REQUIRE(in.good());
    std::vector<captured_zone> zones;
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream ls(line);
        std::string key;
        ls >> key;
        if (key == "Node") {
            zones.emplace_back();
            zones.back().name = line.substr(line.find_last_of(' ') + 1);
        } else if (zones.empty()) {
            continue;
        } else if (key == "min" || key == "low" || key == "high" || key == "promo" || key == "managed") {
            long v = last_number(line);
            auto& z = zones.back();
            (key == "min"            ? z.min
                    : key == "low"   ? z.low
                    : key == "high"  ? z.high
                    : key == "promo" ? z.promo
                                     : z.managed)
                = v;
        } else if (key == "protection:") {
            std::string list = line.substr(line.find('(') + 1);
            std::istringstream ps(list);
            long v;
            char sep;
            while (ps >> v) {
                zones.back().protection.push_back(v);
                ps >> sep;
            }
        } else if (key == "batch:") {
            zones.back().batch.push_back(last_number(line));
        } else if (key == "high_min:") {
            zones.back().high_min.push_back(last_number(line));
        } else if (key == "high_max:") {
            zones.back().high_max.push_back(last_number(line));
        } else if (key == "vm") {
            zones.back().threshold.push_back(last_number(line));
        }
    }
    return zones;
}

zone_type zone_by_name(const std::string& n)
{
    for (unsigned t = 0; t < MAX_NR_ZONES; ++t)
        if (n == zone_name(t)) return static_cast<zone_type>(t);
    FAIL("unknown zone " << n);
    return ZONE_DMA;
}

} // namespace

TEST_CASE("zone_batchsize follows the worked examples of each era")
{
    auto v66 = era_of("v6.6");
    CHECK(zone_batchsize(v66, 3977) == 0); // x86 DMA: b = 3 / 4 = 0 -> 1 -> 2^0 - 1
    CHECK(zone_batchsize(v66, 32768) == 7);
    CHECK(zone_batchsize(v66, 262144) == 63);
    CHECK(zone_batchsize(v66, 64UL << 20) == 63); // capped at 1 MiB of pages
    // The 2^n - 1 steps: b after /4 of 42 still gives 31, 43 reaches 63.
    CHECK(zone_batchsize(v66, 42UL * 4 * 1024) == 31);
    CHECK(zone_batchsize(v66, 43UL * 4 * 1024) == 63);

    // Before v4.19 the cap was 512 KiB: 128 pages / 4 = 32 -> 31.
    CHECK(zone_batchsize(era_of("v4.17"), 262144) == 31);
    CHECK(zone_batchsize(era_of("v4.17"), 64UL << 20) == 31);
    CHECK(zone_batchsize(era_of("v4.19"), 262144) == 63);
    CHECK(zone_batchsize(era_of("v4.17"), 32768) == 7);

    // v6.19 reports 1 instead of 0 for tiny zones and is otherwise unchanged.
    CHECK(zone_batchsize(era_of("v6.19"), 3977) == 1);
    CHECK(zone_batchsize(era_of("v6.19"), 32768) == 7);
}

TEST_CASE("with 16 KiB pages the byte caps hold a quarter of the pages: batch, fraction cap, vm stat threshold")
{
    // arm64 with CONFIG_ARM64_16K_PAGES (Apple M1 under Asahi, Android's 16 KiB kernels): PAGE_SHIFT 14.
    // zone_batchsize caps bytes (SZ_1M / PAGE_SIZE since v4.19): 64 pages of 16 KiB; 64 / 4 = 16 ->
    // rounddown_pow_of_two(24) - 1 = 15, where the same zone in 4 KiB pages gets 256 / 4 = 64 -> 63.
    auto v66 = era_of("v6.6");
    CHECK(zone_batchsize(v66, 1UL << 20, 14) == 15);
    CHECK(zone_batchsize(v66, 1UL << 20, 12) == 63);
    // Under the cap the page count decides, whatever the page size: 32768 >> 10 = 32 -> 8 -> 7.
    CHECK(zone_batchsize(v66, 32768, 14) == 7);
    CHECK(zone_batchsize(v66, 32768, 12) == 7);
    // v4.18 and before: 512 KiB = 32 pages -> 8 -> 7 (31 in 4 KiB pages).
    CHECK(zone_batchsize(era_of("v4.17"), 1UL << 20, 14) == 7);
    CHECK(zone_batchsize(era_of("v4.17"), 1UL << 20, 12) == 31);
    // Before v2.6.16: 256 KiB = 16 pages -> 4, rounded up: (1 << fls(6)) - 1 = 7 (31 in 4 KiB pages).
    CHECK(zone_batchsize(era_of("v2.6.15"), 1UL << 20, 14) == 7);
    CHECK(zone_batchsize(era_of("v2.6.15"), 1UL << 20, 12) == 31);

    // vm.percpu_pagelist_fraction (v5.4): batch a quarter of high, at most PAGE_SHIFT * 8 = 112 (96 at 4 KiB).
    sysctl_values frac;
    frac.percpu_pagelist_fraction = 8;
    auto in16 = inputs(1000000, 0, 4);
    in16.page_shift = 14;
    auto big = compute_pcp_limits(era_of("v5.4"), false, in16, frac);
    CHECK(big.high == 125000);
    CHECK(big.batch == 112);
    // v5.4 without the sysctl: high = 6 x batch, the batch in 16 KiB pages.
    auto six = compute_pcp_limits(era_of("v5.4"), false, in16, sysctl_values{});
    CHECK(six.batch == 15);
    CHECK(six.high == 90);

    // v6.7+: high_min and high_max count pages and do not see the page size; only the batch does (and
    // the 4 x batch floor). A 4 GiB zone of 16 KiB pages (258000 managed, low 616) on an 8-CPU node.
    auto dma = inputs(258000, 616, 8);
    dma.page_shift = 14;
    auto l = compute_pcp_limits(era_of("v6.18"), true, dma, sysctl_values{});
    CHECK(l.batch == 15);
    CHECK(l.high_min == 77); // 616 / 8
    CHECK(l.high_max == 4031); // 258000 / 8 / 8

    // calculate_normal_threshold: mem = managed >> (27 - PAGE_SHIFT), 128 MiB units whatever the page size:
    // 258000 >> 13 = 31 -> 2 * fls(8) * (1 + fls(31)) = 48; the same count of 4 KiB pages is 7 units -> 32.
    CHECK(calculate_normal_threshold(258000, 8, 14) == 48);
    CHECK(calculate_normal_threshold(258000, 8, 12) == 32);
}

TEST_CASE("v5.4 derives high as six times the raw batch")
{
    auto e = era_of("v5.4");
    sysctl_values sc;
    auto dma = compute_pcp_limits(e, false, inputs(3977, 0, 128), sc);
    CHECK(dma.batch == 1); // max(1, 0)
    CHECK(dma.high == 0); // 6 * 0: every free into DMA's pageset flushes at once
    auto early = compute_pcp_limits(e, false, inputs(32768, 0, 128), sc);
    CHECK(early.batch == 7);
    CHECK(early.high == 42);
    auto full = compute_pcp_limits(e, false, inputs(16UL << 20, 123456, 128), sc);
    CHECK(full.batch == 63);
    CHECK(full.high == 378);
    // Neither the watermark, the CPU count nor the autotune switch matters in this era.
    CHECK(compute_pcp_limits(e, true, inputs(16UL << 20, 0, 1), sc) == full);
}

TEST_CASE("v5.4 percpu_pagelist_fraction sets high to a fraction of the zone and batch to a quarter, at most 96")
{
    auto e = era_of("v5.4");
    sysctl_values sc;
    sc.percpu_pagelist_fraction = 8;
    auto big = compute_pcp_limits(e, false, inputs(1000000, 0, 4), sc);
    CHECK(big.high == 125000);
    CHECK(big.batch == 96); // PAGE_SHIFT * 8
    auto mid = compute_pcp_limits(e, false, inputs(2000, 0, 4), sc);
    CHECK(mid.high == 250);
    CHECK(mid.batch == 62);
    auto tiny = compute_pcp_limits(e, false, inputs(20, 0, 4), sc);
    CHECK(tiny.high == 2);
    CHECK(tiny.batch == 1);
}

TEST_CASE("v5.14 to v6.6 split the low watermark over the node's CPUs, at least 4 * batch")
{
    auto e = era_of("v6.6");
    sysctl_values sc;
    auto dma32 = compute_pcp_limits(e, false, inputs(772915, 15231, 2), sc);
    CHECK(dma32.batch == 63);
    CHECK(dma32.high == 7615);
    CHECK(dma32.high_min == 7615);
    CHECK(dma32.high_max == 7615);
    // Before the watermarks exist (setup_per_cpu_pageset) the floor of 4 * batch applies.
    CHECK(compute_pcp_limits(e, false, inputs(772915, 0, 2), sc).high == 252);
    // More CPUs on the node, smaller share each.
    CHECK(compute_pcp_limits(e, false, inputs(772915, 15231, 4), sc).high == 3807);
    // The high_fraction sysctl replaces the watermark by managed / fraction; the batch does not change.
    sc.percpu_pagelist_high_fraction = 10;
    auto frac = compute_pcp_limits(e, false, inputs(772915, 15231, 2), sc);
    CHECK(frac.high == 38645);
    CHECK(frac.batch == 63);
}

TEST_CASE("pcp-high-autotune gives high_min from the watermark and high_max from an eighth of the zone")
{
    auto e = era_of("v6.18");
    sysctl_values sc;
    // The three zones of the real 6.18 capture (2 CPUs on the node).
    auto dma = compute_pcp_limits(e, true, inputs(3840, 75, 2), sc);
    CHECK(dma.batch == 1);
    CHECK(dma.high_min == 37);
    CHECK(dma.high_max == 240);
    auto dma32 = compute_pcp_limits(e, true, inputs(772915, 15231, 2), sc);
    CHECK(dma32.batch == 63);
    CHECK(dma32.high_min == 7615);
    CHECK(dma32.high_max == 48307);
    auto normal = compute_pcp_limits(e, true, inputs(294912, 5811, 2), sc);
    CHECK(normal.batch == 63);
    CHECK(normal.high_min == 2905);
    CHECK(normal.high_max == 18432);
    // A manual high fraction turns the tuning off: high_min == high_max.
    sc.percpu_pagelist_high_fraction = 16;
    auto manual = compute_pcp_limits(e, true, inputs(772915, 15231, 2), sc);
    CHECK(manual.high_min == 24153);
    CHECK(manual.high_max == 24153);
    // Without the switch, a v6.7+ era behaves like v6.6.
    sc.percpu_pagelist_high_fraction = 0;
    auto off = compute_pcp_limits(e, false, inputs(772915, 15231, 2), sc);
    CHECK(off.high == 7615);
    CHECK(off.high_max == 7615);
}

TEST_CASE("nr_split_cpus counts the node's CPUs, or every CPU for a memory-only node")
{
    machine_spec s;
    node_spec n0, n1;
    n0.cpus = {0, 1, 2};
    n0.memory = {{1, 4096}, {4096, 65536}};
    n1.memory = {{1048576, 1048576 + 65536}}; // no CPUs
    s.nodes = {n0, n1};
    auto m = make_machine(s, "v6.6");
    CHECK(zone_nr_split_cpus(*m, m->nodes[0]->z(ZONE_DMA32), 0) == 3);
    CHECK(zone_nr_split_cpus(*m, m->nodes[0]->z(ZONE_DMA32), 1) == 4);
    CHECK(zone_nr_split_cpus(*m, m->nodes[1]->z(ZONE_NORMAL), 0) == 3);
    CHECK(zone_nr_split_cpus(*m, m->nodes[1]->z(ZONE_NORMAL), 1) == 1);
}

TEST_CASE("setup_per_cpu_pageset takes the limits from the managed pages of the moment")
{
    SECTION("v5.4: a highest zone seen before deferred init gets batch 7 / high 42")
    {
        auto m = make_machine(kvm_spec(), "v5.4");
        set_kvm_managed(*m);
        m->nodes[0]->z(ZONE_NORMAL).managed_pages = 32768; // only the first section initialised
        setup_per_cpu_pageset(*m);
        for (const auto& pcp : m->nodes[0]->z(ZONE_NORMAL).per_cpu_pageset) {
            CHECK(pcp.batch == 7);
            CHECK(pcp.high == 42);
        }
        const zone& dma = m->nodes[0]->z(ZONE_DMA);
        CHECK(dma.pagesets_allocated);
        CHECK(dma.per_cpu_pageset[1].batch == 1);
        CHECK(dma.per_cpu_pageset[1].high == 0);
        CHECK_FALSE(m->nodes[0]->z(ZONE_MOVABLE).pagesets_allocated);

        // zone_pcp_update once deferred init has freed the rest (seed 000).
        m->nodes[0]->z(ZONE_NORMAL).managed_pages = 294912;
        zone_pcp_update(*m, m->nodes[0]->z(ZONE_NORMAL), 0, limits_cause::deferred_init_done);
        CHECK(m->nodes[0]->z(ZONE_NORMAL).per_cpu_pageset[0].high == 378);
        CHECK(m->nodes[0]->z(ZONE_NORMAL).pageset_batch == 63);
    }
    SECTION("v6.6: no watermarks yet, so high is 4 * batch")
    {
        auto m = make_machine(kvm_spec(), "v6.6");
        set_kvm_managed(*m);
        setup_per_cpu_pageset(*m);
        const auto& pcp = m->nodes[0]->z(ZONE_DMA32).per_cpu_pageset[0];
        CHECK(pcp.batch == 63);
        CHECK(pcp.high == 252);
    }
    SECTION("v6.7 with autotune: high_min 4 * batch, high_max an eighth per CPU, pcp->high left at 0")
    {
        auto m = make_machine(kvm_spec(), "v6.7");
        REQUIRE(m->patches[patch::pcp_high_autotune]);
        set_kvm_managed(*m);
        setup_per_cpu_pageset(*m);
        for (const auto& pcp : m->nodes[0]->z(ZONE_DMA32).per_cpu_pageset) {
            CHECK(pcp.batch == 63);
            CHECK(pcp.high_min == 252);
            CHECK(pcp.high_max == 48307);
            CHECK(pcp.high == 0);
        }
    }
}

TEST_CASE("batch and high changes are reported once, with old and new values and the cause")
{
    auto m = make_machine(kvm_spec(), "v6.6");
    set_kvm_managed(*m);
    std::vector<limits_change> seen;
    m->on_limits_change = [&](const limits_change& c) { seen.push_back(c); };
    setup_per_cpu_pageset(*m);
    REQUIRE(seen.size() == 3); // DMA, DMA32, Normal; empty zones keep the boot pageset
    CHECK(seen[1].zone == ZONE_DMA32);
    CHECK(seen[1].cause == limits_cause::setup_per_cpu_pageset);
    CHECK(seen[1].old_batch == 1);
    CHECK(seen[1].old_high == 0);
    CHECK(seen[1].new_batch == 63);
    CHECK(seen[1].new_high == 252);

    seen.clear();
    zone& dma32 = m->nodes[0]->z(ZONE_DMA32);
    zone_pcp_update(*m, dma32, 0, limits_cause::cpu_online);
    CHECK(seen.empty()); // nothing changed

    dma32._watermark[WMARK_LOW] = 15231;
    zone_pcp_update(*m, dma32, 0, limits_cause::watermarks);
    REQUIRE(seen.size() == 1);
    CHECK(seen[0].cause == limits_cause::watermarks);
    CHECK(seen[0].old_high == 252);
    CHECK(seen[0].new_high == 7615);
    CHECK(dma32.pageset_high == 7615);
    CHECK(dma32.per_cpu_pageset[1].high == 7615);
}

TEST_CASE("turning pcp-high-autotune off writes pcp->high again")
{
    auto m = make_machine(kvm_spec(), "v6.18");
    set_kvm_managed(*m);
    setup_per_cpu_pageset(*m);
    zone& dma32 = m->nodes[0]->z(ZONE_DMA32);
    REQUIRE(dma32.per_cpu_pageset[0].high == 0);
    m->patches.set(patch::pcp_high_autotune, false);
    zone_pcp_update(*m, dma32, 0, limits_cause::sysctl);
    CHECK(dma32.per_cpu_pageset[0].high == 252);
    CHECK(dma32.per_cpu_pageset[0].high_max == 252);
}

TEST_CASE("vm.percpu_pagelist_fraction exists up to v5.13, accepts 0 or >= 8 and recomputes every zone")
{
    auto m = make_machine(kvm_spec(), "v5.4");
    set_kvm_managed(*m);
    setup_per_cpu_pageset(*m);
    zone& dma32 = m->nodes[0]->z(ZONE_DMA32);
    CHECK_FALSE(set_percpu_pagelist_fraction(*m, 5).ok());
    CHECK_FALSE(set_percpu_pagelist_fraction(*m, -1).ok());
    CHECK(m->sysctl.percpu_pagelist_fraction == 0);
    CHECK(dma32.per_cpu_pageset[0].high == 378);

    CHECK(set_percpu_pagelist_fraction(*m, 8).ok());
    CHECK(dma32.per_cpu_pageset[0].high == 96614); // 772915 / 8
    CHECK(dma32.per_cpu_pageset[1].batch == 96);
    CHECK(m->nodes[0]->z(ZONE_DMA).per_cpu_pageset[0].high == 480);

    CHECK(set_percpu_pagelist_fraction(*m, 0).ok());
    CHECK(dma32.per_cpu_pageset[0].high == 378);
    CHECK(dma32.per_cpu_pageset[0].batch == 63);

    // The v5.14 knob does not exist here.
    CHECK_FALSE(set_percpu_pagelist_high_fraction(*m, 8).ok());
}

TEST_CASE("vm.percpu_pagelist_high_fraction exists from v5.14, accepts 0 or >= 8 and recomputes every zone")
{
    auto m = make_machine(kvm_spec(), "v6.6");
    set_kvm_managed(*m);
    setup_per_cpu_pageset(*m);
    zone& normal = m->nodes[0]->z(ZONE_NORMAL);
    CHECK_FALSE(set_percpu_pagelist_fraction(*m, 8).ok()); // removed in v5.14
    CHECK_FALSE(set_percpu_pagelist_high_fraction(*m, 7).ok());
    CHECK(m->sysctl.percpu_pagelist_high_fraction == 0);

    CHECK(set_percpu_pagelist_high_fraction(*m, 8).ok());
    CHECK(normal.per_cpu_pageset[0].high == 18432); // 294912 / 8 / 2
    CHECK(normal.per_cpu_pageset[0].batch == 63);
    CHECK(set_percpu_pagelist_high_fraction(*m, 0).ok());
    CHECK(normal.per_cpu_pageset[0].high == 252); // back to the (still zero) low watermark: 4 * batch
}

TEST_CASE("vm stats threshold grows with the log of CPUs and zone size, capped at 125")
{
    CHECK(calculate_normal_threshold(3840, 2) == 4); // < 128 MiB
    CHECK(calculate_normal_threshold(772915, 2) == 24); // 2-4 GiB
    CHECK(calculate_normal_threshold(294912, 2) == 20); // 1-2 GiB
    CHECK(calculate_normal_threshold(262143, 1) == 8); // just under 1 GiB, one CPU: 2 * 1 * (1 + fls(7))
    CHECK(calculate_normal_threshold(262144, 1) == 10); // 1 GiB: 2 * 1 * (1 + fls(8))
    CHECK(calculate_normal_threshold(64UL << 18, 1024) == 125);
}

TEST_CASE("the real 6.18 zoneinfo capture comes out exactly: watermarks, protection, batch, high_min, high_max")
{
    auto zones = read_capture(std::string(PCPLAB_TEST_FIXTURES) + "/zoneinfo/linux-6.18-kvm-1node-2cpu.txt");
    REQUIRE(zones.size() == 5);
    auto m = make_machine(kvm_spec(), "v6.18");
    REQUIRE(m->patches[patch::pcp_high_autotune]);
    for (const auto& cz : zones)
        m->nodes[0]->z(zone_by_name(cz.name)).managed_pages = static_cast<unsigned long>(cz.managed);
    m->sysctl.min_free_kbytes = 67584; // the THP recommendation the capture's README names
    setup_per_cpu_pageset(*m);
    init_per_zone_wmark_min(*m);

    int pagesets = 0;
    for (const auto& cz : zones) {
        INFO("zone " << cz.name);
        const zone& z = m->nodes[0]->z(zone_by_name(cz.name));
        CHECK(static_cast<long>(z._watermark[WMARK_MIN]) == cz.min);
        CHECK(static_cast<long>(z._watermark[WMARK_LOW]) == cz.low);
        CHECK(static_cast<long>(z._watermark[WMARK_HIGH]) == cz.high);
        CHECK(static_cast<long>(z._watermark[WMARK_PROMO]) == cz.promo);
        REQUIRE(cz.protection.size() == MAX_NR_ZONES);
        for (unsigned j = 0; j < MAX_NR_ZONES; ++j) CHECK(z.lowmem_reserve[j] == cz.protection[j]);
        for (std::size_t cpu = 0; cpu < cz.batch.size(); ++cpu) {
            const auto& pcp = z.per_cpu_pageset[cpu];
            CHECK(pcp.batch == cz.batch[cpu]);
            CHECK(pcp.high_min == cz.high_min[cpu]);
            CHECK(pcp.high_max == cz.high_max[cpu]);
            CHECK(pcp.stat_threshold == cz.threshold[cpu]);
            CHECK(pcp.high == 0); // never used yet: v6.7+ does not write pcp->high
            ++pagesets;
        }
    }
    CHECK(pagesets == 6); // 3 populated zones x 2 CPUs
}
