#include "procfs/zoneinfo_parse.hpp"

#include <catch2/catch.hpp>

#include <fstream>
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

zoneinfo_error error_of(const std::string& text)
{
    auto r = parse_zoneinfo(text, "zi.txt");
    REQUIRE(std::holds_alternative<zoneinfo_error>(r));
    return std::get<zoneinfo_error>(r);
}

} // namespace

TEST_CASE("the real 6.18 capture parses into its zones, counters and pagesets")
{
    auto r = load_zoneinfo_file(fixture_path);
    if (auto* e = std::get_if<zoneinfo_error>(&r)) FAIL(e->str());
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
    CHECK(e.file == "zi.txt");
    CHECK(e.line == 0);
    CHECK(e.message.find("empty") != std::string::npos);
    CHECK(e.str().rfind("zi.txt: ", 0) == 0);
    CHECK(error_of("\n\n").line == 0);
}

TEST_CASE("text that is not zoneinfo is refused at its first line")
{
    auto e = error_of("MemTotal:       16384256 kB\nMemFree:         1234 kB\n");
    CHECK(e.line == 1);
    CHECK(e.message.find("before any 'Node N, zone NAME' header") != std::string::npos);
    CHECK(e.str().rfind("zi.txt:1: ", 0) == 0);
}

TEST_CASE("pagesets before any zone header are refused")
{
    auto e = error_of("  pagesets\n    cpu: 0\n              count: 0\n");
    CHECK(e.line == 1);
}

TEST_CASE("a garbage line inside a zone is refused with its line number")
{
    auto lines = lines_of(fixture());
    int at = line_no(lines, "  pagesets", 60);
    lines.insert(lines.begin() + at, "  %%% garbage %%%");
    auto e = error_of(join(lines, lines.size()));
    CHECK(e.line == at + 1);
    CHECK(e.message.find("unrecognised line") != std::string::npos);
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
}

TEST_CASE("a pageset cut after count and high is refused as truncated")
{
    auto lines = lines_of(fixture());
    int cpu0 = line_no(lines, "    cpu: 0", line_no(lines, "Node 0, zone    DMA32"));
    int high = cpu0 + 2; // cpu, count, high
    REQUIRE(lines[static_cast<std::size_t>(high - 1)] == "              high:     7615");
    auto e = error_of(join(lines, static_cast<std::size_t>(high)));
    CHECK(e.line == high);
    CHECK(e.message.find("pageset of cpu 0 in Node 0, zone DMA32") != std::string::npos);
    CHECK(e.message.find("no 'batch:'") != std::string::npos);

    // The same hole in the middle of the file: the next "cpu:" line closes the broken record.
    lines.erase(lines.begin() + high); // drop the batch line of cpu 0
    e = error_of(join(lines, lines.size()));
    CHECK(e.line == high + 3); // its high_min, high_max and threshold lines still belong to it
    CHECK(e.message.find("no 'batch:'") != std::string::npos);
}

TEST_CASE("a zone cut short is refused")
{
    auto lines = lines_of(fixture());
    int pages_free = line_no(lines, "  pages free     772915");
    auto e = error_of(join(lines, static_cast<std::size_t>(pages_free)));
    CHECK(e.line == pages_free);
    CHECK(e.message.find("Node 0, zone DMA32 (line " + std::to_string(pages_free - 1) + ") has no 'min' line")
        != std::string::npos);

    // A populated zone whose record ends after its counters, before the pagesets.
    int numa_other = line_no(lines, "      numa_other   0", pages_free);
    e = error_of(join(lines, static_cast<std::size_t>(numa_other)));
    CHECK(e.line == numa_other);
    CHECK(e.message.find("no pagesets") != std::string::npos);

    // Cut after the last pageset, before start_pfn.
    int last_threshold = line_no(lines, "  node_unreclaimable:  0", pages_free) - 1;
    e = error_of(join(lines, static_cast<std::size_t>(last_threshold)));
    CHECK(e.message.find("no 'start_pfn:' line") != std::string::npos);
}

TEST_CASE("pageset fields outside a pageset are refused")
{
    auto lines = lines_of(fixture());
    int pagesets = line_no(lines, "  pagesets");
    lines.erase(lines.begin() + pagesets); // the first "cpu: 0"
    auto e = error_of(join(lines, lines.size()));
    CHECK(e.line == pagesets + 1);
    CHECK(e.message.find("outside a pageset") != std::string::npos);
}

TEST_CASE("a file that cannot be opened is an error naming it")
{
    auto r = load_zoneinfo_file("/nonexistent/zoneinfo");
    REQUIRE(std::holds_alternative<zoneinfo_error>(r));
    CHECK(std::get<zoneinfo_error>(r).str().rfind("/nonexistent/zoneinfo: cannot open", 0) == 0);
}
