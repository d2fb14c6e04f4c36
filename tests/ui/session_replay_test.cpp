// The replay source and its timeline: the recorded snapshots come back through the frame_source interface,
// playback, stepping and seeking move along virtual time, and the slider follows and drives it.
#include "core/session/session_test_support.hpp"
#include "core/session/snapshot_diff.hpp"

#include "ui/model/history.hpp"
#include "ui/session/replay_source.hpp"
#include "ui/session/timeline_bar.hpp"

#include "session/recorder.hpp"

#include <QComboBox>
#include <QLabel>
#include <QSlider>

#include <catch2/catch.hpp>

#include <fstream>

using namespace pcplab;

namespace
{

// A recording of `n` snapshots 100 us apart, and the snapshots themselves.
std::vector<std::shared_ptr<const sim::snapshot>> record(const std::string& path, int n = 10)
{
    auto snaps = test::engine_snapshots(n, 100'000);
    session::recorder_options ro;
    ro.wait_when_full = true;
    session::recorder rec(path, ro);
    for (const auto& s : snaps) rec.publish(s);
    rec.close();
    return snaps;
}

} // namespace

TEST_CASE("a replay source serves the recorded snapshots as a frame source")
{
    test::scratch_file f("replay.db");
    const auto snaps = record(f.path());
    ui::replay_source src(f.path(), 0, 0);
    ui::frame_source& fs = src; // what the window sees
    CHECK(fs.is_replay());
    CHECK_FALSE(fs.is_ab());
    CHECK(fs.latest_b() == nullptr);
    REQUIRE(fs.latest_a());
    CHECK(test::first_difference(*snaps[0], *fs.latest_a()) == "");
    CHECK(fs.duration_ns() == static_cast<qint64>(snaps.back()->sim_time_ns));
    CHECK_FALSE(fs.send(sim::make_set_patch(mm::patch::batched_bulk_free, true))); // live-only controls are refused

    fs.step();
    CHECK(test::first_difference(*snaps[1], *fs.latest_a()) == "");

    int rewound = 0; // counted by hand: the UI tests do not link Qt Test (QSignalSpy)
    QObject::connect(&src, &ui::replay_source::rewound, [&] { ++rewound; });
    CHECK(fs.seek(static_cast<qint64>(snaps[6]->sim_time_ns) + 50'000));
    CHECK(fs.latest_a()->seq == snaps[6]->seq);
    CHECK(rewound == 0);
    CHECK(fs.seek(static_cast<qint64>(snaps[2]->sim_time_ns)));
    CHECK(fs.latest_a()->seq == snaps[2]->seq);
    CHECK(rewound == 1);

    // A history refilled after the jump back holds exactly the snapshots up to the position.
    ui::history h;
    CHECK(src.refill_history(h) == 3);
    CHECK(h.samples().size() == 3);
    CHECK(h.samples().back().t_ns == static_cast<std::int64_t>(snaps[2]->sim_time_ns));
}

TEST_CASE("playback moves one snapshot per tick, or by virtual time at a set speed")
{
    test::scratch_file f("play.db");
    const auto snaps = record(f.path());
    ui::replay_source src(f.path(), 0, 0);
    int ended = 0;
    QObject::connect(&src, &ui::replay_source::reached_end, [&] { ++ended; });
    src.set_speed(0);
    src.resume();
    CHECK(src.playing());
    src.tick(16);
    src.tick(16);
    CHECK(src.latest_a()->seq == snaps[2]->seq);
    src.pause();
    src.tick(16); // paused: nothing moves
    CHECK(src.latest_a()->seq == snaps[2]->seq);

    // 1 ms of virtual time per wall second: 250 ms of wall time is 250 us of virtual time.
    src.set_speed(1e6);
    src.resume();
    src.tick(250);
    const auto t = snaps[2]->sim_time_ns + 250'000;
    std::size_t want = 0;
    for (std::size_t i = 0; i < snaps.size(); ++i)
        if (snaps[i]->sim_time_ns <= t) want = i;
    CHECK(src.latest_a()->seq == snaps[want]->seq);
    for (int i = 0; i < 100 && src.playing(); ++i) src.tick(1000);
    CHECK_FALSE(src.playing());
    CHECK(ended == 1);
    CHECK(src.latest_a()->seq == snaps.back()->seq);
}

TEST_CASE("the timeline slider scrubs the replay and follows it")
{
    test::scratch_file f("timeline.db");
    const auto snaps = record(f.path());
    ui::replay_source src(f.path(), 0, 0);
    ui::timeline_bar bar(&src);
    bar.resize(600, 40);
    CHECK(bar.slider()->value() == 0);
    CHECK(bar.time_label()->text().endsWith(QString::number(snaps.back()->sim_time_ns / 1e9, 'f', 3) + " s"));

    bar.slider()->setValue(bar.slider()->maximum()); // drag to the end
    CHECK(src.latest_a()->seq == snaps.back()->seq);
    bar.slider()->setValue(0);
    CHECK(src.latest_a()->seq == snaps.front()->seq);

    src.seek(static_cast<qint64>(snaps[5]->sim_time_ns));
    const double t0 = static_cast<double>(snaps.front()->sim_time_ns);
    const double frac
        = (static_cast<double>(snaps[5]->sim_time_ns) - t0) / (static_cast<double>(snaps.back()->sim_time_ns) - t0);
    CHECK(bar.slider()->value() == Approx(frac * bar.slider()->maximum()).margin(1));
    CHECK(src.latest_a()->seq == snaps[5]->seq); // following did not seek elsewhere

    // The speed box sets the source's speed.
    const int i = bar.speed_box()->findText("10 ms/s");
    REQUIRE(i >= 0);
    bar.speed_box()->setCurrentIndex(i);
    CHECK(src.speed() == 1e7);
}

TEST_CASE("take_published hands out every snapshot passed, once, and only the landing point after a seek")
{
    test::scratch_file f("published.db");
    const auto snaps = record(f.path());
    ui::replay_source src(f.path(), 0, 0);
    auto seqs = [&] {
        std::vector<std::uint64_t> v;
        for (const auto& p : src.take_published()) v.push_back(p.a->seq);
        return v;
    };
    using v = std::vector<std::uint64_t>;
    CHECK(seqs() == v{snaps[0]->seq});
    src.set_speed(1e6);
    src.resume();
    src.tick(350); // 350 us of virtual time: three snapshots on
    const auto pos = src.position_index();
    REQUIRE(pos >= 3);
    v want;
    for (std::size_t i = 1; i <= pos; ++i) want.push_back(snaps[i]->seq);
    CHECK(seqs() == want); // the ones in between too: their events reach the history
    CHECK(seqs() == v{snaps[pos]->seq}); // nothing new: the current one again (the window drops it by seq)
    src.pause();
    src.seek(static_cast<qint64>(snaps[8]->sim_time_ns));
    CHECK(seqs() == v{snaps[8]->seq}); // a seek is not playback
    src.step();
    CHECK(seqs() == v{snaps[9]->seq});
}

TEST_CASE("a bad recording is refused by the replay source with the file's message")
{
    test::scratch_file f("not-a-recording.db");
    {
        std::ofstream(f.path()) << "hello\n";
    }
    CHECK_THROWS_WITH(ui::replay_source(f.path()), f.path() + ": not a pcplab recording (not an SQLite database)");
}
