#include "core/session/session_test_support.hpp"

#include "session/engine_sampler.hpp"
#include "session/export.hpp"
#include "session/recorder.hpp"
#include "session/recording_reader.hpp"
#include "session/series.hpp"

#include "mm/patch_switches.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <map>
#include <sstream>

using namespace pcplab;

namespace
{

// A recording like `pcplab-cli run --record` makes: sampled every 100 us, /proc texts every 400 us of virtual
// time, pcp-high-autotune turned off half-way (a switch_flip event and limit changes).
void record_engine(const std::string& path)
{
    test::sampled_run p;
    p.flip_at = p.samples / 2;
    test::record_sampled(path, p);
}

std::vector<std::string> lines_of(const std::string& text)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) out.push_back(l);
    return out;
}

} // namespace

TEST_CASE("the Perfetto trace has the phases, fields and per-track nesting the format requires")
{
    test::scratch_file f("trace.db");
    record_engine(f.path());
    session::recording rec(f.path());
    const auto j = nlohmann::json::parse(session::export_trace(rec, session::pick_run(rec)));
    REQUIRE(j.contains("traceEvents"));
    CHECK(j["displayTimeUnit"] == "ns");
    CHECK(j["otherData"]["preset"] == "test-preset");

    std::map<std::string, int> phases;
    std::map<std::pair<long, long>, std::vector<std::pair<double, double>>> slices; // (pid, tid) -> [ts, end)
    std::map<long, std::string> process_names;
    std::map<long, std::string> thread_names;
    int lock_holds = 0, counters_with_all = 0, switch_flips = 0;
    for (const auto& ev : j["traceEvents"]) {
        REQUIRE(ev.contains("ph"));
        REQUIRE(ev.contains("name"));
        REQUIRE(ev.contains("pid"));
        REQUIRE(ev.contains("tid"));
        const std::string ph = ev["ph"];
        phases[ph] += 1;
        if (ph == "M") {
            if (ev["name"] == "process_name") process_names[ev["pid"]] = ev["args"]["name"];
            if (ev["name"] == "thread_name") thread_names[ev["tid"]] = ev["args"]["name"];
            continue;
        }
        REQUIRE(ev.contains("ts"));
        REQUIRE(ev["ts"].is_number());
        CHECK(ev["ts"].get<double>() >= 0);
        if (ph == "X") {
            REQUIRE(ev.contains("dur"));
            CHECK(ev["dur"].get<double>() >= 0);
            const double ts = ev["ts"], end = ts + ev["dur"].get<double>();
            slices[{ev["pid"], ev["tid"]}].emplace_back(ts, end);
            if (ev["cat"] == "zone_lock") ++lock_holds;
        } else if (ph == "C") {
            const auto& a = ev["args"];
            if (a.contains("count") && a.contains("high") && a.contains("batch")) ++counters_with_all;
        } else if (ph == "i") {
            REQUIRE(ev.contains("s"));
            const std::string s = ev["s"];
            CHECK((s == "g" || s == "p" || s == "t"));
            if (ev["name"] == "switch_flip") ++switch_flips;
        } else {
            FAIL("unexpected phase " << ph);
        }
    }
    CHECK(phases["M"] > 0);
    CHECK(phases["X"] > 0);
    CHECK(phases["C"] > 0);
    CHECK(phases["i"] > 0);
    int zone_holds = 0;
    for (const auto& sn : rec.load_all(1))
        for (const auto& h : sn->holds) zone_holds += h.kind == mm::lock_kind::zone_lock;
    CHECK(zone_holds > 0);
    CHECK(lock_holds == zone_holds); // every recorded zone->lock hold is drawn on its lock's track
    CHECK(counters_with_all == phases["C"]);
    CHECK(switch_flips == 1);
    CHECK(process_names.at(1) == "Node 0");
    CHECK(process_names.at(2) == "Node 1");
    CHECK(thread_names.at(1) == "CPU 0");
    CHECK(thread_names.at(100000 + 8 + 2) == "zone->lock Node 1 Normal"); // node 0 of the test machine has no Normal

    // Per track, complete events nest: any two are disjoint or one contains the other. Times are compared
    // in whole nanoseconds (the trace writes microseconds with three decimals).
    int checked = 0;
    for (auto& [track, v] : slices) {
        std::sort(v.begin(), v.end(),
            [](auto a, auto b) { return a.first < b.first || (a.first == b.first && a.second > b.second); });
        std::vector<long long> open_ends;
        for (const auto& [ts, end] : v) {
            const long long s = std::llround(ts * 1000), e = std::llround(end * 1000);
            while (!open_ends.empty() && open_ends.back() <= s) open_ends.pop_back();
            INFO("track pid " << track.first << " tid " << track.second << " slice at " << s << " ns");
            if (!open_ends.empty()) CHECK(e <= open_ends.back());
            open_ends.push_back(e);
            ++checked;
        }
    }
    CHECK(checked == phases["X"]);
}

TEST_CASE("the trace nesting check catches overlapping holds")
{
    // The check above must be able to fail: two holds that overlap without nesting on one lock track.
    std::vector<std::pair<long long, long long>> v = {{0, 100}, {50, 150}};
    std::vector<long long> open_ends;
    bool nested = true;
    for (const auto& [s, e] : v) {
        while (!open_ends.empty() && open_ends.back() <= s) open_ends.pop_back();
        if (!open_ends.empty() && e > open_ends.back()) nested = false;
        open_ends.push_back(e);
    }
    CHECK_FALSE(nested);
}

TEST_CASE("CSV of a series has one column per zone and one row per snapshot")
{
    test::scratch_file f("csv.db");
    record_engine(f.path());
    session::recording rec(f.path());
    const auto lines = lines_of(session::export_csv(rec, "high"));
    REQUIRE(lines.size() == 1 + 12);
    CHECK(lines[0] == "run,t_ns,Node 0 DMA,Node 0 DMA32,Node 1 Normal");
    const auto snaps = rec.load_all(1);
    // Row 3 (the third snapshot): the zones' high as the snapshot has it.
    std::ostringstream want;
    want << "1," << snaps[2]->sim_time_ns;
    for (const auto& z : snaps[2]->zones) want << "," << z.high;
    CHECK(lines[3] == want.str());

    const auto all = lines_of(session::export_csv(rec, ""));
    CHECK(all[0].rfind("run,t_ns,allocs,frees,", 0) == 0);
    CHECK(all[0].find(",high[Node 1 Normal],") != std::string::npos);
    CHECK_THROWS_AS(session::export_csv(rec, "no-such-series"), std::invalid_argument);
}

TEST_CASE("zoneinfo and buddyinfo come in mmtests monitor framing")
{
    test::scratch_file f("procfs.db");
    record_engine(f.path());
    session::recording rec(f.path());
    const auto text = session::export_procfs(rec, 1, "zoneinfo");
    const auto lines = lines_of(text);
    REQUIRE(!lines.empty());
    CHECK(lines[0] == "time: " + std::to_string(rec.created_epoch()));
    CHECK(lines[1].rfind("Node 0, zone      DMA", 0) == 0);
    int frames = 0;
    for (const auto& l : lines) frames += l.rfind("time: ", 0) == 0;
    CHECK(frames == 4); // snapshots 1, 5, 9 and the last (12)
    const auto buddy = lines_of(session::export_procfs(rec, 1, "buddyinfo"));
    CHECK(buddy[0].rfind("time: ", 0) == 0);
    CHECK(buddy[1].rfind("Node 0, zone      DMA ", 0) == 0);
    CHECK_THROWS_AS(session::export_procfs(rec, 1, "meminfo"), session::recording_error);
}

TEST_CASE("the lock_stat summary has the kernel's header and the zone locks' figures")
{
    test::scratch_file f("lockstat.db");
    record_engine(f.path());
    session::recording rec(f.path());
    const auto lines = lines_of(session::export_lockstat(rec, 1));
    REQUIRE(lines.size() > 5);
    CHECK(lines[0] == "lock_stat version 0.4");
    CHECK(lines[1] == std::string(221, '-'));
    CHECK(lines[2].size() == 40 + 12 * 15);
    CHECK(lines[2].find("class name    con-bounces    contentions   waittime-min") != std::string::npos);
    CHECK(lines[2].substr(lines[2].size() - 14) == "  holdtime-avg");
    const auto last = rec.load_all(1).back();
    // The busiest zone lock's line: its acquisitions and total hold in us with two decimals.
    const sim::zone_snapshot* z = nullptr;
    for (const auto& x : last->zones)
        if (!z || x.lock.m.contended > z->lock.m.contended) z = &x;
    REQUIRE(z->lock.m.acquisitions > 0);
    std::string line;
    for (const auto& l : lines)
        if (l.find(":") == 40 && l.find("&zone->lock") != std::string::npos) {
            line = l;
            break;
        }
    REQUIRE(!line.empty());
    CHECK(line.find(" " + std::to_string(z->lock.m.acquisitions) + " ") != std::string::npos);
    char total[32];
    std::snprintf(total, sizeof total, "%llu.%02llu", (unsigned long long)((z->lock.m.hold_ns_total + 5) / 1000),
        (unsigned long long)(((z->lock.m.hold_ns_total + 5) % 1000) / 10));
    CHECK(line.find(total) != std::string::npos);
}

TEST_CASE("series names are known and refused when unknown")
{
    CHECK(session::find_series("contention_pct_recent"));
    CHECK(session::find_series("contention_pct_recent")->per_zone);
    CHECK_FALSE(session::find_series("allocs")->per_zone);
    CHECK(session::find_series("nope") == nullptr);
    CHECK(session::series_names_text().find("batch, high,") != std::string::npos);
}
