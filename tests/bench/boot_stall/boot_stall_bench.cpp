// pcplab_boot_stall_bench: does the window's thread stall while a machine boots? The window (offscreen, its
// default 1600x1000 layout, a temporary settings file) switches to each preset in turn, as the preset box does
// (main_window::choose_preset: the old machine is stopped, the new one built and booted on the engine's
// threads), while a timer on the window's thread fires every millisecond. The longest gap between two ticks
// is how long the window could not paint or take input. Measured from the switch until the new machine's
// workload has run --run-ms of virtual time (its boot played in full), per preset; the bound is 100 ms.
//
//   pcplab_boot_stall_bench [--presets a,b,...] [--run-ms M] [--ab] [--speed X|max] [--timeout-s S]
//
// Prints one line per preset: the longest gap, the 99th percentile gap, how long the switch call itself held
// the thread, the wall time to the running machine, and where the longest gap fell (during the boot or after).
// Exit status 1 when a preset stalled over 100 ms or did not reach its workload in time.
#include "../bench_option.hpp"
#include "sim/host_malloc.hpp"
#include "ui/window/frame_pump.hpp"
#include "ui/window/machine_control.hpp"
#include "ui/window/main_window.hpp"

#include <QApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace
{

struct args {
    std::vector<std::string> presets = {"classroom", "skylake-2s", "broadwell-2s", "skylake-4s", "broadwell-4s",
        "intel-2s-224", "epyc2-256", "meta-250g-176", "xeon-88-503g", "xeon-8s-288-1t", "meta-1t-316"};
    double run_ms = 50; // virtual time of the workload to wait for after the boot
    bool ab = false;
    double speed = 1e9;
    int timeout_s = 300;
};

std::vector<std::string> split(const std::string& s)
{
    std::vector<std::string> out;
    std::size_t from = 0;
    while (from <= s.size()) {
        const std::size_t comma = s.find(',', from);
        const std::string part = s.substr(from, comma == std::string::npos ? std::string::npos : comma - from);
        if (!part.empty()) out.push_back(part);
        if (comma == std::string::npos) break;
        from = comma + 1;
    }
    return out;
}

args parse(int argc, char** argv)
{
    args a;
    for (int i = 1; i < argc; ++i) {
        const std::string k = argv[i];
        auto next = [&] { return pcplab::bench::option_value(argc, argv, i, "pcplab_boot_stall_bench"); };
        if (k == "--presets")
            a.presets = split(next());
        else if (k == "--run-ms")
            a.run_ms = std::stod(next());
        else if (k == "--ab")
            a.ab = true;
        else if (k == "--speed") {
            const std::string v = next();
            a.speed = v == "max" ? 0 : std::stod(v);
        } else if (k == "--timeout-s")
            a.timeout_s = std::stoi(next());
        else {
            std::fprintf(stderr, "pcplab_boot_stall_bench: unknown option %s\n", k.c_str());
            std::exit(2);
        }
    }
    return a;
}

// Gaps between the ticks of a 1 ms timer on the window's thread.
class tick_gaps
{
public:
    tick_gaps()
    {
        m_timer.setTimerType(Qt::PreciseTimer);
        m_timer.setInterval(1);
        QObject::connect(&m_timer, &QTimer::timeout, [this] { tick(); });
        m_clock.start();
        m_last = m_clock.nsecsElapsed();
        m_timer.start();
    }
    void restart()
    {
        m_gaps.clear();
        m_longest_at = 0;
        m_last = m_clock.nsecsElapsed();
    }
    void tick()
    {
        const qint64 now = m_clock.nsecsElapsed();
        const double gap_ms = static_cast<double>(now - m_last) / 1e6;
        if (m_gaps.empty() || gap_ms > *std::max_element(m_gaps.begin(), m_gaps.end())) m_longest_at = now;
        m_gaps.push_back(gap_ms);
        m_last = now;
    }
    double longest() const { return m_gaps.empty() ? 0 : *std::max_element(m_gaps.begin(), m_gaps.end()); }
    double p99() const
    {
        if (m_gaps.empty()) return 0;
        std::vector<double> v = m_gaps;
        std::sort(v.begin(), v.end());
        return v[std::min(v.size() - 1, static_cast<std::size_t>(0.99 * static_cast<double>(v.size())))];
    }
    qint64 longest_at() const { return m_longest_at; }
    qint64 now() const { return m_clock.nsecsElapsed(); }

private:
    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_last = 0, m_longest_at = 0;
    std::vector<double> m_gaps;
};

} // namespace

int main(int argc, char** argv)
{
    const args a = parse(argc, argv);
    qputenv("QT_QPA_PLATFORM", "offscreen");
    pcplab::sim::keep_freed_memory_for_reuse(); // as app/gui's main does
    QApplication app(argc, argv);
    QTemporaryDir dir;
    pcplab::ui::window_options o;
    o.settings_file = dir.filePath(QStringLiteral("bench.ini"));
    o.preset = "classroom";
    o.speed = a.speed;
    o.ab = a.ab;
    pcplab::ui::main_window w(o);
    w.resize(1600, 1000);
    w.show();
    tick_gaps gaps;

    auto shown = [&] { return w.pump()->shown_a(); };
    // The first machine running: the measurements start from a window at work.
    auto wait_running = [&](std::uint64_t generation, QElapsedTimer& t, qint64& boot_done_ns) {
        boot_done_ns = -1;
        while (t.elapsed() < a.timeout_s * 1000LL) {
            QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
            auto s = shown();
            if (!s || s->run.generation < generation) continue;
            if (s->state == pcplab::sim::run_state::failed) return false;
            if (s->sim_time_ns < s->boot.workload_start_ns || s->state == pcplab::sim::run_state::booting) continue;
            if (boot_done_ns < 0) boot_done_ns = gaps.now();
            if (s->sim_time_ns >= s->boot.workload_start_ns + static_cast<std::uint64_t>(a.run_ms * 1e6)) return true;
            if (s->state == pcplab::sim::run_state::finished) return true;
        }
        return false;
    };
    {
        QElapsedTimer t;
        t.start();
        qint64 ignored = 0;
        if (!wait_running(0, t, ignored)) {
            std::fprintf(stderr, "pcplab_boot_stall_bench: the first machine did not run\n");
            return 1;
        }
    }

    std::printf("%-16s %10s %10s %10s %10s %10s  %s\n", "preset", "max gap", "p99 gap", "call", "to run", "booted",
        "longest gap");
    int status = 0;
    for (const auto& p : a.presets) {
        const std::uint64_t generation = shown() ? shown()->run.generation + 1 : 1;
        gaps.restart();
        QElapsedTimer t;
        t.start();
        const qint64 call_from = gaps.now();
        w.machine()->choose_preset(QString::fromStdString(p));
        const double call_ms = static_cast<double>(gaps.now() - call_from) / 1e6;
        // The call itself held the thread: it counts as a gap too.
        gaps.tick();
        qint64 boot_done = -1;
        const bool ran = wait_running(generation, t, boot_done);
        const double to_run_ms = static_cast<double>(t.nsecsElapsed()) / 1e6;
        const double longest = std::max(gaps.longest(), call_ms);
        const char* where = boot_done < 0 || gaps.longest_at() <= boot_done ? "while booting" : "after the boot";
        std::printf("%-16s %8.1f ms %7.1f ms %7.1f ms %8.0f ms %10s  %s\n", p.c_str(), longest, gaps.p99(), call_ms,
            to_run_ms, ran ? "yes" : "NO", where);
        std::fflush(stdout);
        if (!ran || longest > 100) status = 1;
    }
    return status;
}
