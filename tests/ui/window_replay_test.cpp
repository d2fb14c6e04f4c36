// Recordings in the window: File > Open recording replays one through the views with a timeline (the fixture
// recording), a bad file is refused with its name while the live machine keeps running, File > Record writes
// the live run(s) to a file that session::recording reads back, and `--replay FILE --screenshot` pictures it.
#include "window_test_support.hpp"

#include "ui/session/replay_source.hpp"
#include "ui/session/timeline_bar.hpp"
#include "ui/window/command_line.hpp"
#include "ui/window/screenshot.hpp"
#include "ui/window/view_area.hpp"

#include "session/recording_reader.hpp"

#include <QFile>
#include <QImage>
#include <QSlider>

#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

using namespace pcplab;
using namespace pcplab::ui;

namespace
{
// The fixture, copied: a replay must never touch the checked-in file.
QString fixture_copy(const test::sandbox& box)
{
    const QString to = box.dir.filePath(QStringLiteral("classroom-kernbench.db"));
    QFile::copy(QStringLiteral(PCPLAB_TEST_FIXTURES "/recordings/classroom-kernbench-v1.db"), to);
    return to;
}

bool advances(const main_window& w)
{
    auto a = test::shown_a(w);
    const std::uint64_t t0 = a ? a->sim_time_ns : 0;
    return test::wait_until([&] {
        auto b = test::shown_a(w);
        return b && b->state == sim::run_state::running && b->sim_time_ns > t0;
    });
}
} // namespace

TEST_CASE("opening a recording replays its snapshots in the window, with a timeline", "[ui][window][replay]")
{
    test::running_window rw;
    REQUIRE(rw.started);
    main_window& w = *rw.w;
    const QString path = fixture_copy(rw.box);
    REQUIRE(QFile::exists(path));
    const session::recording rec(path.toStdString());

    REQUIRE(w.session()->open_recording(path).isEmpty());
    auto* src = qobject_cast<replay_source*>(w.source());
    REQUIRE(src);
    REQUIRE(w.session()->timeline());
    CHECK(w.windowTitle().contains("classroom-kernbench.db"));
    const auto index = rec.index(src->run());
    REQUIRE(index.size() > 10);
    // Paused at the recording's first snapshot, and that is what the views show.
    REQUIRE(test::wait_until([&] { return test::shown_a(w) && test::shown_a(w)->seq == index.front().seq; }));
    CHECK(src->latest_a()->seq == index.front().seq);

    // Playing moves the window along the recorded snapshots, in order, into the history.
    src->set_speed(0); // one snapshot per tick
    w.machine()->play_pause();
    CHECK(src->playing());
    REQUIRE(test::wait_until([&] { return src->position_index() >= 10; }));
    w.machine()->play_pause();
    CHECK_FALSE(src->playing());
    REQUIRE(test::wait_until([&] { return test::shown_a(w)->seq == src->latest_a()->seq; }));
    CHECK(test::shown_a(w)->seq == index[src->position_index()].seq);
    CHECK(w.pump()->history_a().samples().size() == src->position_index() + 1);

    // Scrubbing back with the slider rebuilds the history up to where the replay landed.
    w.session()->timeline()->slider()->setValue(0);
    CHECK(src->position_index() == 0);
    REQUIRE(test::wait_until([&] { return test::shown_a(w)->seq == index.front().seq; }));
    CHECK(w.pump()->history_a().samples().size() == 1);

    // Back to the live machine: a running engine again, no timeline.
    w.session()->back_to_live();
    CHECK_FALSE(w.source()->is_replay());
    CHECK(w.session()->timeline() == nullptr);
    CHECK(advances(w));
}

TEST_CASE(
    "a recording that cannot be read is refused by name and the live machine keeps running", "[ui][window][replay]")
{
    test::running_window rw;
    REQUIRE(rw.started);
    main_window& w = *rw.w;
    const frame_source* live = w.source();

    const QString junk = rw.box.dir.filePath(QStringLiteral("junk.db"));
    {
        QFile f(junk);
        REQUIRE(f.open(QIODevice::WriteOnly));
        f.write("this is not a recording at all, just some bytes\n");
    }
    const QString err = w.session()->open_recording(junk);
    CHECK_FALSE(err.isEmpty());
    CHECK(err.contains(junk));
    CHECK(w.last_message().contains(junk));
    CHECK(w.source() == live);
    CHECK_FALSE(w.source()->is_replay());
    CHECK(w.session()->timeline() == nullptr);

    const QString missing = rw.box.dir.filePath(QStringLiteral("missing.db"));
    CHECK(w.session()->open_recording(missing).contains(missing));
    CHECK(w.source() == live);
    CHECK(advances(w));
}

TEST_CASE("recording from the window writes the live run to a file a recording opens", "[ui][window][replay]")
{
    test::running_window rw;
    REQUIRE(rw.started);
    main_window& w = *rw.w;
    const QString path = rw.box.dir.filePath(QStringLiteral("window-run.db"));

    REQUIRE(w.session()->start_recording(path).isEmpty());
    CHECK(w.session()->recording());
    const std::uint64_t t0 = test::shown_a(w)->sim_time_ns;
    // 100 ms of the run, and at least two snapshots in the file: on a busy host the engine may publish
    // only once in those 100 ms (it publishes on a wall-clock interval).
    REQUIRE(
        test::wait_until([&] { return test::running(w, t0 + 100'000'000) && w.session()->recorded_snapshots() >= 2; }));
    REQUIRE(w.session()->stop_recording().isEmpty());
    CHECK_FALSE(w.session()->recording());
    CHECK(w.last_message().contains(path));
    CHECK(advances(w)); // recording never paused the machine

    const session::recording rec(path.toStdString());
    REQUIRE(rec.runs().size() >= 1);
    const auto& run = rec.runs().front();
    CHECK(run.preset == "classroom");
    CHECK(run.side == 0);
    CHECK(run.nr_cpus == 8);
    const auto index = rec.index(run.run);
    REQUIRE(index.size() >= 2);
    CHECK(std::is_sorted(index.begin(), index.end(), [](const auto& x, const auto& y) { return x.seq < y.seq; }));
    // Up to the snapshot the window showed at the end of the 100 ms it ran (how many came before depends on
    // how busy the host was: the window takes what was published when it polls).
    CHECK(index.back().t_ns >= t0 + 100'000'000);
    CHECK(index.front().t_ns < index.back().t_ns);
    const auto snap = rec.load(run.run, index.back().seq);
    REQUIRE(snap);
    CHECK(snap->preset == "classroom");

    // A/B: both machines, as runs of side 0 and 1.
    const QString ab_path = rw.box.dir.filePath(QStringLiteral("window-ab.db"));
    w.machine()->set_ab(true);
    REQUIRE(test::wait_until([&] { return test::running(w) && test::shown_b(w); }));
    REQUIRE(w.session()->start_recording(ab_path).isEmpty());
    const std::uint64_t t1 = test::shown_a(w)->sim_time_ns;
    // Two published pairs in the file as well as 50 ms of the run, for the reason given above.
    REQUIRE(
        test::wait_until([&] { return test::running(w, t1 + 50'000'000) && w.session()->recorded_snapshots() >= 4; }));
    REQUIRE(w.session()->stop_recording().isEmpty());
    const session::recording ab(ab_path.toStdString());
    std::set<int> sides;
    for (const auto& r : ab.runs())
        if (!ab.index(r.run).empty()) sides.insert(r.side);
    CHECK(sides == std::set<int>{0, 1});

    // A file that cannot be created: refused by name, nothing recording, the machine still running.
    const QString bad = rw.box.dir.filePath(QStringLiteral("no-such-dir/x.db"));
    const QString err = w.session()->start_recording(bad);
    CHECK(err.contains(bad));
    CHECK_FALSE(w.session()->recording());
    CHECK(advances(w));
}

TEST_CASE("pcplab --replay FILE --screenshot pictures the recording", "[ui][window][replay][cli]")
{
    test::sandbox box;
    const QString path = fixture_copy(box);
    const QString shot = box.dir.filePath(QStringLiteral("replay.png"));
    auto parsed = parse_command_line({"--replay", path, "--screenshot", shot, "--run-for", "20ms"});
    REQUIRE(std::holds_alternative<command_line>(parsed));
    const command_line cl = std::get<command_line>(parsed);
    CHECK(cl.win.replay == path);
    auto missing = parse_command_line({"--replay", box.dir.filePath(QStringLiteral("nope.db"))});
    REQUIRE(std::holds_alternative<std::string>(missing));
    CHECK(std::get<std::string>(missing).find("--replay") == 0);

    main_window w(cl.win);
    REQUIRE(w.source());
    REQUIRE(w.source()->is_replay());
    screenshot_request r;
    r.file = shot;
    r.run_for_ns = cl.run_for_ns;
    r.size = QSize(1280, 800);
    REQUIRE(take_screenshot(w, r).isEmpty());
    const QImage img(shot);
    CHECK(img.width() == 1280);
    // The snapshot at 20 ms of virtual time, with the history up to it.
    const auto a = test::shown_a(w);
    REQUIRE(a);
    CHECK(a->sim_time_ns <= 20'000'000);
    CHECK(a->sim_time_ns > 10'000'000);
    CHECK(w.pump()->history_a().samples().size() > 1);
}

TEST_CASE("the window compares recordings and exports the current view as a figure", "[ui][window][replay]")
{
    test::running_window rw;
    REQUIRE(rw.started);
    main_window& w = *rw.w;
    const QString one = fixture_copy(rw.box);
    const QString two = rw.box.dir.filePath(QStringLiteral("second.db"));
    REQUIRE(QFile::copy(one, two));

    CHECK_FALSE(w.session()->compare_recordings({one}).isEmpty()); // two or more
    CHECK(w.session()->compare_window() == nullptr);
    REQUIRE(w.session()->compare_recordings({one, two}).isEmpty());
    REQUIRE(w.session()->compare_window());
    CHECK(w.session()->compare_window()->isVisible());
    CHECK(w.session()->compare_window()->windowTitle().contains("second.db"));
    const QString junk = rw.box.dir.filePath(QStringLiteral("junk.db"));
    {
        QFile f(junk);
        REQUIRE(f.open(QIODevice::WriteOnly));
        f.write("not a recording");
    }
    CHECK(w.session()->compare_recordings({one, junk}).contains(junk));

    for (const char* ext : {"png", "svg", "pdf"}) {
        const QString out = rw.box.dir.filePath(QStringLiteral("figure.%1").arg(QLatin1String(ext)));
        REQUIRE(w.session()->export_figure(out).isEmpty());
        QFile f(out);
        REQUIRE(f.open(QIODevice::ReadOnly));
        const QByteArray head = f.read(4096);
        if (QLatin1String(ext) == QLatin1String("png"))
            CHECK_FALSE(QImage(out).isNull());
        else if (QLatin1String(ext) == QLatin1String("svg"))
            CHECK(head.contains("<svg"));
        else
            CHECK(head.startsWith("%PDF"));
    }
    CHECK_FALSE(w.session()->export_figure(rw.box.dir.filePath(QStringLiteral("figure.gif"))).isEmpty());
}
