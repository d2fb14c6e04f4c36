#include "mm/boot.hpp"
#include "mm/machine.hpp"
#include "procfs/zoneinfo_check.hpp"
#include "procfs/zoneinfo_print.hpp"

#include <catch2/catch.hpp>

#include <fstream>
#include <regex>
#include <sstream>

using namespace pcplab;
using namespace pcplab::procfs;

namespace
{

const std::string fixture_path = std::string(PCPLAB_TEST_FIXTURES) + "/zoneinfo/linux-6.18-kvm-1node-2cpu.txt";

std::string fixture()
{
    std::ifstream in(fixture_path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

zoneinfo_doc parse(const std::string& text)
{
    auto r = parse_zoneinfo(text, "test");
    if (auto* e = std::get_if<zoneinfo_error>(&r)) FAIL(e->str());
    return std::get<zoneinfo_doc>(r);
}

// Replace the n-th (0-based) occurrence of `line` in the text.
std::string replace_line(std::string text, const std::string& line, const std::string& with, int nth = 0)
{
    std::size_t at = 0;
    for (int i = 0; i <= nth; ++i) {
        at = text.find("\n" + line + "\n", i == 0 ? 0 : at + 1);
        REQUIRE(at != std::string::npos);
    }
    return text.replace(at + 1, line.size(), with);
}

bool ends_with(const std::string& s, const std::string& tail)
{
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

mm::kernel_version ver(const char* s)
{
    return *mm::kernel_version::parse(s);
}

// A two-node v5.4 machine shaped like seed 000's EPYC (small: 4 CPUs per node), printed with the pageset
// limits a kernel without "recalculate pcpu batch and high limits after init completes" leaves behind:
// the Normal zones still carry the limits of their first 128 MiB section (batch 7, high 42).
std::string seed000_zoneinfo()
{
    mm::machine_spec s;
    mm::node_spec n0, n1;
    n0.cpus = {0, 1, 2, 3};
    n0.memory = {{1, 159}, {256, 786432}, {1048576, 2097152}};
    n1.cpus = {4, 5, 6, 7};
    n1.memory = {{2097152, 4194304}};
    s.nodes = {n0, n1};
    mm::machine m(s, ver("v5.4"), mm::default_patches(ver("5.4.0-rc3")));
    auto set = [&](int nid, mm::zone_type t, unsigned long managed, int batch, int high) {
        mm::zone& z = m.nodes[static_cast<std::size_t>(nid)]->z(t);
        z.managed_pages = managed;
        for (auto& pcp : z.per_cpu_pageset) {
            pcp.batch = batch;
            pcp.high = high;
        }
    };
    set(0, mm::ZONE_DMA, 3977, 1, 0);
    set(0, mm::ZONE_DMA32, 770000, 63, 378);
    set(0, mm::ZONE_NORMAL, 1030000, 7, 42);
    set(1, mm::ZONE_NORMAL, 2060000, 7, 42);
    return zoneinfo_text(m);
}

} // namespace

TEST_CASE("the real 6.18 capture's pagesets all match the formulas")
{
    check_report rep = check_zoneinfo(parse(fixture()), {});
    INFO(rep.text());
    CHECK(rep.era.str() == "v6.13");
    CHECK(rep.era_note.find("high_min/high_max lines") != std::string::npos);
    CHECK(rep.total == 6); // 3 populated zones x 2 CPUs
    CHECK(rep.matched == 6);
    CHECK(rep.stale == 0);
    CHECK(rep.ok());
    REQUIRE(rep.zones.size() == 3);
    CHECK(rep.zones[0].expected_high_min == 37);
    CHECK(rep.zones[1].expected_high_max == 48307);
    CHECK(rep.zones[2].expected_high_min == 2905);
    CHECK(rep.zones[2].nr_split_cpus == 2);
    REQUIRE(rep.assumptions.size() >= 1);
    CHECK(rep.assumptions[0].find("one node: all 2 CPUs") != std::string::npos);
    // Only the auto-tuned high differs between the Normal zone's two pagesets.
    CHECK(rep.zones[2].mixed_fields == 2U);
    CHECK(rep.zones[1].found_uniform);
    CHECK(rep.text().find(" 63/63     2905/2905     18432/18432     17101* ") != std::string::npos);
    CHECK(ends_with(rep.text(), "\n6/6 pagesets match\n"));
}

TEST_CASE("a tampered pageset value in the capture is a mismatch")
{
    std::string text = replace_line(fixture(), "              batch:    63", "              batch:    31", 1);
    check_report rep = check_zoneinfo(parse(text), {});
    CHECK(rep.matched == 5);
    CHECK(rep.mismatched == 1);
    CHECK_FALSE(rep.ok());
    REQUIRE(rep.zones[1].notes.size() == 1);
    CHECK(rep.zones[1].notes[0].find("cpu 1") != std::string::npos);
    CHECK(rep.zones[1].notes[0].find("batch 31 (expected 63)") != std::string::npos);
    CHECK(ends_with(rep.text(), "\n5/6 pagesets match\n1/6 mismatch\n"));

    // A high_max above what the zone's managed pages give cannot be stale either.
    text = replace_line(fixture(), "              high_max: 18432", "              high_max: 20000");
    rep = check_zoneinfo(parse(text), {});
    CHECK(rep.mismatched == 1);
    CHECK(rep.stale == 0);
}

TEST_CASE("a high_max from a smaller managed count is stale, not a mismatch")
{
    std::string text = fixture();
    for (int cpu = 0; cpu < 2; ++cpu)
        text = replace_line(text, "              high_max: 18432", "              high_max: 18000");
    check_report rep = check_zoneinfo(parse(text), {});
    CHECK(rep.matched == 4);
    CHECK(rep.stale == 2);
    CHECK(rep.mismatched == 0);
    // (high_max = managed / 8 / 2 CPUs) = 18000 for managed 288000 .. 288015
    CHECK(rep.zones[2].stale_reason
        == "high_max computed before memory freed late in boot was added to managed (high_max matches managed "
           "288000..288015)");
    CHECK(ends_with(rep.text(), "\n4/6 pagesets match\n2/6 stale: " + rep.zones[2].stale_reason + "\n"));
}

TEST_CASE("v5.4 pagesets sized before deferred init completed are diagnosed as seed 000")
{
    check_report rep = check_zoneinfo(parse(seed000_zoneinfo()), {});
    INFO(rep.text());
    CHECK(rep.era.str() == "v5.4");
    CHECK(rep.era_note.find("v5.4 rules explain 32/32") != std::string::npos);
    CHECK(rep.era_note.find("used v5.4") != std::string::npos);
    CHECK(rep.total == 32);
    CHECK(rep.matched == 16);
    CHECK(rep.stale == 16);
    CHECK(rep.mismatched == 0);
    const std::string reason = "computed before deferred init completed \u2014 seed 000 (limits match managed 32768)";
    for (const auto& z : rep.zones)
        if (z.zone == "Normal") {
            CHECK(z.stale == 8);
            CHECK(z.stale_reason == reason);
            CHECK(z.expected_batch == 63);
            CHECK(z.found_batch == 7);
        }
    bool evenly = false;
    for (const auto& a : rep.assumptions) evenly |= a.find("divided evenly (4 per node)") != std::string::npos;
    CHECK(evenly);
    CHECK(ends_with(rep.text(), "\n16/32 pagesets match\n16/32 stale: " + reason + "\n"));
}

TEST_CASE("a tampered high in the v5.4 file is a mismatch, the stale zones stay stale")
{
    std::string text = replace_line(seed000_zoneinfo(), "              high:  378", "              high:  377", 2);
    check_report rep = check_zoneinfo(parse(text), {.cpus_per_node = {4, 4}});
    CHECK(rep.matched == 15);
    CHECK(rep.stale == 16);
    CHECK(rep.mismatched == 1);
    for (const auto& a : rep.assumptions) CHECK(a.find("divided evenly") == std::string::npos);
    CHECK(ends_with(rep.text(), "1/32 mismatch\n"));
}

TEST_CASE("an era given on the command line is used as is")
{
    check_options opt;
    opt.era = ver("v5.4");
    check_report rep = check_zoneinfo(parse(fixture()), opt);
    CHECK(rep.era_note.rfind("given: v5.4 (the layout suggests otherwise: high_min/high_max lines", 0) == 0);
    CHECK(rep.matched == 2); // DMA: batch 1, high 6 * 0; the others have v6.x highs
    CHECK(rep.mismatched == 4);

    opt.era = ver("v6.18"); // same formulas as the v6.13 the layout points at: no remark
    CHECK(check_zoneinfo(parse(fixture()), opt).era_note == "given: v6.18");
}

TEST_CASE("a v6.7 .. v6.11 layout is told apart from v5.17 .. v6.6 by its auto-tuned highs")
{
    // The capture without the lines v6.12/v6.13 added: boost but no promo, no high_min/high_max.
    std::string text = std::regex_replace(fixture(), std::regex("\n        promo +[0-9]+"), "");
    text = std::regex_replace(text, std::regex("\n              high_m(in|ax): +[0-9]+"), "");
    check_report rep = check_zoneinfo(parse(text), {});
    INFO(rep.text());
    CHECK(rep.era.str() == "v6.7");
    CHECK(rep.era_note.find("v5.17 rules explain 2/6, v6.7 rules explain 6/6: used v6.7") != std::string::npos);
    CHECK(rep.matched == 6);
    CHECK(rep.zones[0].compared == compared_fields::batch_high_in_range);

    // An auto-tuned high outside [high_min, high_max] is still caught.
    text = replace_line(text, "              high:     17101", "              high:     99999");
    rep = check_zoneinfo(parse(text), {});
    CHECK(rep.mismatched == 1);
}

TEST_CASE("check-zoneinfo agrees with the simulated boot of v5.4 with and without seed 000's fix")
{
    mm::machine_spec s;
    mm::node_spec n0, n1;
    n0.cpus = {0, 1};
    n0.memory = {{1, 159}, {256, 786432}, {1048576, 1310720}};
    n1.cpus = {2, 3};
    n1.memory = {{1310720, 1572864}};
    s.nodes = {n0, n1};
    for (const char* kernel : {"5.4.0-rc3", "5.4"}) {
        INFO(kernel);
        mm::machine m(s, ver("v5.4"), mm::default_patches(ver(kernel)));
        mm::boot(m);
        check_options opt;
        opt.cpus_per_node = {2, 2};
        check_report rep = check_zoneinfo(parse(zoneinfo_text(m)), opt);
        INFO(rep.text());
        CHECK(rep.total == 16);
        CHECK(rep.mismatched == 0);
        bool fixed = std::string(kernel) == "5.4";
        CHECK(rep.stale == (fixed ? 0 : 8)); // the two Normal zones x 4 CPUs (every zone has a pageset per CPU)
        if (!fixed)
            CHECK(ends_with(rep.text(),
                "8/16 stale: computed before deferred init completed \u2014 seed 000 "
                "(limits match managed 32768)\n"));
    }
}
