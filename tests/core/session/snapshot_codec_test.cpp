#include "core/session/session_test_support.hpp"
#include "core/session/snapshot_diff.hpp"

#include "session/byte_codec.hpp"
#include "session/snapshot_codec.hpp"

#include <catch2/catch.hpp>

#include <random>

using namespace pcplab;

namespace
{

// A snapshot with every optional and rarely-set field given a value, on top of a real engine's state.
sim::snapshot rich_snapshot()
{
    auto snaps = test::engine_snapshots(3);
    sim::snapshot s = *snaps.back();
    s.side = 1;
    s.state = sim::run_state::failed;
    s.error = "boom: \"quoted\"\nsecond line";
    s.run.speed = 1.5e9;
    s.run.events_per_s = 12345.678;
    s.run.vns_per_s = 0.1;
    s.run.behind = true;
    s.run.generation = 7;
    s.run.commands_done_through = 42;
    s.preset = "classroom";
    s.era.rc = 3;
    s.patches.init_threads = 4;
    s.intensity = 0.3;
    s.seed = UINT64_MAX;
    s.events_dropped = 3;
    s.holds_dropped = 9;
    s.score.unit = "iterations";
    s.score.seed_measure = "elapsed";
    s.score.seed_measure_value = -2.5;
    s.run.boot_speed = 2.5e8;
    s.deferred_init.push_back({1, 4, 100, 200, false, 1.25, 3.5, true, 150, 0.75, 4'000'000});
    s.boot = {1'000'000, 5'000'000, 5'000'001};
    s.procfs = procfs::procfs_texts::from_texts("Node 0, zone      DMA\n", "");
    s.procfs_time_ns = 12345;
    s.totals.any_context = {10, 4, 3, 5000, 9, 2, 17, 250000, 1};
    s.totals.irq = {40, 40, 1, 30, 12, 25, 90000, 8000, 9000, 700};
    s.zones.front().free_blocks_exact = false;
    s.zones.front().lock.waiting_cpus_now = -1;
    s.zones.front().lock.someone_waiting = true;
    s.zones.front().lock.m.holds_over_threshold = 11; // a short engine run has no lock hold or wait that long
    s.zones.front().lock.m.waits_over_threshold = 13;
    s.zones.front().free_pages = -5; // NR_FREE_PAGES can dip below zero transiently in the kernel's counters
    return s;
}

} // namespace

TEST_CASE("a snapshot blob decodes to the same snapshot, field by field")
{
    const sim::snapshot s = rich_snapshot();
    REQUIRE(s.zones.size() >= 2);
    REQUIRE(s.nr_cpus == 4);
    REQUIRE(s.state_digest.has_value());
    const std::string blob = session::encode_snapshot(s);
    const sim::snapshot back = session::decode_snapshot(blob);
    CHECK(test::first_difference(s, back, false).empty());
    INFO(test::first_difference(s, back, false));

    // The comparison itself can fail: one changed bucket is found and named.
    sim::snapshot other = back;
    other.zones[1].lock.m.wait_hist.buckets[3] += 1;
    CHECK(test::first_difference(s, other, false)
        == "zones[1].lock.m.wait_hist[3]: " + std::to_string(s.zones[1].lock.m.wait_hist.buckets[3])
            + " != " + std::to_string(other.zones[1].lock.m.wait_hist.buckets[3]));
}

TEST_CASE("the blob leaves the logs to their tables")
{
    auto snaps = test::engine_snapshots(4);
    std::size_t holds = 0;
    for (const auto& s : snaps) holds += s->holds.size();
    REQUIRE(holds > 0);
    const sim::snapshot back = session::decode_snapshot(session::encode_snapshot(*snaps.back()));
    CHECK(back.events.empty());
    CHECK(back.holds.empty());
    CHECK(back.commands.empty());
    CHECK(back.holds_kept == snaps.back()->holds_kept);
    // /proc texts are marked present (the reader fills them in from the procfs table), their text is not here.
    sim::snapshot with_text = *snaps.back();
    with_text.procfs = procfs::procfs_texts::from_texts(std::string(5000, 'z'), std::string(5000, 'b'));
    const std::string blob = session::encode_snapshot(with_text);
    CHECK(blob.find(std::string(100, 'z')) == std::string::npos);
    CHECK(blob.find(std::string(100, 'b')) == std::string::npos);
    const sim::snapshot back2 = session::decode_snapshot(blob);
    REQUIRE(back2.procfs);
    CHECK(back2.procfs->zoneinfo().empty());
    CHECK(back2.procfs->buddyinfo().empty());
}

TEST_CASE("the snapshot structs have no field the codec does not know")
{
    // When this fails, a field was added to sim::snapshot or one of its parts: encode it in
    // core/session/snapshot_codec.cpp (and bump SNAPSHOT_ENCODING), compare it in snapshot_diff.hpp, and
    // update the sizes here (x86-64, libstdc++). (run_info::costs and hold_threshold_ns are the exception: the
    // run's header keeps them, and the reader puts them back.)
    CHECK(sizeof(sim::snapshot) == 896);
    CHECK(sizeof(sim::zone_snapshot) == 1880);
    CHECK(sizeof(sim::lock_snapshot) == 1232);
    CHECK(sizeof(sim::lock_metrics) == 1200);
    CHECK(sizeof(sim::cpu_metrics) == 80);
    CHECK(sizeof(sim::global_metrics) == 256);
    CHECK(sizeof(sim::run_info) == 88);
    CHECK(sizeof(sim::deferred_progress) == 80);
    CHECK(sizeof(sim::workload_score) == 80);
}

TEST_CASE("a damaged snapshot blob is refused, never read past its end")
{
    const std::string blob = session::encode_snapshot(rich_snapshot());
    // Every truncation is refused.
    for (std::size_t n = 0; n < blob.size(); n += 1 + n / 64) {
        INFO("prefix of " << n << " bytes");
        CHECK_THROWS_AS(session::decode_snapshot(std::string_view(blob).substr(0, n)), session::codec_error);
    }
    // Bytes after the end are refused too.
    CHECK_THROWS_AS(session::decode_snapshot(blob + std::string(3, '\0')), session::codec_error);
    // Random damage either decodes to something or is refused as codec_error: no other exception, no crash.
    std::mt19937 rng(5);
    int refused = 0;
    for (int i = 0; i < 300; ++i) {
        std::string bad = blob;
        for (int k = 0; k < 4; ++k) bad[rng() % bad.size()] = static_cast<char>(rng());
        try {
            session::decode_snapshot(bad);
        } catch (const session::codec_error&) {
            ++refused;
        }
    }
    CHECK(refused > 0);
}

TEST_CASE("a blob of another encoding is refused with its version named")
{
    std::string blob = session::encode_snapshot(rich_snapshot());
    blob[0] = static_cast<char>(session::SNAPSHOT_ENCODING + 1);
    try {
        session::decode_snapshot(blob);
        FAIL("accepted an unknown encoding");
    } catch (const session::codec_error& e) {
        CHECK(std::string(e.what()).find("snapshot encoding " + std::to_string(session::SNAPSHOT_ENCODING + 1)) == 0);
    }
}

namespace
{
// Where the switch count sits in `blob`: after the preset string `marker` and the four era varints (each one
// byte for a version below 64).
std::size_t switch_count_at(const std::string& blob, const std::string& marker)
{
    const std::size_t at = blob.find(marker);
    REQUIRE(at != std::string::npos);
    return at + marker.size() + 4;
}
} // namespace

TEST_CASE("a blob written with the five seed switches reads the switches added since as the era's default")
{
    sim::snapshot s = rich_snapshot();
    s.preset = "five-switch-marker";
    s.era = {6, 18, 0, 0}; // free-high-batch-plus-high-min is a v6.16+ default
    for (unsigned i = 0; i < mm::NR_PATCHES; ++i) s.patches.on[i] = i % 2 == 0;
    s.patches.set(mm::patch::free_high_batch_plus_high_min, false); // not what the era has
    std::string blob = session::encode_snapshot(s);
    const std::size_t at = switch_count_at(blob, s.preset);
    REQUIRE(static_cast<unsigned char>(blob[at]) == mm::NR_PATCHES);

    // What a build with five switches wrote: a count of 5 and five bytes.
    std::string five = blob;
    five[at] = 5;
    five.erase(at + 1 + 5, mm::NR_PATCHES - 5);
    const sim::snapshot d = session::decode_snapshot(five);
    for (unsigned i = 0; i < 5; ++i) CHECK(d.patches.on[i] == s.patches.on[i]);
    const mm::patch_set era_default = mm::default_patches(s.era);
    REQUIRE(era_default[mm::patch::free_high_batch_plus_high_min]);
    for (unsigned i = 5; i < mm::NR_PATCHES; ++i) CHECK(d.patches.on[i] == era_default.on[i]);
    CHECK(d.patches.init_threads == s.patches.init_threads);
    CHECK(d.workload == s.workload); // everything after the switches still lines up
    CHECK(d.totals.allocs == s.totals.allocs);

    // One switch more than this build knows: a newer pcplab wrote it.
    std::string more = blob;
    more[at] = static_cast<char>(mm::NR_PATCHES + 1);
    more.insert(at + 1 + mm::NR_PATCHES, 1, '\1');
    try {
        session::decode_snapshot(more);
        FAIL("accepted a blob with more switches than this build knows");
    } catch (const session::codec_error& e) {
        const std::string what = e.what();
        CHECK(what.rfind("recorded with " + std::to_string(mm::NR_PATCHES + 1) + " patch switches, this build knows "
                      + std::to_string(mm::NR_PATCHES),
                  0)
            == 0);
        CHECK(what.find("newer pcplab") != std::string::npos);
        CHECK(what.find('\n') == std::string::npos);
    }
}

TEST_CASE("varints and zig-zag round-trip at their limits")
{
    session::byte_writer w;
    const std::uint64_t us[] = {0, 1, 127, 128, 16383, 16384, UINT64_MAX};
    const std::int64_t is[] = {0, -1, 1, INT64_MIN, INT64_MAX, -64, 63};
    for (auto u : us) w.u(u);
    for (auto i : is) w.i(i);
    w.f(-0.0);
    w.s(std::string("a\0b", 3));
    session::byte_reader r(w.bytes());
    for (auto u : us) CHECK(r.u() == u);
    for (auto i : is) CHECK(r.i() == i);
    CHECK(std::signbit(r.f()));
    CHECK(r.s() == std::string("a\0b", 3));
    CHECK(r.at_end());
    CHECK(w.bytes().size() < 7 * 10 + 7 * 10 + 8 + 4); // small values take one byte, not eight
}
