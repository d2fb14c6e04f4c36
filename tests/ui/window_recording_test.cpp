// Recordings for a lecture: a window recording is as dense in virtual time as `pcplab-cli run --record` (a
// snapshot every 10 ms of virtual time, whatever the speed), a replay starts at a speed a person can follow,
// and one action records the running A/B pair and opens Compare on it.
#include "window_test_support.hpp"

#include "ui/session/compare_view.hpp"
#include "ui/session/replay_source.hpp"
#include "ui/session/timeline_bar.hpp"

#include "session/recording_reader.hpp"

#include <QComboBox>
#include <QFile>

#include <catch2/catch.hpp>

using namespace pcplab;
using namespace pcplab::ui;

TEST_CASE("a window recording keeps a snapshot every 10 ms of virtual time, even as fast as the machine goes",
    "[ui][window][replay]")
{
    // A workload that does not finish (kernbench ends at 2.4 s virtual: the recording could end with it).
    test::running_window rw([](window_options& o) { o.workload = "page-fault1"; });
    REQUIRE(rw.started);
    main_window& w = *rw.w;
    w.machine()->set_speed(0); // as fast as possible: the wall-clock rate alone gives few snapshots
    const QString path = rw.box.dir.filePath(QStringLiteral("dense.db"));
    REQUIRE(w.session()->start_recording(path).isEmpty());
    const std::uint64_t t0 = test::shown_a(w)->sim_time_ns;
    REQUIRE(test::wait_until([&] { return test::running(w, t0 + 500'000'000); }, 120000));
    REQUIRE(w.session()->stop_recording().isEmpty());

    const session::recording rec(path.toStdString());
    REQUIRE_FALSE(rec.runs().empty());
    const auto index = rec.index(rec.runs().front().run);
    REQUIRE(index.size() >= 2);
    const double span_ms = static_cast<double>(index.back().t_ns - index.front().t_ns) / 1e6;
    INFO(index.size() << " snapshots over " << span_ms << " ms of virtual time");
    CHECK(span_ms >= 400);
    CHECK(static_cast<double>(index.size()) >= span_ms / 10.0 * 0.9); // one per 10 ms, and the wall-clock ones
    // No two snapshots at the same virtual time (the slideshow kept seven at t = 0).
    for (std::size_t i = 1; i < index.size(); ++i) CHECK(index[i].t_ns > index[i - 1].t_ns);
}

TEST_CASE("a replay starts at a speed a person can follow", "[ui][window][replay]")
{
    // A 1.9 s run recorded at 23 s/s: not as recorded (over in 0.1 s), but 100 ms/s (19 s).
    CHECK(timeline_bar::starting_speed(1.9e9, 23e9) == 1e8);
    // A recording made slower than that plays as slowly as it was made, rounded down to a speed on offer.
    CHECK(timeline_bar::starting_speed(1.9e9, 2e7) == 1e7);
    // A long run goes faster, but still takes at least FOLLOW_WALL_S to play.
    CHECK(timeline_bar::starting_speed(300e9, 0) == 1e10);
    CHECK(timeline_bar::starting_speed(1e6, 0) == 1e6); // never slower than the slowest choice
}

TEST_CASE("one action records the running A/B pair and opens Compare on A and B", "[ui][window][replay]")
{
    test::running_window rw([](window_options& o) { o.ab = true; });
    REQUIRE(rw.started);
    main_window& w = *rw.w;
    REQUIRE(test::wait_until([&] { return test::running(w) && test::shown_b(w); }));
    w.machine()->set_speed(0);
    REQUIRE(w.session()->start_ab_comparison().isEmpty());
    CHECK(w.session()->recording());
    const QString file = w.session()->comparison_file();
    CHECK(file.endsWith(QStringLiteral(".db")));
    // Until A and B have each recorded 100 ms of virtual time (a snapshot per 10 ms). Not the shown time: at
    // full speed the shown snapshots trail the engines by some 200 ms, so the shown time can pass any mark
    // before the recording holds a single snapshot.
    // (Or until the run finished, which ends the recording and opens Compare by itself.)
    REQUIRE(
        test::wait_until([&] { return w.session()->recorded_snapshots() >= 20 || !w.session()->recording(); }, 120000));
    const QString finished = w.session()->finish_ab_comparison();
    INFO(finished.toStdString());
    REQUIRE(finished.isEmpty());
    CHECK_FALSE(w.session()->recording());
    REQUIRE(w.session()->compare_window());
    auto* view = w.session()->compare_window()->findChild<compare_view*>();
    REQUIRE(view);
    CHECK(view->columns() == 2);
    CHECK(view->graph_count() == 2); // A and B overlaid
    QFile::remove(file);

    // Single mode: refused, saying what it needs.
    w.machine()->set_ab(false);
    const QString err = w.session()->start_ab_comparison();
    CHECK(err.contains(QStringLiteral("A/B")));
    CHECK_FALSE(w.session()->recording());
}
