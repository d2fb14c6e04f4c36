// Every real capture in tests/fixtures/zoneinfo (sources in its README.md) is read, dated and checked: the
// formula family and page size check-zoneinfo settles on, and every pageset matched or explained by name.
#include "procfs/zoneinfo_check.hpp"
#include "procfs/zoneinfo_parse.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <set>

using namespace pcplab::procfs;

namespace
{

struct expected_fit {
    const char* file;
    const char* family; // its versions
    unsigned page_kib;
    int pagesets, matched, explained;
};

// The match table of the report to the lead: one row per capture.
const expected_fit k_table[] = {
    {"linux-2.6.14-rc5-git3-i386-highmem-1cpu.txt", "v2.6.13 .. v2.6.14", 4, 6, 6, 0},
    {"linux-2.6-i386-pae-12g-4cpu.txt", "v2.6.16 .. v2.6.24", 4, 24, 24, 0},
    {"linux-2.6.20-rc5-ppc64-2node-2cpu.txt", "v2.6.16 .. v2.6.24", 4, 4, 4, 0},
    {"linux-3.6.3-fc17-x86_64-12cpu.txt", "v2.6.25 .. v3.7", 4, 36, 36, 0},
    {"linux-4.0.5-i686-highmem-8cpu.txt", "v3.8 .. v4.18", 4, 24, 24, 0},
    {"linux-4.11-rc5-ppc64-64k-hotplug-1cpu.txt", "v3.8 .. v4.18", 64, 2, 2, 0},
    {"linux-4.14.65-arm-highmem-4cpu.txt", "v3.8 .. v4.18", 4, 8, 8, 0},
    {"linux-next-20181217-s390x-8cpu.txt", "v4.19 .. v5.13", 4, 16, 8, 8},
    {"linux-6.6-rc1-next-20230913-x86_64-2node-4cpu.txt", "v5.14 .. v6.6", 4, 16, 16, 0},
    {"linux-6.18-kvm-1node-2cpu.txt", "v6.7 .. v6.18", 4, 6, 6, 0},
    {"pcp-qa-meminfo-root-001.txt", "v3.8 .. v4.18", 4, 24, 24, 0},
    {"pcp-qa-meminfo-root-002.txt", "v3.8 .. v4.18", 4, 128, 128, 0},
    {"pcp-qa-meminfo-root-004.txt", "v3.8 .. v4.18", 4, 12, 12, 0},
    {"pcp-qa-meminfo-root-005.txt", "v3.8 .. v4.18", 4, 24, 24, 0},
    {"pcp-qa-meminfo-root-006.txt", "v3.8 .. v4.18", 4, 6, 4, 2},
    {"pcp-qa-meminfo-root-007.txt", "v5.14 .. v6.6", 4, 32, 32, 0},
};

const std::string dir = std::string(PCPLAB_TEST_FIXTURES) + "/zoneinfo/";

} // namespace

TEST_CASE("every real capture is read and every pageset matched or explained")
{
    for (const auto& row : k_table) {
        INFO(row.file);
        auto r = load_zoneinfo_file(dir + row.file);
        if (auto* e = std::get_if<pcplab::error>(&r)) FAIL(e->str());
        const auto& doc = std::get<zoneinfo_doc>(r);
        check_report rep = check_zoneinfo(doc, {});
        INFO(rep.text());
        REQUIRE(rep.family);
        CHECK(rep.family->versions() == row.family);
        CHECK(((1U << rep.page_shift) >> 10) == row.page_kib);
        CHECK(rep.total == row.pagesets);
        CHECK(rep.matched == row.matched);
        CHECK(rep.explained == row.explained);
        CHECK(rep.mismatched == 0);
        CHECK(rep.ok());
        // Nothing in a verbatim capture is unknown to the reader but the 2.6.14 patch's own line, which
        // is a "NAME VALUE" counter, kept as such.
        CHECK(doc.lines_skipped == 0);
    }
}

TEST_CASE("the table names every capture in the fixture folder")
{
    std::set<std::string> listed, found;
    for (const auto& row : k_table) listed.insert(row.file);
    for (const auto& e : std::filesystem::directory_iterator(dir))
        if (e.path().extension() == ".txt") found.insert(e.path().filename().string());
    CHECK(listed == found);
    CHECK(found.size() >= 16);
}

TEST_CASE("the s390 capture's Normal zone is explained by its 256 MiB early section")
{
    auto r = load_zoneinfo_file(dir + "linux-next-20181217-s390x-8cpu.txt");
    REQUIRE(std::holds_alternative<zoneinfo_doc>(r));
    check_report rep = check_zoneinfo(std::get<zoneinfo_doc>(r), {});
    REQUIRE(rep.zones.size() == 2);
    CHECK(rep.zones[1].zone == "Normal");
    CHECK(rep.zones[1].explained_by == explanation::early_sizing);
    CHECK(rep.zones[1].early_pages == 65536);
    CHECK(rep.zones[1].early_section_bytes == (256UL << 20));
    CHECK(rep.zones[1].explained_reason.find("one 256 MiB memory section (s390)") != std::string::npos);
}

TEST_CASE("a capture whose layout two families share says both")
{
    // v2.6.20-rc5 on ppc64: 145440 pages give batch 31 with v2.6.15's 256 KiB cap rounded up as with
    // v2.6.16's 512 KiB cap rounded down.
    auto r = load_zoneinfo_file(dir + "linux-2.6.20-rc5-ppc64-2node-2cpu.txt");
    REQUIRE(std::holds_alternative<zoneinfo_doc>(r));
    check_report rep = check_zoneinfo(std::get<zoneinfo_doc>(r), {});
    REQUIRE(rep.equally_good.size() == 1);
    CHECK(rep.equally_good[0].find("the v2.6.15 formulas") != std::string::npos);
    CHECK(rep.text().find("fits as well: the v2.6.15 formulas") != std::string::npos);
    // Node 1's pagesets block is empty: a populated zone with nothing to check, and said so.
    REQUIRE(rep.zones.size() == 2);
    CHECK(rep.zones[1].pagesets == 0);
    CHECK(rep.zones[1].notes.at(0).find("no pageset printed") != std::string::npos);
}
