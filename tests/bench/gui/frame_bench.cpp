// pcplab_gui_bench: how long building and painting one frame takes, offscreen, on a running machine (default
// meta-1t-316, the largest preset: 316 CPUs). The target is 8 ms per frame. Two layouts:
//   default   every one of the 9 views in its own 1280x720 window, all painted every frame: a stress bound,
//             about five times the pixels the window ever shows at once;
//   --window  the views as the window arranges them (window/view_area: the 2 x 2 grid and the tab row, one
//             tab showing), in a 1100x950 area, the default 1600x1000 window's central area: what a frame of
//             the window costs. Hidden tabs get their frame as in the window (they keep it for later).
//             --tab NAME shows that view's tab (e.g. heat, the per-CPU heatmap), --focus NAME has that one
//             view fill the area (Alt+N, `pcplab --view NAME`).
// Also saves each view as a PNG (--png DIR) so that the views can be looked at without a display.
//
//   pcplab_gui_bench [--preset P] [--frames N] [--step-us U] [--warmup-ms M] [--ab] [--dark] [--png DIR]
//                    [--window [--tab NAME | --focus NAME]] [--size WxH] [--per-frame]
#include "../../ui/views_harness.hpp"
#include "../bench_option.hpp"

#include "sim/host_malloc.hpp"
#include "ui/views/view.hpp"
#include "ui/window/view_area.hpp"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QPalette>
#include <QPixmap>
#include <QStyleFactory>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <map>
#include <string>
#include <vector>

namespace
{

struct args {
    std::string preset = "meta-1t-316";
    int frames = 60;
    long step_us = 200; // virtual time between two frames
    long warmup_ms = 5; // virtual time run before the first measured frame
    bool ab = false, dark = false;
    bool per_frame = false; // print every frame's CPU times (to tell periodic spikes from noise)
    std::string png;
    bool window = false; // the window's arrangement instead of one window per view
    int width = 0, height = 0; // 0: 1280x720 per view, or 1100x950 for the window's area
    std::string tab, focus; // --window: the tab shown, or the one view filling the area
};

args parse(int argc, char** argv)
{
    args a;
    for (int i = 1; i < argc; ++i) {
        const std::string k = argv[i];
        auto next = [&] { return pcplab::bench::option_value(argc, argv, i, "pcplab_gui_bench"); };
        if (k == "--preset")
            a.preset = next();
        else if (k == "--frames")
            a.frames = std::stoi(next());
        else if (k == "--step-us")
            a.step_us = std::stol(next());
        else if (k == "--warmup-ms")
            a.warmup_ms = std::stol(next());
        else if (k == "--ab")
            a.ab = true;
        else if (k == "--dark")
            a.dark = true;
        else if (k == "--window")
            a.window = true;
        else if (k == "--per-frame")
            a.per_frame = true;
        else if (k == "--png")
            a.png = next();
        else if (k == "--tab")
            a.tab = next();
        else if (k == "--focus")
            a.focus = next();
        else if (k == "--size") {
            const std::string v = next();
            a.width = std::stoi(v.substr(0, v.find('x')));
            a.height = std::stoi(v.substr(v.find('x') + 1));
        } else {
            std::fprintf(stderr,
                "usage: pcplab_gui_bench [--preset P] [--frames N] [--step-us U] [--warmup-ms M] "
                "[--ab] [--dark] [--png DIR] [--window [--tab NAME | --focus NAME]] [--size WxH] [--per-frame]\n");
            std::exit(2);
        }
    }
    if (a.width <= 0 || a.height <= 0) {
        a.width = a.window ? 1100 : 1280;
        a.height = a.window ? 950 : 720;
    }
    return a;
}

QPalette dark_palette()
{
    QPalette p;
    p.setColor(QPalette::Window, QColor(37, 37, 40));
    p.setColor(QPalette::WindowText, QColor(230, 230, 230));
    p.setColor(QPalette::Base, QColor(28, 28, 30));
    p.setColor(QPalette::AlternateBase, QColor(45, 45, 48));
    p.setColor(QPalette::Text, QColor(230, 230, 230));
    p.setColor(QPalette::Button, QColor(50, 50, 54));
    p.setColor(QPalette::ButtonText, QColor(230, 230, 230));
    p.setColor(QPalette::Highlight, QColor(42, 130, 218));
    p.setColor(QPalette::HighlightedText, Qt::black);
    p.setColor(QPalette::ToolTipBase, QColor(50, 50, 54));
    p.setColor(QPalette::ToolTipText, QColor(230, 230, 230));
    p.setColor(QPalette::PlaceholderText, QColor(150, 150, 150));
    return p;
}

struct stats {
    std::vector<double> ms;
    double mean() const
    {
        double s = 0;
        for (double v : ms) s += v;
        return ms.empty() ? 0 : s / static_cast<double>(ms.size());
    }
    double p99() const
    {
        if (ms.empty()) return 0;
        std::vector<double> v = ms;
        std::sort(v.begin(), v.end());
        return v[std::min(v.size() - 1, static_cast<std::size_t>(0.99 * static_cast<double>(v.size())))];
    }
};

double ms_since(const QElapsedTimer& t)
{
    return static_cast<double>(t.nsecsElapsed()) / 1e6;
}

} // namespace

int main(int argc, char** argv)
{
    pcplab::sim::keep_freed_memory_for_reuse(); // as every program that runs the engine does
    if (!std::getenv("QT_QPA_PLATFORM")) setenv("QT_QPA_PLATFORM", "offscreen", 1);
    QApplication app(argc, argv);
    const args a = parse(argc, argv);
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    if (a.dark) QApplication::setPalette(dark_palette());

    std::printf("building %s%s ...\n", a.preset.c_str(), a.ab ? " (A/B)" : "");
    std::fflush(stdout);
    QElapsedTimer build_t;
    build_t.start();
    using pcplab::test::stepped_machine;
    auto cfg = pcplab::test::preset_engine_config(a.preset);
    stepped_machine ma(cfg, 0);
    std::unique_ptr<stepped_machine> mb;
    if (a.ab) {
        auto cfg_b = cfg;
        // B differs in the first switch whose flip means something on this era.
        for (unsigned i = 0; i < pcplab::mm::NR_PATCHES; ++i) {
            const auto sw = static_cast<pcplab::mm::patch>(i);
            if (!pcplab::mm::patch_not_applicable(sw, !cfg.patches[sw], cfg.era).empty()) continue;
            cfg_b.patches.set(sw, !cfg.patches[sw]);
            std::printf("B: %s %s\n", std::string(pcplab::mm::patch_name(sw)).c_str(), cfg.patches[sw] ? "off" : "on");
            break;
        }
        mb = std::make_unique<stepped_machine>(cfg_b, 1);
    }
    std::printf("booted in %.1f s wall\n", ms_since(build_t) / 1000);
    // The /proc texts as the engine thread renders them: every 500 ms of wall time (the default options).
    ma.options() = pcplab::sim::snapshot_options{};
    if (mb) mb->options() = pcplab::sim::snapshot_options{};

    const pcplab::sim::vtime_ns step = a.step_us * 1000;
    for (pcplab::sim::vtime_ns t = 0; t < a.warmup_ms * 1'000'000; t += step) {
        ma.advance(step);
        if (mb) mb->advance(step);
    }

    // Each view its own top-level window, all shown (every one paints as it would in its own tab or dock), or
    // the window's arrangement of them.
    std::vector<pcplab::ui::view*> views = pcplab::ui::make_views(nullptr);
    std::unique_ptr<pcplab::ui::view_area> area;
    if (a.window) {
        area = std::make_unique<pcplab::ui::view_area>(views); // owns the views from here on
        area->resize(a.width, a.height);
        area->show();
        if (!a.tab.empty()) area->raise_view(QString::fromStdString(a.tab));
        if (!a.focus.empty() && !area->set_focus_view(QString::fromStdString(a.focus))) {
            std::fprintf(stderr, "--focus: no view named %s\n", a.focus.c_str());
            return 2;
        }
    } else {
        for (auto* v : views) {
            v->resize(a.width, a.height);
            v->show();
        }
    }
    app.processEvents();

    // One untimed frame first: layouts, fonts and the model view's text are built once per run, not per frame.
    {
        ma.advance(step);
        if (mb) mb->advance(step);
        const pcplab::ui::frame fr = pcplab::test::make_frame(ma, mb.get());
        for (auto* v : views) v->show_frame(fr);
        app.processEvents();
        app.processEvents();
    }

    using pcplab::test::thread_cpu_ms; // CPU time: on a loaded host wall time also counts waiting for a core
    std::map<QString, stats> per_view, per_view_cpu;
    stats all, all_cpu, snap, hist, hist_cpu, frame_total, frame_cpu;
    for (int f = 0; f < a.frames; ++f) {
        // The engine side (not the UI's cost, reported apart): run, build the snapshot, append to history.
        ma.engine().run_until(ma.engine().now() + step);
        if (mb) mb->engine().run_until(mb->engine().now() + step);
        stepped_machine::publish_times ta, tb;
        ma.publish(&ta);
        if (mb) mb->publish(&tb);
        snap.ms.push_back(ta.build_ms + tb.build_ms);
        hist.ms.push_back(ta.append_ms + tb.append_ms);
        hist_cpu.ms.push_back(ta.append_cpu_ms + tb.append_cpu_ms);
        pcplab::ui::frame fr = pcplab::test::make_frame(ma, mb.get());
        double total = 0, total_cpu = 0;
        for (auto* v : views) {
            // A frame of one view: show_frame, then the event loop runs its queued replot and paints it into
            // the (offscreen) window, exactly what the window's timer tick costs.
            QElapsedTimer vt;
            vt.start();
            const double c0 = thread_cpu_ms();
            v->show_frame(fr);
            app.processEvents();
            app.processEvents(); // a replot's own update() lands in a second pass
            const double ms = ms_since(vt), cpu = thread_cpu_ms() - c0;
            per_view[v->view_id()].ms.push_back(ms);
            per_view_cpu[v->view_id()].ms.push_back(cpu);
            total += ms;
            total_cpu += cpu;
        }
        if (a.per_frame) {
            std::printf("frame %3d cpu %6.2f ms:", f, total_cpu + hist_cpu.ms.back());
            for (auto* v : views)
                std::printf(" %s %.2f", v->view_id().toUtf8().constData(), per_view_cpu[v->view_id()].ms.back());
            std::printf(" history %.2f\n", hist_cpu.ms.back());
        }
        all.ms.push_back(total);
        all_cpu.ms.push_back(total_cpu);
        frame_total.ms.push_back(total + hist.ms.back());
        frame_cpu.ms.push_back(total_cpu + hist_cpu.ms.back());
    }

    std::printf("\n%d frames of %s%s, %s %dx%d, %ld us virtual per frame, %zu history samples, %zu holds kept\n",
        a.frames, a.preset.c_str(), a.ab ? " (A/B)" : "", a.window ? "the window's view area" : "each view", a.width,
        a.height, a.step_us, ma.hist().samples().size(), ma.hist().holds().size());
    if (a.window) {
        std::printf("shown:");
        for (auto* v : views)
            if (v->isVisible()) std::printf(" %s %dx%d", v->view_id().toUtf8().constData(), v->width(), v->height());
        std::printf("\n");
    }
    std::printf("%-10s %9s %9s %9s %9s\n", "", "wall", "wall", "cpu", "cpu");
    std::printf("%-10s %9s %9s %9s %9s\n", "view", "mean ms", "p99 ms", "mean ms", "p99 ms");
    auto row = [](const char* name, const stats& w, const stats& c, const char* note) {
        std::printf("%-10s %9.2f %9.2f %9.2f %9.2f%s\n", name, w.mean(), w.p99(), c.mean(), c.p99(), note);
    };
    for (auto* v : views) {
        const QByteArray id = v->view_id().toUtf8();
        row(id.constData(), per_view[v->view_id()], per_view_cpu[v->view_id()], "");
    }
    row("all views", all, all_cpu, "");
    row("history", hist, hist_cpu, "   (append of the new snapshot)");
    row("frame", frame_total, frame_cpu, "   (history + every view; target 8 ms)");
    row("snapshot", snap, snap, "   (engine thread's cost, not the UI's)");

    if (!a.png.empty()) {
        QDir().mkpath(QString::fromStdString(a.png));
        for (auto* v : views) {
            const QString path
                = QString::fromStdString(a.png) + QStringLiteral("/") + v->view_id() + QStringLiteral(".png");
            v->grab().save(path);
            std::printf("saved %s\n", path.toUtf8().constData());
        }
    }
    const bool ok = frame_cpu.p99() <= 8.0;
    if (!area)
        for (auto* v : views) delete v;
    return ok ? 0 : 1;
}
