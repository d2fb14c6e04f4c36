// The window's recordings: replaying one (a timeline bar at the bottom while it plays), recording the live
// run(s), comparing recordings and exporting the current view as a figure. Every problem is a message that
// names the file; the live machine is never stopped by one.
#include "ui/window/session_control.hpp"

#include "ui/session/compare_view.hpp"
#include "ui/session/figure_export.hpp"
#include "ui/session/replay_source.hpp"
#include "ui/session/timeline_bar.hpp"
#include "ui/window/controls_panel.hpp"
#include "ui/window/frame_pump.hpp"
#include "ui/window/machine_control.hpp"
#include "ui/window/qt_text.hpp"
#include "ui/window/recorded_setup.hpp"
#include "ui/window/recording_tap.hpp"
#include "ui/window/view_area.hpp"
#include "ui/window/window_status.hpp"

#include "session/recording_schema.hpp"
#include "session/recording_writer.hpp"

#include <QAction>
#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QPainter>
#include <QPdfWriter>
#include <QStandardPaths>
#include <QStatusBar>
#include <QSvgGenerator>
#include <QToolBar>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include <utility>

namespace pcplab::ui
{

namespace
{
// A recorded snapshot every 10 ms of virtual time, whatever the speed: `pcplab-cli run --record` samples its
// run 200 times (duration / 200, at most every 10 ms), so a window recording is at least as dense.
constexpr sim::vtime_ns RECORD_SAMPLE_NS = 10'000'000;

const QString k_recordings = QObject::tr("pcplab recordings (*.db *.sqlite *.pcplab);;All files (*)");
} // namespace

session_control::session_control(const parts& p, QObject* parent)
    : QObject(parent)
    , m_parts(p)
    , m_tap(std::make_shared<recording_tap>())
{
    m_parts.machine->set_publish_hook(
        [tap = m_tap](std::uint64_t id, const published_pair& pair) { tap->publish(id, pair); });
    connect(m_parts.machine, &machine_control::source_leaving, this, &session_control::end_replay_ui);
    connect(m_parts.machine, &machine_control::source_changed, this, &session_control::begin_replay_ui);
}

session_control::~session_control()
{
    end_replay_ui();
    m_tap->stop(); // the engines are stopped (the machine goes first): nothing publishes any more
}

void session_control::add_actions(QMenu* file)
{
    QWidget* win = m_parts.window;
    auto add = [win, file](const QString& text, const QKeySequence& key, const QString& tip) {
        QAction* a = file->addAction(text);
        if (!key.isEmpty()) a->setShortcut(key);
        a->setToolTip(tip);
        a->setStatusTip(tip);
        win->addAction(a);
        return a;
    };
    connect(add(tr("Open recording..."), QKeySequence(tr("Ctrl+O")), tr("Replay a recording in the views")),
        &QAction::triggered, this, [this] {
            const QString f = QFileDialog::getOpenFileName(m_parts.window, tr("Open recording"), {}, k_recordings);
            if (f.isEmpty()) return;
            if (const QString err = open_recording(f); !err.isEmpty())
                QMessageBox::warning(m_parts.window, tr("Open recording"), err);
        });
    m_live_action = add(tr("Back to live machine"), {}, tr("Leave the replay and boot the live machine again"));
    m_live_action->setEnabled(false);
    connect(m_live_action, &QAction::triggered, this, &session_control::back_to_live);
    m_record_action = add(tr("Record..."), QKeySequence(tr("Ctrl+Shift+R")),
        tr("Record the live run (A and B in A/B mode) to a file until unchecked"));
    m_record_action->setCheckable(true);
    connect(m_record_action, &QAction::triggered, this, [this](bool on) {
        QString err;
        if (on) {
            const QString f = QFileDialog::getSaveFileName(m_parts.window, tr("Record to"),
                QStringLiteral("pcplab-%1.db").arg(qs(m_parts.machine->setup().preset).section(QLatin1Char('/'), -1)),
                k_recordings);
            if (f.isEmpty()) {
                m_record_action->setChecked(false);
                return;
            }
            err = start_recording(f);
        } else {
            err = stop_recording();
        }
        if (!err.isEmpty()) QMessageBox::warning(m_parts.window, tr("Record"), err);
    });
    m_record_compare_action = add(tr("Record A/B and compare"), QKeySequence(tr("Ctrl+Shift+K")),
        tr("Record the running A/B pair until the run finishes (or until pressed again), then compare A and B"));
    m_record_compare_action->setCheckable(true);
    connect(m_record_compare_action, &QAction::triggered, this, [this](bool on) {
        const QString err = on ? start_ab_comparison() : finish_ab_comparison();
        if (!err.isEmpty()) QMessageBox::warning(m_parts.window, tr("Record A/B and compare"), err);
    });
    connect(add(tr("Compare recordings..."), {}, tr("Overlay two or more recordings and tabulate them")),
        &QAction::triggered, this, [this] {
            const QStringList files = QFileDialog::getOpenFileNames(
                m_parts.window, tr("Compare recordings (choose two or more)"), {}, k_recordings);
            if (files.isEmpty()) return;
            if (const QString err = compare_recordings(files); !err.isEmpty())
                QMessageBox::warning(m_parts.window, tr("Compare recordings"), err);
        });
    connect(add(tr("Export figure..."), QKeySequence(tr("Ctrl+E")), tr("Save the current view's plot")),
        &QAction::triggered, this, [this] {
            const QString f
                = QFileDialog::getSaveFileName(m_parts.window, tr("Export figure"), QStringLiteral("pcplab-figure.png"),
                    tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"));
            if (f.isEmpty()) return;
            if (const QString err = export_figure(f); !err.isEmpty())
                QMessageBox::warning(m_parts.window, tr("Export figure"), err);
        });
}

QString session_control::open_recording(const QString& path)
{
    std::unique_ptr<replay_source> r;
    try {
        r = std::make_unique<replay_source>(path.toStdString());
    } catch (const std::exception& e) {
        // recording_error names the file; anything else (a file sqlite cannot open at all) gets its name here.
        QString what = qs(e.what());
        if (!what.contains(path)) what = QStringLiteral("%1: %2").arg(path, what);
        m_parts.status->show_message(tr("Cannot replay %1").arg(what), 15000);
        return what;
    }
    if (r->snapshot_count() == 0) {
        const QString what = tr("%1: the recording has no snapshots").arg(path);
        m_parts.status->show_message(tr("Cannot replay %1").arg(what), 15000);
        return what;
    }
    m_parts.machine->open_source(std::move(r));
    m_parts.status->show_message(tr("Replaying %1 (Space plays, \"Back to live machine\" in the File menu returns)")
                                     .arg(QFileInfo(path).fileName()),
        8000);
    return {};
}

void session_control::begin_replay_ui(frame_source* s)
{
    auto* r = qobject_cast<replay_source*>(s);
    if (!r) return;
    m_parts.status->show_message(tr("Replaying a recording"), 4000);
    if (!m_replay_bar) {
        m_replay_bar = new QToolBar(tr("Replay"), m_parts.window);
        m_replay_bar->setObjectName(QStringLiteral("replay-bar"));
        m_replay_bar->setMovable(false);
        m_parts.window->addToolBar(Qt::BottomToolBarArea, m_replay_bar);
    }
    auto* label = new QLabel(QStringLiteral(" %1 ").arg(QFileInfo(qs(r->recording().path())).fileName()));
    label->setToolTip(tr("The recording being replayed"));
    auto* box = new QWidget;
    auto* lay = new QHBoxLayout(box);
    lay->setContentsMargins(0, 0, 0, 0);
    lay->addWidget(label);
    m_timeline = new timeline_bar(r);
    lay->addWidget(m_timeline, 1);
    m_replay_bar->addWidget(box);
    m_replay_bar->show();
    if (m_live_action) m_live_action->setEnabled(true);
    // A history only appends: after a backward scrub it is rebuilt up to where the replay landed.
    frame_pump* pump = m_parts.pump;
    connect(r, &replay_source::rewound, this,
        [pump, r] { pump->rebuild_history([r](history& h) { r->refill_history(h); }); });
    // The controls show how the recording was made (its snapshots then move the switch boxes as they were).
    const session::recording& rec = r->recording();
    const recorded_setup shown = setup_of_recording(rec.run(r->run()), r->run_b() ? &rec.run(r->run_b()) : nullptr);
    m_parts.controls->show_setup(shown.setup, shown.resolved);
    m_parts.controls->set_replay(true);
}

void session_control::end_replay_ui()
{
    if (m_timeline) delete m_timeline->parentWidget(); // the timeline refers to the replay: it goes first
    m_timeline = nullptr;
    if (m_replay_bar) {
        for (QAction* a : m_replay_bar->actions()) {
            m_replay_bar->removeAction(a);
            delete a;
        }
        m_replay_bar->hide();
    }
    if (m_live_action) m_live_action->setEnabled(false);
    if (m_parts.controls->replay()) {
        m_parts.controls->set_replay(false);
        m_parts.controls->show_setup(m_parts.machine->setup(), m_parts.machine->resolved()); // the live one's
    }
}

void session_control::back_to_live()
{
    m_parts.machine->back_to_live();
}

QString session_control::start_recording(const QString& path)
{
    const machine_control* m = m_parts.machine;
    std::optional<session::run_header> base;
    if (m->source() && !m->replaying()) base = session::run_header_for(m->resolved().a, m->setup().preset);
    const std::string err = m_tap->start(path.toStdString(), base,
        "every published snapshot: one per " + std::to_string(RECORD_SAMPLE_NS / 1'000'000)
            + " ms of virtual time, and about 30 per wall second");
    if (!err.empty()) {
        const QString what = qs(err).contains(path) ? qs(err) : QStringLiteral("%1: %2").arg(path, qs(err));
        m_parts.status->show_message(tr("Cannot record: %1").arg(what), 15000);
        if (m_record_action) m_record_action->setChecked(false);
        show_recording_state();
        return what;
    }
    if (m_record_action) m_record_action->setChecked(true);
    m_parts.machine->set_sample_interval(RECORD_SAMPLE_NS);
    m_parts.status->show_message(m->replaying()
            ? tr("Recording to %1: the live machine is recorded once it runs again").arg(path)
            : tr("Recording to %1").arg(path),
        5000);
    show_recording_state();
    return {};
}

QString session_control::stop_recording()
{
    if (!m_tap->active()) return {};
    const QString path = qs(m_tap->path());
    m_parts.machine->set_sample_interval(0);
    const std::string err = m_tap->stop();
    if (m_record_action) m_record_action->setChecked(false);
    show_recording_state();
    if (!err.empty()) {
        m_parts.status->show_message(tr("Recording %1 failed: %2").arg(path, qs(err)), 15000);
        return qs(err);
    }
    m_parts.status->show_message(tr("Recorded %1 snapshots to %2").arg(m_tap->last_written()).arg(path), 8000);
    return {};
}

bool session_control::recording() const
{
    return m_tap->active();
}

std::uint64_t session_control::recorded_snapshots() const
{
    return m_tap->written();
}

QString session_control::start_ab_comparison()
{
    const machine_control* m = m_parts.machine;
    QString err;
    if (!m->source() || m->replaying() || !m->setup().ab)
        err = tr("Record A/B and compare needs the live machine in A/B mode (Run > A/B, Ctrl+B)");
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    if (err.isEmpty() && !QDir().mkpath(dir)) err = tr("%1: cannot make the folder for the recording").arg(dir);
    if (err.isEmpty()) {
        const QString file = QStringLiteral("%1/ab-%2-%3.db")
                                 .arg(dir, qs(m->setup().preset).section(QLatin1Char('/'), -1),
                                     QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss")));
        err = start_recording(file);
        if (err.isEmpty()) m_compare_path = file;
    }
    if (!err.isEmpty()) {
        m_parts.status->show_message(err, 10000);
        if (m_record_compare_action) m_record_compare_action->setChecked(false);
        return err;
    }
    if (m_record_compare_action) m_record_compare_action->setChecked(true);
    m_parts.status->show_message(
        tr("Recording A and B to %1: Compare opens when the run finishes").arg(m_compare_path), 8000);
    return {};
}

QString session_control::finish_ab_comparison()
{
    if (m_compare_path.isEmpty()) return {};
    const QString path = std::exchange(m_compare_path, QString());
    if (m_record_compare_action) m_record_compare_action->setChecked(false);
    if (const QString err = stop_recording(); !err.isEmpty()) return err;
    return compare_recordings({path});
}

void session_control::show_recording_state()
{
    // A comparison being recorded ends with the run: both machines finished.
    if (!m_compare_path.isEmpty()) {
        const auto a = m_parts.pump->shown_a();
        const auto b = m_parts.pump->shown_b();
        if (a && b && a->state == sim::run_state::finished && b->state == sim::run_state::finished)
            finish_ab_comparison();
    }
    if (!m_status_record) {
        m_status_record = new QLabel;
        m_status_record->setToolTip(tr("Recording the live run (File > Record...)"));
        m_parts.window->statusBar()->insertPermanentWidget(0, m_status_record);
    }
    if (!m_tap->active()) {
        m_status_record->hide();
        return;
    }
    const auto dropped = m_tap->dropped();
    m_status_record->setText(tr("<b style=\"color:#d03030\">&#9679; REC</b> %1 · %2 snapshots%3")
                                 .arg(QFileInfo(qs(m_tap->path())).fileName())
                                 .arg(m_tap->written())
                                 .arg(dropped ? tr(" · %1 dropped").arg(dropped) : QString()));
    m_status_record->show();
}

QString session_control::compare_recordings(const QStringList& paths)
{
    const QString too_few = tr("choose two or more recordings to compare, or one recording of an A/B pair");
    if (paths.isEmpty()) {
        m_parts.status->show_message(too_few);
        return too_few;
    }
    std::vector<std::string> files;
    for (const QString& p : paths) files.push_back(p.toStdString());
    std::unique_ptr<compare_view> view;
    try {
        view = std::make_unique<compare_view>(files);
    } catch (const std::exception& e) {
        const QString what = qs(e.what());
        m_parts.status->show_message(tr("Cannot compare: %1").arg(what), 15000);
        return what;
    }
    if (view->columns() < 2) {
        m_parts.status->show_message(too_few);
        return too_few;
    }
    auto* win = new QWidget(m_parts.window, Qt::Window);
    win->setAttribute(Qt::WA_DeleteOnClose);
    win->setObjectName(QStringLiteral("compare-window"));
    QStringList names;
    for (const QString& p : paths) names << QFileInfo(p).fileName();
    win->setWindowTitle(tr("Compare — %1").arg(names.join(QStringLiteral(", "))));
    auto* lay = new QVBoxLayout(win);
    lay->setContentsMargins(4, 4, 4, 4);
    lay->addWidget(view.release());
    win->resize(1100, 800);
    win->show();
    m_compare_window = win;
    return {};
}

QString session_control::export_figure(const QString& path)
{
    QString id = m_parts.views->focus_view();
    if (id.isEmpty()) id = m_parts.views->current_tab();
    QWidget* w = m_parts.views->find(id);
    if (!w) return tr("no view to export");
    const QString ext = QFileInfo(path).suffix().toLower();
    const auto fmt = figure_format_from(ext.isEmpty() ? "png" : ext.toStdString());
    if (!fmt) return tr("%1: export as .png, .svg or .pdf").arg(path);
    QString err;
    if (auto* plot = w->findChild<QCustomPlot*>(); plot && plot->isVisible()) {
        err = qs(save_plot(*plot, path, *fmt, plot->width(), plot->height()));
    } else if (*fmt == figure_format::png) {
        if (!w->grab().save(path, "PNG")) err = tr("%1: cannot write the file").arg(path);
    } else {
        // A view drawn by hand (no plot): its painting, as vectors where it paints vectors.
        QPainter p;
        QSvgGenerator svg;
        std::unique_ptr<QPdfWriter> pdf;
        if (*fmt == figure_format::svg) {
            svg.setFileName(path);
            svg.setSize(w->size());
            svg.setViewBox(QRect(QPoint(0, 0), w->size()));
            svg.setTitle(id);
            if (!p.begin(&svg)) err = tr("%1: cannot write the file").arg(path);
        } else {
            pdf = std::make_unique<QPdfWriter>(path);
            pdf->setPageSize(QPageSize(QSizeF(w->size()) * 0.75, QPageSize::Point));
            pdf->setPageMargins({});
            pdf->setResolution(96);
            if (!p.begin(pdf.get())) err = tr("%1: cannot write the file").arg(path);
        }
        if (err.isEmpty()) {
            w->render(&p);
            p.end();
        }
    }
    if (!err.isEmpty()) {
        m_parts.status->show_message(tr("Export failed: %1").arg(err), 10000);
        return err;
    }
    m_parts.status->show_message(tr("Saved the %1 view to %2").arg(id, path));
    return {};
}

} // namespace pcplab::ui
