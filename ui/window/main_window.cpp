// The live window: construction, the machine's lifecycle (installing a setup, switching sources, retiring the
// old ones) and the status bar. What each control does to the machine is in main_window_controls.cpp.
#include "window/main_window.hpp"

#include "live/live_source.hpp"
#include "session/replay_source.hpp"
#include "window/controls_panel.hpp"
#include "window/delta_panel.hpp"
#include "window/frame_pump.hpp"
#include "window/qt_text.hpp"
#include "window/recording_tap.hpp"
#include "window/view_area.hpp"

#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QStatusBar>

#include <algorithm>

namespace pcplab::ui
{

main_window::main_window(const window_options& opt, QWidget* parent)
    : QMainWindow(parent)
    , m_opt(opt)
    , m_base_font(QApplication::font())
    , m_tap(std::make_shared<recording_tap>())
{
    m_clock.start();
    setObjectName(QStringLiteral("pcplab-main-window"));
    if (opt.use_settings)
        m_settings = opt.settings_file.isEmpty()
            ? std::make_unique<QSettings>(QStringLiteral("pcplab"), QStringLiteral("pcplab"))
            : std::make_unique<QSettings>(opt.settings_file, QSettings::IniFormat);

    m_views = new view_area(make_views(nullptr), this);
    setCentralWidget(m_views);
    m_pump = new frame_pump(this);
    m_pump->set_views(m_views->views());
    connect(m_pump, &frame_pump::frame_shown, this, &main_window::on_frame);
    connect(m_pump, &frame_pump::machine_changed, this, [this] { m_deltas->clear(); });
    connect(m_views, &view_area::layout_changed, m_pump, &frame_pump::refresh);

    m_controls = new controls_panel;
    auto* scroll = new QScrollArea;
    scroll->setWidget(m_controls);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_controls_dock = new QDockWidget(tr("Controls"), this);
    m_controls_dock->setObjectName(QStringLiteral("controls-dock"));
    m_controls_dock->setWidget(scroll);
    fit_controls();
    addDockWidget(Qt::LeftDockWidgetArea, m_controls_dock);

    m_deltas = new delta_panel;
    m_deltas_dock = new QDockWidget(tr("Key figures"), this);
    m_deltas_dock->setObjectName(QStringLiteral("figures-dock"));
    m_deltas_dock->setToolTip(tr("The run's key figures; in A/B mode B against A, live"));
    m_deltas_dock->setWidget(m_deltas);
    addDockWidget(Qt::LeftDockWidgetArea, m_deltas_dock);

    m_status_state = new QLabel;
    m_status_state->setToolTip(tr("Run state and the virtual time reached"));
    m_status_rate = new QLabel;
    m_status_rate->setToolTip(tr("Virtual time per wall second achieved, and engine actions per second"));
    statusBar()->addPermanentWidget(m_status_rate);
    statusBar()->addPermanentWidget(m_status_state);

    build_menus();
    connect_controls();
    resize(1600, 1000);
    resizeDocks({m_controls_dock, m_deltas_dock}, {760, 230}, Qt::Vertical);
    restore_settings();
    if (opt.theme) m_theme = *opt.theme;
    if (opt.speed) m_speed = *opt.speed;
    m_controls->set_speed(m_speed);
    set_theme(m_theme);
    if (opt.presenter) set_presenter(true);

    const QString err = apply_setup(initial_setup(opt));
    if (!err.isEmpty() && !m_source) {
        // The saved preset is gone or broken: fall back to the default rather than open on nothing.
        run_setup fallback;
        apply_setup(fallback);
        show_message(tr("%1; opened the default preset instead").arg(err));
    }
    if (!opt.view.isEmpty()) m_views->set_focus_view(opt.view);
    if (!opt.replay.isEmpty()) open_recording(opt.replay);
    if (!opt.lesson.isEmpty() && !open_lesson_id(opt.lesson)) show_message(tr("No lesson '%1'").arg(opt.lesson));
}

main_window::~main_window()
{
    end_replay_ui();
    m_pump->set_source(nullptr);
    if (m_source) retire(std::move(m_source));
    reap_retired(true);
    m_tap->stop(); // the engines are stopped: nothing publishes any more
}

run_setup main_window::initial_setup(const window_options& opt)
{
    run_setup s;
    if (m_settings) {
        s.preset = m_settings->value(QStringLiteral("run/preset"), qs(s.preset)).toString().toStdString();
        s.era = m_settings->value(QStringLiteral("run/era")).toString().toStdString();
        s.workload = m_settings->value(QStringLiteral("run/workload"), qs(s.workload)).toString().toStdString();
    }
    if (opt.preset) {
        s.preset = *opt.preset;
        s.era.clear();
    }
    if (opt.era) s.era = *opt.era;
    if (opt.workload) s.workload = *opt.workload;
    if (opt.seed) s.seed = *opt.seed;
    for (const auto& sw : opt.patches) s.sw_a[static_cast<unsigned>(sw.p)] = sw.on;
    s.ab = opt.ab;
    if (s.ab) {
        if (auto r = resolve_setup(s); auto* ok = std::get_if<resolved_setup>(&r)) {
            if (opt.patches_b.empty())
                s.sw_b = default_b_switches(ok->a.patches, ok->machine.era);
            else
                for (unsigned i = 0; i < mm::NR_PATCHES; ++i) s.sw_b[i] = ok->a.patches.on[i];
        }
        for (const auto& sw : opt.patches_b) s.sw_b[static_cast<unsigned>(sw.p)] = sw.on;
    }
    return s;
}

QString main_window::apply_setup(const run_setup& s)
{
    auto resolved = resolve_setup(s);
    if (auto* err = std::get_if<std::string>(&resolved)) {
        show_message(tr("Cannot start: %1").arg(qs(*err)), 15000);
        // Put the controls back (during a replay they show the recording's setup and stay so).
        if (m_source && !m_source->is_replay()) m_controls->show_setup(m_setup, m_resolved);
        return qs(*err);
    }
    m_lesson_machine.reset();
    install_setup(s, std::get<resolved_setup>(std::move(resolved)), {});
    return {};
}

void main_window::install_setup(const run_setup& s, resolved_setup r, machine_extras x)
{
    const auto shown = m_pump->shown_a();
    // A lesson's workload lives in its source (the loop's factory): another setup needs a new source.
    const bool in_place
        = !x.make_load && !m_custom_load && m_source && m_source->reboot_with(r.a, r.b ? &*r.b : nullptr);
    if (in_place) {
        // Until the new machine shows, snapshots still carry the old switches: do not let them reset the boxes.
        m_sync_from_generation = std::max(m_sync_from_generation, (shown ? shown->run.generation : 0) + 1);
    } else {
        m_sync_from_generation = 0;
        live_options lo;
        lo.speed = x.speed.value_or(m_speed);
        lo.start_paused = x.start_paused;
        lo.make_load = x.make_load;
        lo.on_publish = [tap = m_tap, id = ++m_source_serial](const published_pair& p) { tap->publish(id, p); };
        auto next = std::make_unique<live_source>(r.a, r.b, lo);
        end_replay_ui();
        m_pump->set_source(next.get());
        if (m_source) retire(std::move(m_source));
        m_source = std::move(next);
        m_custom_load = static_cast<bool>(x.make_load);
    }
    m_setup = s;
    m_resolved = std::move(r);
    m_controls->show_setup(m_setup, m_resolved);
    if (m_ab_action) m_ab_action->setChecked(s.ab);
    update_title();
    QString notes;
    for (const auto& n : m_resolved.notes) notes += (notes.isEmpty() ? QString() : QStringLiteral("; ")) + qs(n);
    if (notes.isEmpty()) {
        m_boot_message = tr("Booting %1 on %2").arg(qs(s.preset), qs(m_resolved.machine.requested.str()));
        show_message(m_boot_message, 0); // until the machine runs (on_frame)
    } else {
        show_message(notes, 15000);
    }
    if (m_settings && !x.make_load) { // a lesson's machine is the lesson's, not the one to open on next time
        m_settings->setValue(QStringLiteral("run/preset"), qs(s.preset));
        m_settings->setValue(QStringLiteral("run/era"), qs(s.era));
        m_settings->setValue(QStringLiteral("run/workload"), qs(s.workload));
    }
}

void main_window::open_source(std::unique_ptr<frame_source> s)
{
    m_sync_from_generation = 0;
    end_replay_ui();
    m_pump->set_source(s.get());
    if (m_source) retire(std::move(m_source));
    m_source = std::move(s);
    m_custom_load = false;
    if (m_source && m_source->is_replay()) {
        show_message(tr("Replaying a recording"), 4000);
        begin_replay_ui(qobject_cast<replay_source*>(m_source.get()));
    }
}

void main_window::on_frame()
{
    const auto a = m_pump->shown_a();
    const auto b = m_pump->shown_b();
    if (!a) return;
    m_controls->show_snapshot(*a, b.get(), a->run.generation >= m_sync_from_generation);
    m_deltas->show_figures(*a, b.get());

    const double t_ms = static_cast<double>(a->sim_time_ns) / 1e6;
    QString st = tr("%1 · %2 virtual")
                     .arg(QString::fromLatin1(sim::run_state_name(a->state)),
                         t_ms >= 1000 ? tr("%1 s").arg(t_ms / 1000, 0, 'f', 3) : tr("%1 ms").arg(t_ms, 0, 'f', 2));
    if (b) st += tr(" · A/B lockstep");
    if (m_source && m_source->is_replay()) st = tr("replay: %1").arg(st); // the state is the recorded one
    if (a->state == sim::run_state::booting && !a->deferred_init.empty()) {
        unsigned long done = 0, total = 0;
        for (const auto& d : a->deferred_init) {
            done += d.done;
            total += d.total;
        }
        if (total > 0) st += tr(" · deferred init %1%").arg(100.0 * static_cast<double>(done) / total, 0, 'f', 0);
    }
    m_status_state->setText(st);
    QStringList rate;
    if (a->run.vns_per_s > 0) rate << tr("%1x real time").arg(a->run.vns_per_s / 1e9, 0, 'g', 3);
    if (a->run.events_per_s > 0) rate << tr("%1 k actions/s").arg(a->run.events_per_s / 1e3, 0, 'f', 0);
    if (a->run.behind) rate << tr("behind");
    m_status_rate->setText(rate.join(QStringLiteral(" · ")));
    if (a->state == sim::run_state::booting) {
        m_views->show_boot(true);
        m_boot_done_at = -1;
    } else if (m_boot_done_at < 0) {
        m_boot_done_at = m_clock.elapsed();
    } else if (m_clock.elapsed() - m_boot_done_at > 1500) {
        m_views->show_boot(false); // after a moment on the finished boot (modelled vs host time)
    }
    if (!m_boot_message.isEmpty() && a->state != sim::run_state::booting) {
        if (statusBar()->currentMessage() == m_boot_message) statusBar()->clearMessage();
        m_boot_message.clear();
    }
    if (a->state == sim::run_state::failed) show_message(tr("The engine failed: %1").arg(qs(a->error)), 0);

    // Commands the engine refused, or accepted with a note.
    const auto& results = m_pump->recent_results();
    const std::uint64_t total = m_pump->results_total();
    const std::uint64_t fresh = std::min<std::uint64_t>(total - std::min(total, m_commands_seen), results.size());
    for (std::size_t i = results.size() - fresh; i < results.size(); ++i) {
        const auto& r = results[i];
        if (!r.ok)
            show_message(tr("%1 refused: %2").arg(qs(r.what), qs(r.message)), 10000);
        else if (!r.message.empty() && r.kind != sim::command_kind::set_patch)
            show_message(qs(r.what) + QStringLiteral(": ") + qs(r.message), 6000);
    }
    m_commands_seen = total;
    show_recording_state();
    reap_retired(false);
}

// The controls never need a horizontal scroll bar, whatever the font (presenter mode scales it).
void main_window::fit_controls()
{
    if (auto* scroll = qobject_cast<QScrollArea*>(m_controls_dock->widget())) {
        // Wide enough for a switch's name on one line ("000 pcp-update-after-deferred-init (era default)").
        const int line = QFontMetrics(m_controls->font()).horizontalAdvance(QString(62, QLatin1Char('n')));
        m_controls->adjustSize();
        scroll->setMinimumWidth(
            std::max(m_controls->sizeHint().width(), line) + scroll->verticalScrollBar()->sizeHint().width() + 4);
    }
}

void main_window::show_message(const QString& text, int ms)
{
    m_last_message = text;
    statusBar()->showMessage(text, ms);
}

void main_window::update_title()
{
    if (auto* r = qobject_cast<replay_source*>(m_source.get())) {
        setWindowTitle(tr("pcplab — replay of %1").arg(QFileInfo(qs(r->recording().path())).fileName()));
        return;
    }
    setWindowTitle(
        tr("pcplab — %1 (%2)%3")
            .arg(qs(m_setup.preset), qs(m_resolved.machine.requested.str()), m_setup.ab ? tr(" — A/B") : QString()));
}

// The old source is stopped on a helper thread (a boot in progress completes first, a large machine takes a
// while to free); its QObject is deleted here, on the window's thread, once that is done.
void main_window::retire(std::unique_ptr<frame_source> old)
{
    if (!qobject_cast<live_source*>(old.get())) {
        old->stop(); // a replay's timers belong to this thread, and it has no engine to wait for
        return;
    }
    retired r;
    r.done = std::make_shared<std::atomic<bool>>(false);
    frame_source* raw = old.get();
    r.stopper = std::thread([raw, done = r.done] {
        raw->stop();
        done->store(true);
    });
    r.source = std::move(old);
    m_retired.push_back(std::move(r));
}

void main_window::reap_retired(bool wait)
{
    for (auto it = m_retired.begin(); it != m_retired.end();) {
        if (wait || it->done->load()) {
            it->stopper.join();
            it = m_retired.erase(it);
        } else {
            ++it;
        }
    }
}

std::size_t main_window::retiring_sources() const
{
    return m_retired.size();
}

void main_window::closeEvent(QCloseEvent* e)
{
    save_settings();
    QMainWindow::closeEvent(e);
}

} // namespace pcplab::ui
