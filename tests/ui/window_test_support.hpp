// Shared by the window tests: a temporary settings file (never the user's), waiting on the event loop for a
// condition, counting this process's threads, and a tiny preset for quick reboots.
#pragma once

#include "ui/window/frame_pump.hpp"
#include "ui/window/lesson_control.hpp"
#include "ui/window/machine_control.hpp"
#include "ui/window/main_window.hpp"
#include "ui/window/presenter_mode.hpp"
#include "ui/window/session_control.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QMainWindow>
#include <QTemporaryDir>
#include <QThread>

#include <functional>
#include <memory>

namespace pcplab::ui::test
{

// Runs the event loop until `pred` holds or `ms` pass; returns whether it held.
inline bool wait_until(const std::function<bool()>& pred, int ms = 20000)
{
    QElapsedTimer t;
    t.start();
    while (!pred()) {
        if (t.elapsed() > ms) return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
        QThread::msleep(2);
    }
    return true;
}

// Runs the event loop until the window's layout (its geometry, its docks and tool bars) has stayed the same over
// three looks `step_ms` apart, or `ms` pass; returns whether it settled. A fixed wait is not enough on a loaded
// host or under the sanitizers, where a resize's layouts and a window manager's answers come late.
inline bool wait_layout_settled(const QMainWindow& w, int ms = 20000, int step_ms = 100)
{
    QElapsedTimer t;
    t.start();
    QByteArray last;
    int same = 0;
    while (t.elapsed() <= ms) {
        wait_until([] { return false; }, step_ms);
        QByteArray now = w.saveState() + w.saveGeometry();
        same = now == last ? same + 1 : 0;
        if (same >= 2) return true;
        last = std::move(now);
    }
    return false;
}

// Threads of this process now (/proc/self/task has one entry per thread).
inline int thread_count()
{
    return static_cast<int>(
        QDir(QStringLiteral("/proc/self/task")).entryList(QDir::Dirs | QDir::NoDotAndDotDot).size());
}

// A temporary directory with a settings file and a small preset (4 CPUs, 4 GiB, era v6.7) for fast reboots.
struct sandbox {
    QTemporaryDir dir;
    QString settings_file() const { return dir.filePath(QStringLiteral("pcplab-test.ini")); }
    QString tiny_preset() const
    {
        const QString path = dir.filePath(QStringLiteral("tiny-v6.7.json"));
        QFile f(path);
        if (!f.exists() && f.open(QIODevice::WriteOnly)) {
            f.write(R"({"description": ["Tiny test machine: 1 node, 4 CPUs, 4 GiB, v6.7", "For the window tests."],
                        "era": "v6.7", "sockets": 1, "threads_per_core": 1,
                        "nodes": [{"cpus": 4, "memory_gib": 4}]})");
        }
        return path;
    }
    window_options options() const
    {
        window_options o;
        o.settings_file = settings_file();
        o.first_start_story = false; // these tests start on the default machine
        o.first_start_fills_screen = false; // and size the window themselves
        return o;
    }
};

// The newest snapshots the window has shown, or null.
inline std::shared_ptr<const sim::snapshot> shown_a(const main_window& w)
{
    return w.pump()->shown_a();
}

inline std::shared_ptr<const sim::snapshot> shown_b(const main_window& w)
{
    return w.pump()->shown_b();
}

// The window is running its machine: a snapshot past boot with virtual time moving.
inline bool running(const main_window& w, std::uint64_t min_ns = 1)
{
    auto a = shown_a(w);
    return a && a->state == sim::run_state::running && a->sim_time_ns >= min_ns;
}

// A window on the default preset with a temporary settings file, shown, its machine running (or not, after
// 20 s: `started` says which).
struct running_window {
    sandbox box;
    std::unique_ptr<main_window> w;
    bool started = false;
    explicit running_window(const std::function<void(window_options&)>& tweak = {})
    {
        window_options o = box.options();
        if (tweak) tweak(o);
        w = std::make_unique<main_window>(o);
        w->show();
        started = wait_until([&] { return running(*w); });
    }
};

} // namespace pcplab::ui::test
