#include "procfs/zoneinfo_parse.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <regex>
#include <sstream>

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

std::vector<std::string> lines_of(const std::string& text)
{
    std::vector<std::string> out;
    std::stringstream ss(text);
    std::string l;
    while (std::getline(ss, l)) out.push_back(l);
    return out;
}

std::string join(const std::vector<std::string>& lines, std::size_t n)
{
    std::string s;
    for (std::size_t i = 0; i < n && i < lines.size(); ++i) s += lines[i] + "\n";
    return s;
}

// 1-based number of the first line equal to `line` at or after line `from`.
int line_no(const std::vector<std::string>& lines, const std::string& line, int from = 1)
{
    for (std::size_t i = static_cast<std::size_t>(from - 1); i < lines.size(); ++i)
        if (lines[i] == line) return static_cast<int>(i + 1);
    FAIL("no line '" << line << "'");
    return 0;
}

pcplab::error error_of(const std::string& text)
{
    auto r = parse_zoneinfo(text, "zi.txt");
    REQUIRE(std::holds_alternative<pcplab::error>(r));
    return std::get<pcplab::error>(r);
}

} // namespace

TEST_CASE("the real 6.18 capture parses into its zones, counters and pagesets")
{
    auto r = load_zoneinfo_file(fixture_path);
    if (auto* e = std::get_if<pcplab::error>(&r)) FAIL(e->str());
    const auto& doc = std::get<zoneinfo_doc>(r);
    REQUIRE(doc.zones.size() == 5);
    CHECK(doc.nr_nodes() == 1);
    CHECK(doc.nr_cpus() == 2);
    const char* names[] = {"DMA", "DMA32", "Normal", "Movable", "Device"};
    for (std::size_t i = 0; i < 5; ++i) CHECK(doc.zones[i].name == names[i]);

    const auto& dma = doc.zones[0];
    CHECK(dma.line == 1);
    CHECK(dma.node_stats.size() == 51);
    CHECK(dma.node_stats.at("nr_file_pages") == 222310);
    CHECK(dma.managed == 3840);
    CHECK(dma.low == 75);
    CHECK(dma.promo == 105);
    CHECK(dma.boost == 0);
    CHECK(dma.protection == std::vector<long>{0, 3019, 4171, 4171, 4171});
    CHECK(dma.stats.at("nr_free_pages_blocks") == 3584);
    CHECK(dma.start_pfn == 1);

    const auto& normal = doc.zones[2];
    CHECK(normal.node_stats.empty());
    CHECK(normal.spanned == 5505024);
    CHECK(normal.stats.at("numa_hit") == 1942383);
    REQUIRE(normal.pagesets.size() == 2);
    const auto& cpu1 = normal.pagesets[1];
    CHECK(cpu1.cpu == 1);
    CHECK(cpu1.count == 7028);
    CHECK(cpu1.high == 17539);
    CHECK(cpu1.batch == 63);
    CHECK(cpu1.high_min == 2905);
    CHECK(cpu1.high_max == 18432);
    CHECK(cpu1.stat_threshold == 20);
    CHECK(normal.node_unreclaimable == 0);

    const auto& movable = doc.zones[3];
    CHECK_FALSE(movable.populated());
    CHECK(movable.min == 32);
    CHECK(movable.pagesets.empty());
    CHECK_FALSE(movable.start_pfn);
}

TEST_CASE("stat lines the parser does not know are kept, not refused")
{
    auto lines = lines_of(fixture());
    int at = line_no(lines, "      nr_zspages   0");
    lines.insert(lines.begin() + at, "      nr_counter_from_the_future 42");
    lines.insert(lines.begin() + 2, "      per_node_thing 7"); // inside the per-node block
    auto r = parse_zoneinfo(join(lines, lines.size()), "zi.txt");
    REQUIRE(std::holds_alternative<zoneinfo_doc>(r));
    const auto& doc = std::get<zoneinfo_doc>(r);
    CHECK(doc.zones[0].stats.at("nr_counter_from_the_future") == 42);
    CHECK(doc.zones[0].node_stats.at("per_node_thing") == 7);
}

TEST_CASE("a v4.19 per-node block with the blank-named hidden counter parses")
{
    std::string text = "Node 0, zone      DMA\n  per-node stats\n      nr_written   5\n                   0\n"
                       "  pages free     1\n        min      1\n        low      1\n        high     1\n"
                       "        spanned  1\n        present  0\n        managed  0\n"
                       "        protection: (0, 0, 0, 0, 0)\n";
    auto r = parse_zoneinfo(text, "v419.txt");
    REQUIRE(std::holds_alternative<zoneinfo_doc>(r));
    CHECK(std::get<zoneinfo_doc>(r).zones[0].node_stats.at("nr_written") == 5);
}

TEST_CASE("an empty file is an error naming the file")
{
    auto e = error_of("");
    CHECK(e.source == "zi.txt");
    CHECK(e.line == 0);
    CHECK(e.message.find("empty") != std::string::npos);
    CHECK(e.str().rfind("zi.txt: ", 0) == 0);
    CHECK(error_of("\n\n").line == 0);
}

TEST_CASE("text with no zone header at all is refused as not zoneinfo")
{
    auto e = error_of("MemTotal:       16384256 kB\nMemFree:         1234 kB\n");
    CHECK(e.line == 0);
    CHECK(e.message.find("not a /proc/zoneinfo file") != std::string::npos);
    CHECK(e.str().rfind("zi.txt: ", 0) == 0);
    // Pageset lines with no zone before them are no zone either.
    CHECK(error_of("  pagesets\n    cpu: 0\n              count: 0\n").message.find("no 'Node N, zone NAME'")
        != std::string::npos);
}

TEST_CASE("an unrecognised line is skipped and counted, not refused")
{
    auto lines = lines_of(fixture());
    int at = line_no(lines, "  pagesets", 60);
    lines.insert(lines.begin() + at, "  %%% garbage %%%");
    lines.insert(lines.begin() + at + 1, "  colour blue red");
    auto r = parse_zoneinfo(join(lines, lines.size()), "zi.txt");
    REQUIRE(std::holds_alternative<zoneinfo_doc>(r));
    const auto& doc = std::get<zoneinfo_doc>(r);
    CHECK(doc.lines_skipped == 2);
    CHECK(doc.skipped_at == std::vector<int>{at + 1, at + 2});
    CHECK(doc.skipped_text()
        == "2 unrecognised lines skipped (lines " + std::to_string(at + 1) + ", " + std::to_string(at + 2) + ")");
    CHECK(doc.zones.size() == 5);
    CHECK(doc.zones[1].pagesets.size() == 2);
}

TEST_CASE("a shell prompt before the capture and mail text after it are skipped")
{
    std::string text = "root@host:~# cat /proc/zoneinfo\n" + fixture() + "\n-- \nBest regards,\nA. Tester\n";
    auto r = parse_zoneinfo(text, "zi.txt");
    REQUIRE(std::holds_alternative<zoneinfo_doc>(r));
    const auto& doc = std::get<zoneinfo_doc>(r);
    CHECK(doc.zones.size() == 5);
    CHECK(doc.zones[0].line == 2);
    CHECK(doc.lines_skipped == 4);
    // A buddyinfo line pasted beside it begins like a zone header but is not one.
    r = parse_zoneinfo(fixture() + "Node 0, zone   Normal    486    297    143\n", "zi.txt");
    REQUIRE(std::holds_alternative<zoneinfo_doc>(r));
    CHECK(std::get<zoneinfo_doc>(r).lines_skipped == 1);
}

TEST_CASE("a capture indented, with tabs, CRLF and a byte-order mark reads as the original")
{
    const auto plain = std::get<zoneinfo_doc>(parse_zoneinfo(fixture(), "zi.txt"));
    std::string shifted;
    for (const auto& l : lines_of(fixture())) shifted += "    \t" + l + "\r\n";
    auto r = parse_zoneinfo("\xEF\xBB\xBF" + shifted, "zi.txt");
    REQUIRE(std::holds_alternative<zoneinfo_doc>(r));
    const auto& doc = std::get<zoneinfo_doc>(r);
    REQUIRE(doc.zones.size() == plain.zones.size());
    for (std::size_t i = 0; i < doc.zones.size(); ++i) {
        CHECK(doc.zones[i].managed == plain.zones[i].managed);
        CHECK(doc.zones[i].stats == plain.zones[i].stats);
        CHECK(doc.zones[i].node_stats == plain.zones[i].node_stats);
        REQUIRE(doc.zones[i].pagesets.size() == plain.zones[i].pagesets.size());
        for (std::size_t p = 0; p < doc.zones[i].pagesets.size(); ++p)
            CHECK(doc.zones[i].pagesets[p].high_max == plain.zones[i].pagesets[p].high_max);
    }
    CHECK(doc.lines_skipped == 0);
    auto has_note = [&](const std::string& n) {
        return std::any_of(
            doc.notes.begin(), doc.notes.end(), [&](const std::string& x) { return x.find(n) != std::string::npos; });
    };
    CHECK(has_note("byte-order mark"));
    CHECK(has_note("CRLF"));
    CHECK(has_note("indented by 5"));
}

TEST_CASE("several dumps in one file: the last one is read")
{
    // pcplab-cli export --format zoneinfo and mmtests write "time: N" before each dump.
    std::string text = "time: 1700000000\n" + fixture() + "time: 1700000001\n"
        + std::regex_replace(fixture(), std::regex("pages free     772915"), "pages free     700000");
    auto r = parse_zoneinfo(text, "zi.txt");
    REQUIRE(std::holds_alternative<zoneinfo_doc>(r));
    const auto& doc = std::get<zoneinfo_doc>(r);
    REQUIRE(doc.zones.size() == 5);
    CHECK(doc.zones[1].pages_free == 700000);
    REQUIRE_FALSE(doc.notes.empty());
    CHECK(doc.notes.back().find("2 dumps in one file") != std::string::npos);
    // Two cats one after the other, without framing: a zone seen again starts the second dump.
    r = parse_zoneinfo(fixture() + fixture(), "zi.txt");
    REQUIRE(std::holds_alternative<zoneinfo_doc>(r));
    CHECK(std::get<zoneinfo_doc>(r).zones.size() == 5);
}

TEST_CASE("a v2.6 capture: hot and cold lists, low lines, scan counts and no managed line")
{
    std::string text = "Node 0, zone   Normal\n  pages free     11121\n        min      939\n        low      1173\n"
                       "        high     1408\n        active   151351\n        scanned  0 (a: 0 i: 0)\n"
                       "        spanned  225280\n        present  225280\n        protection: (0, 0, 948)\n"
                       "  pagesets\n    cpu: 0 pcp: 0\n              count: 121\n              low:   62\n"
                       "              high:  186\n              batch: 31\n    cpu: 0 pcp: 1\n"
                       "              count: 1\n              low:   0\n              high:  62\n"
                       "              batch: 31\n  vm stats threshold: 24\n  all_unreclaimable: 0\n"
                       "  prev_priority:     12\n  start_pfn:         4096\n";
    auto r = parse_zoneinfo(text, "old.txt");
    REQUIRE(std::holds_alternative<zoneinfo_doc>(r));
    const auto& doc = std::get<zoneinfo_doc>(r);
    const auto& z = doc.zones.at(0);
    CHECK_FALSE(z.has_managed);
    CHECK(z.managed == 225280); // present stands in for it
    CHECK(z.stats.at("active") == 151351);
    CHECK(z.stats.at("scanned") == 0);
    REQUIRE(z.pagesets.size() == 2);
    CHECK(z.pagesets[0].pcp == 0);
    CHECK(z.pagesets[0].low == 62);
    CHECK(z.pagesets[1].pcp == 1);
    CHECK(z.pagesets[1].high == 62);
    CHECK(z.pagesets[0].stat_threshold == 24); // the threshold line follows both lists of the CPU
    CHECK(z.pagesets[1].stat_threshold == 24);
    CHECK(z.tail.at("prev_priority") == 12);
    CHECK(doc.has(layout_mark::hot_cold_lists));
    CHECK(doc.has(layout_mark::pcp_low));
    CHECK_FALSE(doc.has(layout_mark::managed_line));
    CHECK(doc.lines_skipped == 0);
}

TEST_CASE("an empty pagesets block is a zone with no pageset")
{
    // Before v2.6.25 a CPU whose lists were all empty was left out, so "pagesets" can have nothing under it.
    std::string text = "Node 1, zone      DMA\n  pages free     109610\n        min      444\n        low      555\n"
                       "        high     666\n        spanned  114688\n        present  113120\n"
                       "        protection: (0, 0)\n  pagesets\n  all_unreclaimable: 0\n  start_pfn:         147456\n";
    auto r = parse_zoneinfo(text, "ppc.txt");
    REQUIRE(std::holds_alternative<zoneinfo_doc>(r));
    const auto& z = std::get<zoneinfo_doc>(r).zones.at(0);
    CHECK(z.populated());
    CHECK(z.pagesets.empty());
    CHECK(z.start_pfn == 147456);
}

TEST_CASE("a malformed zone header is refused")
{
    auto e = error_of("Node zero, zone DMA\n");
    CHECK(e.line == 1);
    CHECK(e.message.find("malformed zone header") != std::string::npos);
}

TEST_CASE("a number that does not parse is refused with the line it is on")
{
    auto lines = lines_of(fixture());
    int at = line_no(lines, "        managed  772915");
    lines[static_cast<std::size_t>(at - 1)] = "        managed  77x915";
    auto e = error_of(join(lines, lines.size()));
    CHECK(e.line == at);
    CHECK(e.message.find("'managed' expects a number") != std::string::npos);

    lines = lines_of(fixture());
    at = line_no(lines, "              high_max: 18432");
    lines[static_cast<std::size_t>(at - 1)] = "              high_max: 99999999999999999999999";
    e = error_of(join(lines, lines.size()));
    CHECK(e.line == at);
    CHECK(e.message.find("'high_max:' expects a number") != std::string::npos);

    // A counter whose value starts like a number but is not one.
    lines = lines_of(fixture());
    at = line_no(lines, "      nr_zspages   0");
    lines[static_cast<std::size_t>(at - 1)] = "      nr_zspages   -";
    e = error_of(join(lines, lines.size()));
    CHECK(e.line == at);
    CHECK(e.message.find("not a number") != std::string::npos);
}

TEST_CASE("a pageset cut short is left out with a note")
{
    auto lines = lines_of(fixture());
    int cpu0 = line_no(lines, "    cpu: 0", line_no(lines, "Node 0, zone    DMA32"));
    int high = cpu0 + 2; // cpu, count, high
    REQUIRE(lines[static_cast<std::size_t>(high - 1)] == "              high:     7615");
    auto r = parse_zoneinfo(join(lines, static_cast<std::size_t>(high)), "zi.txt");
    REQUIRE(std::holds_alternative<zoneinfo_doc>(r));
    const auto& doc = std::get<zoneinfo_doc>(r);
    REQUIRE(doc.zones.size() == 2);
    CHECK(doc.zones[1].pagesets.empty());
    REQUIRE_FALSE(doc.notes.empty());
    CHECK(doc.notes[0].find("the pageset of cpu 0 in Node 0, zone DMA32") != std::string::npos);
    CHECK(doc.notes[0].find("no 'batch:' line") != std::string::npos);
    CHECK(doc.notes[0].rfind("line " + std::to_string(cpu0) + ":", 0) == 0);
}

TEST_CASE("one zone pasted alone, or its header only, is a partial record with a note")
{
    // A mail quoting the watermarks of one zone.
    auto r = parse_zoneinfo("Node 0, zone   Normal\n        min      10191\n", "mail.txt");
    REQUIRE(std::holds_alternative<zoneinfo_doc>(r));
    const auto& doc = std::get<zoneinfo_doc>(r);
    REQUIRE(doc.zones.size() == 1);
    CHECK(doc.zones[0].min == 10191);
    CHECK_FALSE(doc.zones[0].populated()); // its size is not known: nothing to check
    REQUIRE(doc.notes.size() == 1);
    CHECK(doc.notes[0].find("has no 'pages free', 'low', 'high', 'present' line") != std::string::npos);
}

TEST_CASE("a file that cannot be opened is an error naming it")
{
    auto r = load_zoneinfo_file("/nonexistent/zoneinfo");
    REQUIRE(std::holds_alternative<pcplab::error>(r));
    CHECK(std::get<pcplab::error>(r).str().rfind("/nonexistent/zoneinfo: cannot open", 0) == 0);
}
