// The screenshot driver: a timed pause, an event loop until it shows, one last pump and a grab.
#include "ui/window/screenshot.hpp"

#include "ui/live/live_source.hpp"
#include "ui/session/replay_source.hpp"
#include "ui/window/frame_pump.hpp"
#include "ui/window/main_window.hpp"
#include "ui/window/presenter_mode.hpp"
#include "ui/window/story_player.hpp"
#include "ui/window/view_area.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QPixmap>
#include <QThread>

namespace pcplab::ui
{

namespace
{
bool reached(const std::shared_ptr<const sim::snapshot>& s, std::uint64_t t)
{
    if (!s) return false;
    switch (s->state) {
    case sim::run_state::finished:
    case sim::run_state::failed:
    case sim::run_state::stopped:
        return true;
    case sim::run_state::paused:
        return s->sim_time_ns >= t;
    default:
        return false; // booting, or still running towards the pause
    }
}

QString format_vtime(std::uint64_t ns)
{
    return ns >= 1'000'000'000 ? QStringLiteral("%1 s").arg(static_cast<double>(ns) / 1e9, 0, 'g', 4)
                               : QStringLiteral("%1 ms").arg(static_cast<double>(ns) / 1e6, 0, 'g', 4);
}

void settle(int ms)
{
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < ms) QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
}

QString grab_window(main_window& w, const screenshot_request& r); // the last pump, then the picture
} // namespace

QString take_screenshot(main_window& w, const screenshot_request& r)
{
    // The picture is the screen: presenter mode fills a canvas of the size asked for.
    if (w.look()->on()) {
        w.look()->set_presenter(false);
        w.look()->set_canvas(r.size);
        w.look()->set_presenter(true);
    }
    w.setWindowState(Qt::WindowNoState);
    w.resize(r.size);
    w.show();
    frame_source* src = w.source();
    if (!src) return QStringLiteral("--screenshot: no machine is running (%1)").arg(w.last_message());
    if (auto* replay = qobject_cast<replay_source*>(src)) {
        // A recording is already there: go to the snapshot at --run-for and show the history up to it.
        replay->pause();
        replay->seek(static_cast<qint64>(r.run_for_ns));
        w.pump()->rebuild_history([replay](history& h) { replay->refill_history(h); });
        return grab_window(w, r);
    }
    // The pause first: posted after the speed, it could arrive when the engine, running flat out, had passed it.
    // A story pauses by itself, at its checkpoints.
    story_player* story = w.stories()->playing() ? w.stories() : nullptr;
    if (auto* live = qobject_cast<live_source*>(src); live && !story) live->pause_at(r.run_for_ns);
    src->set_speed(0);

    QElapsedTimer wall;
    wall.start();
    for (;;) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        const auto a = src->latest_a();
        const auto b = src->latest_b();
        if (story ? story->checkpoint_shown() >= 0
                  : reached(a, r.run_for_ns) && (!src->is_ab() || reached(b, r.run_for_ns)))
            break;
        if (wall.elapsed() > r.timeout.count()) {
            return QStringLiteral("--run-for %1: the machine reached %2 of virtual time (%3) within the %4 s "
                                  "timeout; lower --run-for or raise --timeout")
                .arg(format_vtime(r.run_for_ns), format_vtime(a ? a->sim_time_ns : 0),
                    a ? QString::fromLatin1(sim::run_state_name(a->state)) : QStringLiteral("no snapshot yet"))
                .arg(static_cast<double>(r.timeout.count()) / 1000.0, 0, 'g', 4);
        }
        QThread::msleep(5);
    }
    if (const auto a = src->latest_a(); a && a->state == sim::run_state::failed)
        return QStringLiteral("--screenshot: the engine failed: %1").arg(QString::fromStdString(a->error));
    return grab_window(w, r);
}

namespace
{
QString grab_window(main_window& w, const screenshot_request& r)
{
    w.pump()->pump_now();
    if (w.views()->focus_view().isEmpty()) w.views()->show_boot(false); // the tab the layout has, not the boot's
    settle(250); // layouts, queued replots and the status bar catch up
    w.pump()->refresh();
    settle(100);
    const QPixmap pix = w.grab();
    if (pix.isNull()) return QStringLiteral("--screenshot: the window could not be grabbed");
    if (!pix.save(r.file, "PNG", 0)) // 0: the smallest file (zlib's best compression)
        return QStringLiteral("--screenshot %1: cannot write the file (%2)")
            .arg(r.file,
                QFileInfo(r.file).absoluteDir().exists() ? QStringLiteral("permission?")
                                                         : QStringLiteral("no such directory"));
    return {};
}
} // namespace

} // namespace pcplab::ui
