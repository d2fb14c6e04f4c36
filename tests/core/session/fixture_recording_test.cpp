// A recording written by an earlier build (schema 1, snapshot encoding 1) must stay readable: when the
// snapshot grows a field, the new encoding is added beside the old one, never instead of it.
#include "core/session/session_test_support.hpp"

#include "session/compare.hpp"
#include "session/export.hpp"
#include "session/recording_reader.hpp"

#include "procfs/procfs_texts.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace pcplab;

TEST_CASE("a schema-1 recording from the fixtures opens, replays and compares")
{
    test::scratch_file f("fixture.db");
    REQUIRE(test::copy_v1_fixture(f.path()));
    session::recording rec(f.path());
    CHECK(rec.meta("schema_version") == "1");
    CHECK(rec.meta("snapshot_encoding") == "1");
    CHECK(rec.meta("source") == "pcplab-cli run");
    REQUIRE(rec.runs().size() == 2); // --repeat 2
    const auto& r = rec.runs()[1];
    CHECK(r.preset == "classroom");
    CHECK(r.era == "v5.4");
    CHECK(r.workload == "kernbench");
    CHECK(r.seed == 2);
    CHECK(r.nr_cpus == 8);
    CHECK(r.finished);

    const auto snaps = rec.load_all(r.run);
    REQUIRE(snaps.size() == r.snapshots_written);
    const sim::snapshot& last = *snaps.back();
    // Schema 1 kept a row per hold: the whole run's pass and one snapshot read by itself (by rowid) agree.
    std::uint64_t holds = 0;
    for (const auto& s : snaps) holds += s->holds.size();
    CHECK(holds == r.holds_written);
    CHECK(holds > 0);
    for (const auto& s : snaps) {
        const auto one = rec.load(r.run, s->seq);
        REQUIRE(one);
        CHECK(one->holds.size() == s->holds.size());
    }
    CHECK(last.zones.size() == 4);
    CHECK(last.pcp.size() == 4 * 8);
    REQUIRE(last.procfs);
    CHECK(last.procfs->zoneinfo().rfind("Node 0, zone      DMA", 0) == 0);
    // The blob agrees with the summary the engine wrote at the end of the same run.
    const auto summary = nlohmann::json::parse(r.summary_json);
    CHECK(last.totals.allocs == summary["totals"]["allocs"].get<std::uint64_t>());
    CHECK(last.sys_ns_total() == summary["totals"]["sys_ns"].get<std::uint64_t>());
    CHECK(last.zones[2].lock.m.acquisitions == summary["zones"][2]["lock"]["acquisitions"].get<std::uint64_t>());
    // Encoding 1 predates the count of long waits: it reads as none, and the summary of the time has no key.
    CHECK(last.zones[2].lock.m.waits_over_threshold == 0);
    CHECK_FALSE(summary["zones"][2]["lock"].contains("waits_over_threshold"));
    // Encoding 3 put the boot on the time axis; before it, virtual time 0 was the workload's start: no boot
    // instants.
    CHECK(last.boot.workload_start_ns == 0);
    CHECK(last.boot.init_end_ns == 0);
    CHECK_FALSE(summary.contains("boot_times"));

    // Recorded with the five seed switches: the header names five, and the blob's switches added since read as
    // the recorded era's default (docs/recording-schema.md); v5.4 has none of them.
    CHECK(r.switches.size() == 5);
    const mm::patch_set v54 = mm::default_patches(last.era);
    for (const auto& [name, on] : r.switches) {
        INFO(name);
        const auto p = mm::patch_from_name(name);
        REQUIRE(p);
        CHECK(static_cast<unsigned>(*p) < 5);
        CHECK(last.patches[*p] == on);
    }
    for (unsigned i = 5; i < mm::NR_PATCHES; ++i) CHECK(last.patches.on[i] == v54.on[i]);

    const auto cols = session::compare_inputs_from(rec);
    REQUIRE(cols.size() == 1);
    CHECK(cols[0].runs.size() == 2);
    CHECK(nlohmann::json::parse(session::export_trace(rec, r.run)).contains("traceEvents"));
}
