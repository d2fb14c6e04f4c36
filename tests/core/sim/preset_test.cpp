#include "mm/kernel_version.hpp"
#include "mm/machine.hpp"
#include "mm/patch_switches.hpp"
#include "sim/preset.hpp"
#include "sim/preset_layout.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <string>
#include <variant>

#include <unistd.h>

using namespace pcplab;
using mm::pfn_t;

namespace
{

constexpr unsigned long GIB = 1UL << 18; // frames per GiB

// By value: the result is usually a temporary.
mm::machine_spec ok(const sim::preset_result& r)
{
    if (auto* e = std::get_if<pcplab::error>(&r)) FAIL(e->str());
    return std::get<mm::machine_spec>(r);
}

pcplab::error err(const sim::preset_result& r)
{
    REQUIRE(std::holds_alternative<pcplab::error>(r));
    return std::get<pcplab::error>(r);
}

unsigned long pages_in(const std::vector<mm::pfn_range>& v, pfn_t lo = 0, pfn_t hi = mm::NO_PFN)
{
    unsigned long n = 0;
    for (const auto& r : v) {
        pfn_t s = std::max(r.start, lo), e = std::min(r.end, hi);
        if (s < e) n += e - s;
    }
    return n;
}

// Present frames of a node in one x86-64 zone (DMA below 16 MiB, DMA32 below 4 GiB, Normal above).
unsigned long zone_present(const mm::node_spec& n, mm::zone_type z)
{
    pfn_t lo = z == mm::ZONE_DMA ? 0 : z == mm::ZONE_DMA32 ? mm::MAX_DMA_PFN : mm::MAX_DMA32_PFN;
    pfn_t hi = z == mm::ZONE_DMA ? mm::MAX_DMA_PFN : z == mm::ZONE_DMA32 ? mm::MAX_DMA32_PFN : mm::NO_PFN;
    return pages_in(n.memory, lo, hi);
}

// A small valid preset, for tests that change one thing.
std::string tiny_json(const std::string& era, const std::string& extra_top = "", const std::string& node1_extra = "")
{
    return R"({"description": "test", "era": ")" + era + R"(", "sockets": 2, "threads_per_core": 2,)" + extra_top
        + R"( "nodes": [{"cpus": 4, "memory_gib": 4}, {"cpus": 4, "memory_gib": 4)" + node1_extra + "}]}";
}

struct env_override {
    std::optional<std::string> old;
    explicit env_override(const std::string& value)
    {
        if (const char* v = std::getenv("PCPLAB_RESOURCES")) old = v;
        setenv("PCPLAB_RESOURCES", value.c_str(), 1);
    }
    ~env_override()
    {
        if (old)
            setenv("PCPLAB_RESOURCES", old->c_str(), 1);
        else
            unsetenv("PCPLAB_RESOURCES");
    }
};

} // namespace

TEST_CASE("every shipped preset loads with its stated CPUs, nodes, sockets and memory")
{
    struct expect {
        const char* name;
        int cpus, nodes, sockets;
        unsigned long gib; // RAM installed, all nodes
    };
    const expect table[] = {
        {"classroom", 8, 2, 2, 16},
        {"epyc2-256", 256, 2, 2, 256},
        {"broadwell-2s", 88, 2, 2, 128},
        {"skylake-2s", 112, 2, 2, 64},
        {"broadwell-4s", 192, 4, 4, 256},
        {"skylake-4s", 224, 4, 4, 256},
        {"intel-2s-224", 224, 2, 2, 256},
        {"meta-1t-316", 316, 1, 1, 1024},
        {"meta-250g-176", 176, 1, 1, 256},
        {"xeon-88-503g", 88, 2, 2, 512},
        {"xeon-8s-288-1t", 288, 8, 8, 1024},
    };
    auto listed = sim::list_presets();
    for (const auto& e : table) {
        INFO(e.name);
        CHECK(std::find(listed.begin(), listed.end(), e.name) != listed.end());
        const auto s = ok(sim::load_preset(e.name));
        CHECK(s.name == e.name);
        CHECK(s.nr_cpus() == e.cpus);
        CHECK(static_cast<int>(s.nodes.size()) == e.nodes);
        CHECK(s.sockets == e.sockets);
        unsigned long present = 0;
        for (const auto& n : s.nodes) present += pages_in(n.memory);
        // Only node 0's frame 0 and 640 KiB-1 MiB window are lost; the PCI hole's RAM is remapped.
        CHECK(present <= e.gib * GIB);
        CHECK(e.gib * GIB - present == 98);
    }
}

TEST_CASE("every listed preset is well formed: era, CPU numbering, reservations, description")
{
    auto names = sim::list_presets();
    REQUIRE(names.size() >= 11);
    for (const auto& name : names) {
        INFO(name);
        const auto s = ok(sim::load_preset(name));
        auto era = mm::choose_era(s.era);
        REQUIRE(era);
        for (const auto& [patch, on] : s.patches) {
            auto p = mm::patch_from_name(patch);
            REQUIRE(p);
            CHECK(mm::patch_not_applicable(*p, on, era->era).empty());
        }
        // Logical CPUs 0..n-1, each on exactly one node; SMT siblings (cpu, cpu + cores) share the node.
        std::vector<int> node_of(static_cast<std::size_t>(s.nr_cpus()), -1);
        for (std::size_t i = 0; i < s.nodes.size(); ++i)
            for (int c : s.nodes[i].cpus) {
                REQUIRE(c >= 0);
                REQUIRE(c < s.nr_cpus());
                CHECK(node_of[static_cast<std::size_t>(c)] == -1);
                node_of[static_cast<std::size_t>(c)] = static_cast<int>(i);
            }
        const int cores = s.nr_cpus() / s.threads_per_core;
        for (int c = 0; c + cores < s.nr_cpus(); ++c)
            CHECK(node_of[static_cast<std::size_t>(c)] == node_of[static_cast<std::size_t>(c + cores)]);
        // Managed < present on every node, by about the memmap (1/64), as on real machines.
        pfn_t prev_end = 0;
        for (const auto& n : s.nodes) {
            unsigned long present = pages_in(n.memory), reserved = pages_in(n.reserved);
            CHECK(reserved > 0);
            for (const auto& r : n.reserved) CHECK(pages_in(n.memory, r.start, r.end) == r.pages());
            double managed_share = double(present - reserved) / double(present);
            CHECK(managed_share > 0.97);
            CHECK(managed_share < 0.99);
            CHECK(n.memory.front().start >= prev_end); // nodes follow one another
            prev_end = n.memory.back().end;
        }
        CHECK(s.description.find_first_not_of(" \n") != std::string::npos);
        CHECK(s.description.find('\n') > 20); // a one-line summary first
    }
}

TEST_CASE("epyc2-256 is seed 000's machine: 2 nodes x 128 CPUs, DMA/DMA32/Normal on node 0, Normal on node 1")
{
    const auto s = ok(sim::load_preset("epyc2-256"));
    REQUIRE(s.nodes.size() == 2);
    CHECK(s.nodes[0].cpus.size() == 128);
    CHECK(s.nodes[1].cpus.size() == 128);
    // Linux numbering on a Rome pair: node 0 = 0-63 and 128-191.
    CHECK(s.nodes[0].cpus.front() == 0);
    CHECK(s.nodes[0].cpus[63] == 63);
    CHECK(s.nodes[0].cpus[64] == 128);
    CHECK(s.nodes[1].cpus.front() == 64);

    const auto& n0 = s.nodes[0];
    const auto& n1 = s.nodes[1];
    CHECK(zone_present(n0, mm::ZONE_DMA) == 3998);
    CHECK(zone_present(n0, mm::ZONE_DMA32) == 782336);
    CHECK(zone_present(n0, mm::ZONE_NORMAL) > GIB);
    CHECK(zone_present(n1, mm::ZONE_DMA) == 0);
    CHECK(zone_present(n1, mm::ZONE_DMA32) == 0);
    CHECK(zone_present(n1, mm::ZONE_NORMAL) == 128 * GIB);
    // v5.4-era low reservations: DMA managed 3977, so zone_batchsize gives 0 -> batch 1, high 0.
    CHECK(zone_present(n0, mm::ZONE_DMA) - pages_in(n0.reserved, 0, mm::MAX_DMA_PFN) == 3977);
    // Seed 000's "batch 7" needs the Normal zones' first section (the early-initialised part) unreserved.
    for (const auto& n : s.nodes) {
        pfn_t normal_start = std::max(n.memory.back().start, mm::MAX_DMA32_PFN);
        CHECK(normal_start % mm::PAGES_PER_SECTION == 0);
        CHECK(pages_in(n.reserved, normal_start, normal_start + mm::PAGES_PER_SECTION) == 0);
    }

    auto era = mm::choose_era(s.era);
    REQUIRE(era);
    CHECK(era->era.str() == "v5.4");
    CHECK(era->requested.rc == 3);
    REQUIRE(s.patches.count("pcp-update-after-deferred-init"));
    CHECK_FALSE(s.patches.at("pcp-update-after-deferred-init"));
}

TEST_CASE("CPUs are numbered as Linux does on x86: first threads socket by socket, then the siblings")
{
    // Two sockets with two nodes each (SNC / NPS2), SMT2, 2 cores per node.
    auto cpus = sim::enumerate_cpus({0, 0, 1, 1}, {4, 4, 4, 4}, 2);
    CHECK(cpus[0] == std::vector<int>{0, 1, 8, 9});
    CHECK(cpus[1] == std::vector<int>{2, 3, 10, 11});
    CHECK(cpus[3] == std::vector<int>{6, 7, 14, 15});
    // Node order follows the sockets, not the node ids; memory-only nodes get no CPUs.
    auto swapped = sim::enumerate_cpus({1, 0, 0}, {2, 2, 0}, 1);
    CHECK(swapped[1] == std::vector<int>{0, 1});
    CHECK(swapped[0] == std::vector<int>{2, 3});
    CHECK(swapped[2].empty());
}

TEST_CASE("the memory layout keeps node 0 around the PC holes and skips the PCI hole")
{
    std::vector<mm::node_spec> nodes(2);
    auto end
        = sim::layout_x86_memory(nodes, {{2 * GIB, std::nullopt}, {2 * GIB, 0}}, *mm::kernel_version::parse("6.6"));
    // Node 0 (2 GiB) stays below the hole; node 1 starts right after and jumps over 3-4 GiB.
    REQUIRE(nodes[0].memory.size() == 2);
    CHECK(nodes[0].memory[0].start == 1);
    CHECK(nodes[0].memory[0].end == sim::LOW_RAM_END_PFN);
    CHECK(nodes[0].memory[1].start == sim::ISA_END_PFN);
    CHECK(nodes[0].memory[1].end == 2 * GIB);
    REQUIRE(nodes[1].memory.size() == 2);
    CHECK(nodes[1].memory[0].start == 2 * GIB);
    CHECK(nodes[1].memory[0].end == sim::PCI_HOLE_START_PFN);
    CHECK(nodes[1].memory[1].start == sim::PCI_HOLE_END_PFN);
    CHECK(pages_in(nodes[1].memory) == 2 * GIB);
    CHECK(end == 5 * GIB);
    // v6.6 reserves the whole first MiB; node 1 was asked for no reservation at all.
    CHECK(pages_in(nodes[0].reserved, 0, sim::ISA_END_PFN) == sim::LOW_RAM_END_PFN - 1);
    CHECK(pages_in(nodes[0].reserved, sim::KERNEL_START_PFN, sim::KERNEL_START_PFN + sim::KERNEL_RESERVED_PAGES)
        == sim::KERNEL_RESERVED_PAGES);
    CHECK(nodes[1].reserved.empty());
    // The default top reservation is the memmap: 64 bytes per frame.
    CHECK(pages_in(nodes[0].reserved, nodes[0].memory.back().end - 1024, nodes[0].memory.back().end) == 1024);
    CHECK(sim::default_reserved_pages(64 * 1000) == 1000);
    CHECK(sim::default_reserved_pages(64 * 1000 + 1) == 1001);
}

TEST_CASE("the reservations below 1 MiB follow the era: managed DMA 3977 before v5.13, 3840 after")
{
    auto dma_managed = [](const std::string& era) {
        const auto s = ok(sim::parse_preset(tiny_json(era), "tiny.json"));
        const auto& n0 = s.nodes[0];
        return zone_present(n0, mm::ZONE_DMA) - pages_in(n0.reserved, 0, mm::MAX_DMA_PFN);
    };
    CHECK(dma_managed("v5.4") == 3977);
    CHECK(dma_managed("4.15-rc2") == 3977);
    CHECK(dma_managed("v6.18") == 3840); // as in tests/fixtures/zoneinfo (6.18)
}

TEST_CASE("reserved_mb replaces the memmap reservation of its node")
{
    const auto dflt = ok(sim::parse_preset(tiny_json("v6.7"), "a.json"));
    const auto own = ok(sim::parse_preset(tiny_json("v6.7", "", R"(, "reserved_mb": 100)"), "b.json"));
    CHECK(pages_in(dflt.nodes[1].reserved) == 4 * GIB / 64);
    CHECK(pages_in(own.nodes[1].reserved) == 100 * 256);
    CHECK(pages_in(own.nodes[0].reserved) == pages_in(dflt.nodes[0].reserved));
}

TEST_CASE("optional fields reach the spec: patches, init threads, sysctls, movable zone, cost model")
{
    const std::string extra = R"( "patches": {"parallel-deferred-init": true}, "init_threads": 3,
        "sysctl": {"min_free_kbytes": 90112, "watermark_scale_factor": 150, "percpu_pagelist_high_fraction": 16},
        "movable_pages_per_node": 65536, "cost_model": {"dram_ns.local": 110.5, "lock_ns.handover_factor": 1.5},)";
    const auto s = ok(sim::parse_preset(tiny_json("v6.8", extra), "opts.json"));
    CHECK(s.patches.at("parallel-deferred-init"));
    CHECK(s.init_threads == 3);
    REQUIRE(s.sysctl.min_free_kbytes);
    CHECK(*s.sysctl.min_free_kbytes == 90112);
    CHECK(s.sysctl.watermark_scale_factor == 150);
    CHECK(s.sysctl.percpu_pagelist_high_fraction == 16);
    CHECK(s.movable_pages_per_node == 65536);
    CHECK(s.cost_model.at("dram_ns.local") == Approx(110.5));
    CHECK(s.source_file == "opts.json");
    CHECK(s.name == "opts");
    // Defaults when absent
    const auto d = ok(sim::parse_preset(tiny_json("v6.8"), "d.json"));
    CHECK_FALSE(d.sysctl.min_free_kbytes);
    CHECK(d.sysctl.watermark_scale_factor == 10);
    CHECK(d.cost_model.empty());
    CHECK(d.patches.empty());
}

TEST_CASE("a description may be an array of lines, the first being the summary")
{
    std::string text = R"({"description": ["Summary line", "Details."], "era": "v6.7", "sockets": 1,
                           "nodes": [{"cpus": 2, "memory_gib": 1}]})";
    const auto s = ok(sim::parse_preset(text, "d.json"));
    CHECK(s.description == "Summary line\nDetails.");
}

TEST_CASE("bad presets are refused with the file, the field and the problem")
{
    struct bad {
        const char* file;
        const char* field;
        const char* problem; // a substring of the message
    };
    const bad cases[] = {
        {"unknown_field", "nodes[1].memory_gb", "did you mean 'memory_gib'"},
        {"wrong_type", "nodes[1].cpus", "must be an integer"},
        {"negative_memory", "nodes[0].memory_gib", "-8"},
        {"unknown_patch", "patches.pcp-autotune", "unknown patch switch"},
        {"bad_era", "era", "not a kernel version"},
        {"too_many_nodes", "nodes", "between 1 and 32"},
        {"no_cpus", "nodes", "no node has CPUs"},
        {"too_much_memory", "nodes", "16 TiB"},
        {"min_free_kbytes", "sysctl.min_free_kbytes", "a quarter of"},
        {"missing_description", "description", "required"},
        {"inapplicable_patch", "patches.pcp-high-autotune", "v5.14"},
        {"fraction_wrong_era", "sysctl.percpu_pagelist_high_fraction", "from v5.14"},
        {"odd_cpus", "nodes[0].cpus", "multiple of threads_per_core"},
        {"duplicate_key", "nodes[1].cpus", "twice"},
    };
    for (const auto& c : cases) {
        const std::string path = std::string(PCPLAB_TEST_FIXTURES) + "/presets/bad/" + c.file + ".json";
        INFO(path);
        const auto e = err(sim::load_preset(path));
        CHECK(e.source == path);
        CHECK(e.field == c.field);
        CHECK(e.message.find(c.problem) != std::string::npos);
        CHECK(e.str() == path + ": " + c.field + ": " + e.message);
    }
}

TEST_CASE("a syntax error reports its line")
{
    const std::string path = std::string(PCPLAB_TEST_FIXTURES) + "/presets/bad/syntax_error.json";
    const auto e = err(sim::load_preset_file(path));
    CHECK(e.line == 5);
    CHECK(e.field.empty());
    CHECK(e.str().rfind(path + ":5: ", 0) == 0);
    CHECK(e.message.find("syntax error") != std::string::npos);
    // Truncated input: the line is the last one.
    const auto t = err(sim::parse_preset("{\n  \"era\": \"v5.4\",\n", "cut.json"));
    CHECK(t.line == 3);
}

TEST_CASE("a missing preset names the file and what exists")
{
    const auto byname = err(sim::load_preset("no-such-machine"));
    CHECK(byname.source == sim::presets_dir() + "/no-such-machine.json");
    CHECK(byname.message.find("no preset named 'no-such-machine'") != std::string::npos);
    CHECK(byname.message.find("epyc2-256") != std::string::npos);
    const auto bypath = err(sim::load_preset("/nonexistent/dir/x.json"));
    CHECK(bypath.source == "/nonexistent/dir/x.json");
    CHECK(bypath.str().find("cannot read") != std::string::npos);
}

TEST_CASE("PCPLAB_RESOURCES overrides the presets directory")
{
    namespace fs = std::filesystem;
    fs::path dir = fs::temp_directory_path() / ("pcplab-preset-test-" + std::to_string(::getpid()));
    fs::create_directories(dir / "presets");
    std::ofstream(dir / "presets" / "mine.json") << tiny_json("v6.7");
    std::ofstream(dir / "presets" / "notes.txt") << "not a preset";
    {
        env_override env(dir.string());
        CHECK(sim::presets_dir() == (dir / "presets").string());
        CHECK(sim::list_presets() == std::vector<std::string>{"mine"});
        CHECK(ok(sim::load_preset("mine")).nr_cpus() == 8);
        CHECK(std::holds_alternative<pcplab::error>(sim::load_preset("classroom")));
    }
    fs::remove_all(dir);
    CHECK(sim::presets_dir() != (dir / "presets").string());
    // A path works from anywhere.
    CHECK(ok(sim::load_preset(std::string(PCPLAB_RESOURCE_DIR) + "/presets/classroom.json")).name == "classroom");
}

TEST_CASE("the classroom preset builds a machine with the zones its description promises")
{
    const auto s = ok(sim::load_preset("classroom"));
    auto era = mm::choose_era(s.era);
    REQUIRE(era);
    mm::machine m(s, era->era, mm::default_patches(era->requested));
    REQUIRE(m.nodes.size() == 2);
    CHECK(m.nr_cpu_ids() == 8);
    CHECK(m.nodes[0]->z(mm::ZONE_DMA).present_pages == 3998);
    CHECK(m.nodes[0]->z(mm::ZONE_DMA32).present_pages == 782336);
    CHECK(m.nodes[0]->z(mm::ZONE_NORMAL).present_pages == 5 * GIB);
    CHECK_FALSE(m.nodes[1]->z(mm::ZONE_DMA).populated());
    CHECK_FALSE(m.nodes[1]->z(mm::ZONE_DMA32).populated());
    CHECK(m.nodes[1]->z(mm::ZONE_NORMAL).present_pages == 8 * GIB);
    CHECK(m.max_pfn == 17 * GIB);
    for (std::size_t n = 0; n < 2; ++n)
        for (int cpu : s.nodes[n].cpus) CHECK(m.cpu_to_node[static_cast<std::size_t>(cpu)] == static_cast<int>(n));
}

TEST_CASE("a one-node preset below 3 GiB builds a machine without a Normal zone")
{
    std::string text = R"({"description": "tiny", "era": "v6.18", "sockets": 1, "threads_per_core": 2,
                           "nodes": [{"cpus": 2, "memory_gib": 2}]})";
    const auto s = ok(sim::parse_preset(text, "one.json"));
    auto era = mm::choose_era(s.era);
    mm::machine m(s, era->era, mm::default_patches(era->requested));
    REQUIRE(m.nodes.size() == 1);
    CHECK(m.nodes[0]->z(mm::ZONE_DMA32).present_pages == 2 * GIB - mm::MAX_DMA_PFN);
    CHECK_FALSE(m.nodes[0]->z(mm::ZONE_NORMAL).populated());
    CHECK(m.max_pfn == 2 * GIB);
}
