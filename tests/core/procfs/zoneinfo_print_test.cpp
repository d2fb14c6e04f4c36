#include "mm/machine.hpp"
#include "procfs/vmstat_names.hpp"
#include "procfs/zoneinfo_parse.hpp"
#include "procfs/zoneinfo_print.hpp"

#include <catch2/catch.hpp>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>

using namespace pcplab;
using namespace pcplab::mm;

namespace
{

const std::string fixture_path = std::string(PCPLAB_TEST_FIXTURES) + "/zoneinfo/linux-6.18-kvm-1node-2cpu.txt";

std::string read_file(const std::string& path)
{
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::vector<std::string> lines_of(const std::string& text)
{
    std::vector<std::string> out;
    std::stringstream ss(text);
    std::string l;
    while (std::getline(ss, l)) out.push_back(l);
    return out;
}

kernel_version ver(const char* s)
{
    return *kernel_version::parse(s);
}

// The capture's machine: one node, 2 CPUs; DMA present 3998 of pfns 1..4095, DMA32 782336 present in
// 4096..1048575, Normal 5505024 pages from 4 GiB.
machine_spec fixture_like_spec()
{
    machine_spec s;
    s.name = "kvm-1node-2cpu";
    node_spec n;
    n.cpus = {0, 1};
    n.memory = {{1, 159}, {256, 4096}, {4096, 786432}, {1048576, 6553600}};
    s.nodes.push_back(n);
    return s;
}

// Copy the numbers the model keeps from a parsed capture into the machine's zones.
void load_state(machine& m, const procfs::zoneinfo_doc& doc)
{
    for (const auto& fz : doc.zones) {
        zone* z = nullptr;
        for (auto& cand : m.nodes[0]->node_zones)
            if (fz.name == zone_name(cand->idx)) z = cand.get();
        REQUIRE(z);
        z->managed_pages = static_cast<unsigned long>(fz.managed);
        z->watermark_boost = static_cast<unsigned long>(fz.boost.value_or(0));
        z->_watermark[WMARK_MIN] = static_cast<unsigned long>(fz.min) - z->watermark_boost;
        z->_watermark[WMARK_LOW] = static_cast<unsigned long>(fz.low) - z->watermark_boost;
        z->_watermark[WMARK_HIGH] = static_cast<unsigned long>(fz.high) - z->watermark_boost;
        z->_watermark[WMARK_PROMO] = static_cast<unsigned long>(fz.promo.value_or(0)) - z->watermark_boost;
        for (std::size_t i = 0; i < fz.protection.size(); ++i) z->lowmem_reserve[i] = fz.protection[i];
        if (!fz.populated()) continue;
        z->nr_free_pages = fz.pages_free;
        // Whole free pageblocks as order-9 blocks, the rest as order-0 pages.
        long blocks = fz.stats.at("nr_free_pages_blocks");
        z->free_area_[pageblock_order].nr_free = static_cast<unsigned long>(blocks >> pageblock_order);
        z->free_area_[0].nr_free = static_cast<unsigned long>(fz.pages_free - blocks);
        z->numa_hit = static_cast<unsigned long>(fz.stats.at("numa_hit"));
        z->numa_local = static_cast<unsigned long>(fz.stats.at("numa_local"));
        for (const auto& p : fz.pagesets) {
            per_cpu_pages& pcp = z->per_cpu_pageset[static_cast<std::size_t>(p.cpu)];
            pcp.count = static_cast<int>(p.count);
            pcp.high = static_cast<int>(p.high);
            pcp.batch = static_cast<int>(p.batch);
            pcp.high_min = static_cast<int>(*p.high_min);
            pcp.high_max = static_cast<int>(*p.high_max);
            pcp.stat_threshold = static_cast<std::int8_t>(*p.stat_threshold);
        }
    }
}

std::string mask_digits(const std::string& s)
{
    return std::regex_replace(s, std::regex("[0-9]+"), "#");
}

// Stat lines ("      NAME VALUE") whose value the model has; the others it prints as 0.
bool simulated_stat(const std::string& line)
{
    static const std::set<std::string> kept = {
        "nr_free_pages", "nr_free_pages_blocks", "numa_hit", "numa_miss", "numa_foreign", "numa_local", "numa_other"};
    std::stringstream ss(line);
    std::string name;
    ss >> name;
    return kept.count(name) != 0;
}

} // namespace

TEST_CASE("zoneinfo of a v6.18 machine shaped like the real capture has its lines, order and spacing")
{
    std::string real = read_file(fixture_path);
    auto parsed = procfs::parse_zoneinfo(real, fixture_path);
    REQUIRE(std::holds_alternative<procfs::zoneinfo_doc>(parsed));
    const auto& doc = std::get<procfs::zoneinfo_doc>(parsed);

    machine m(fixture_like_spec(), ver("v6.18"), default_patches(ver("v6.18")));
    // The spec reproduces the capture's zone geometry before any number is copied over.
    for (const auto& fz : doc.zones) {
        if (!fz.populated()) continue;
        for (auto& z : m.nodes[0]->node_zones)
            if (fz.name == zone_name(z->idx)) {
                CHECK(static_cast<long>(z->spanned_pages) == fz.spanned);
                CHECK(static_cast<long>(z->present_pages) == fz.present);
                CHECK(static_cast<long>(z->zone_start_pfn) == *fz.start_pfn);
            }
    }
    load_state(m, doc);

    auto want = lines_of(real);
    auto got = lines_of(procfs::zoneinfo_text(m));
    REQUIRE(got.size() == want.size());
    bool in_node_stats = false;
    for (std::size_t i = 0; i < want.size(); ++i) {
        INFO("line " << i + 1 << "\n  real: '" << want[i] << "'\n  ours: '" << got[i] << "'");
        // Same key, same padding: only the numbers may differ ...
        REQUIRE(mask_digits(got[i]) == mask_digits(want[i]));
        if (want[i] == "  per-node stats")
            in_node_stats = true;
        else if (want[i].rfind("  pages free", 0) == 0)
            in_node_stats = false;
        bool stat_line = want[i].rfind("      ", 0) == 0 && want[i].rfind("       ", 0) != 0;
        // ... and only where the model does not simulate the counter (it prints 0 there).
        if (stat_line && (in_node_stats || !simulated_stat(want[i])))
            CHECK(got[i].substr(got[i].find_last_of(' ') + 1) == "0");
        else
            CHECK(got[i] == want[i]);
    }
}

TEST_CASE("buddyinfo prints the free blocks per order of populated zones")
{
    machine m(fixture_like_spec(), ver("v6.18"), default_patches(ver("v6.18")));
    zone& dma = m.nodes[0]->z(ZONE_DMA);
    dma.free_area_[0].nr_free = 3;
    dma.free_area_[9].nr_free = 7;
    m.nodes[0]->z(ZONE_NORMAL).free_area_[10].nr_free = 123456;
    auto lines = lines_of(procfs::buddyinfo_text(m));
    REQUIRE(lines.size() == 3); // DMA, DMA32, Normal: Movable and Device are empty
    CHECK(lines[0]
        == "Node 0, zone      DMA      3      0      0      0      0      0      0      0      0      7 "
           "     0 ");
    CHECK(lines[1].rfind("Node 0, zone    DMA32      0 ", 0) == 0);
    CHECK(lines[2]
        == "Node 0, zone   Normal      0      0      0      0      0      0      0      0      0      0 "
           "123456 ");
}

TEST_CASE("a v5.4 machine prints the old header and per-CPU block")
{
    machine_spec s;
    node_spec n;
    n.cpus = {0, 1};
    n.memory = {{1, 159}, {256, 262144}};
    s.nodes.push_back(n);
    machine m(s, ver("v5.4"), default_patches(ver("v5.4")));
    per_cpu_pages& pcp = m.nodes[0]->z(ZONE_DMA32).per_cpu_pageset[1];
    pcp.count = 17;
    pcp.high = 378;
    pcp.batch = 63;
    pcp.stat_threshold = 24;
    std::string text = procfs::zoneinfo_text(m);

    CHECK(text.find("\n    cpu: 1\n              count: 17\n              high:  378\n              batch: 63\n"
                    "  vm stats threshold: 24\n")
        != std::string::npos);
    CHECK(text.find("high_min") == std::string::npos);
    CHECK(text.find("boost") == std::string::npos);
    CHECK(text.find("        cma") == std::string::npos);
    CHECK(text.find("promo") == std::string::npos);
    CHECK(text.find("\n  pages free     0\n        min      0\n        low      0\n        high     0\n"
                    "        spanned  4095\n")
        != std::string::npos);
    // v5.4's node counters: workingset_refault not yet split anon/file, nr_unstable still there.
    CHECK(text.find("\n      workingset_refault 0\n") != std::string::npos);
    CHECK(text.find("\n      nr_unstable  0\n") != std::string::npos);
    CHECK(text.find("workingset_refault_anon") == std::string::npos);
    CHECK(text.find("\n      nr_kernel_stack 0\n") != std::string::npos); // a zone counter before v5.9
    // Protection lists all five zones, Device included.
    CHECK(text.find("protection: (0, 0, 0, 0, 0)\nNode 0, zone   Device") != std::string::npos);
}

TEST_CASE("per-node stats go with the node's first populated zone")
{
    machine_spec s;
    node_spec n;
    n.cpus = {0};
    n.memory = {{4096, 262144}}; // no DMA memory: DMA is empty, DMA32 is the first populated zone
    s.nodes.push_back(n);
    machine m(s, ver("v6.6"), default_patches(ver("v6.6")));
    std::string text = procfs::zoneinfo_text(m);
    auto dma32 = text.find("Node 0, zone    DMA32\n  per-node stats\n");
    CHECK(dma32 != std::string::npos);
    CHECK(text.find("per-node stats") == dma32 + std::string("Node 0, zone    DMA32\n  ").size());
    CHECK(text.find("per-node stats", dma32 + 30) == std::string::npos);
    // The empty DMA zone stops after its protection line.
    CHECK(text.find("Node 0, zone      DMA\n  pages free") == 0);
    CHECK(text.find("protection: (0, 0, 0, 0, 0)\nNode 0, zone    DMA32") != std::string::npos);
}

TEST_CASE("zoneinfo of every modelled era parses back with its values")
{
    for (const char* era : {"v4.17", "v4.19", "v5.4", "v6.6", "v6.7", "v6.13", "v6.18"}) {
        INFO(era);
        machine_spec s;
        for (int nid = 0; nid < 2; ++nid) {
            node_spec n;
            n.cpus = {2 * nid, 2 * nid + 1};
            n.memory = nid == 0 ? std::vector<pfn_range>{{1, 159}, {256, 786432}}
                                : std::vector<pfn_range>{{1048576, 1310720}};
            s.nodes.push_back(n);
        }
        machine m(s, ver(era), default_patches(ver(era)));
        zone& normal = m.nodes[1]->z(ZONE_NORMAL);
        normal.managed_pages = 250000;
        normal.per_cpu_pageset[3].batch = 63;
        normal.per_cpu_pageset[3].high = 4000;
        normal.per_cpu_pageset[3].high_min = 1000;
        normal.per_cpu_pageset[3].high_max = 7812;
        auto parsed = procfs::parse_zoneinfo(procfs::zoneinfo_text(m), era);
        if (auto* e = std::get_if<pcplab::error>(&parsed)) FAIL(e->str());
        const auto& doc = std::get<procfs::zoneinfo_doc>(parsed);
        CHECK(doc.nr_nodes() == 2);
        CHECK(doc.nr_cpus() == 4);
        const auto& z = doc.zones[7]; // node 1: DMA, DMA32, Normal
        CHECK(z.node == 1);
        CHECK(z.name == "Normal");
        CHECK(z.managed == 250000);
        CHECK(z.pagesets.at(3).batch == 63);
        CHECK(z.pagesets.at(3).high == 4000);
        bool new_layout = ver(era).at_least(6, 13);
        CHECK(z.pagesets.at(3).high_min.has_value() == new_layout);
        if (new_layout) CHECK(*z.pagesets.at(3).high_max == 7812);
        // Every node counter of the era is read back under its own name (the v4.17 blank one is skipped).
        const auto& names = procfs::zoneinfo_stat_names_for(ver(era));
        std::size_t named = 0;
        for (auto name : names.node) named += !name.empty();
        CHECK(z.node_stats.size() == named);
        CHECK(z.stats.size() == names.zone.size() + names.numa.size());
    }
}
