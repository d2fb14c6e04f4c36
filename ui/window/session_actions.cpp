// The window's recordings: replaying one (a timeline bar at the bottom while it plays), recording the live
// run(s), comparing recordings and exporting the current view as a figure. Every problem is a message that
// names the file; the live machine is never stopped by one.
#include "window/main_window.hpp"

#include "session/compare_view.hpp"
#include "session/figure_export.hpp"
#include "session/replay_source.hpp"
#include "session/timeline_bar.hpp"
#include "window/controls_panel.hpp"
#include "window/frame_pump.hpp"
#include "window/qt_text.hpp"
#include "window/recorded_setup.hpp"
#include "window/recording_tap.hpp"
#include "window/view_area.hpp"

#include "session/recording_schema.hpp"
#include "session/recording_writer.hpp"

#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QPainter>
#include <QPdfWriter>
#include <QStatusBar>
#include <QSvgGenerator>
#include <QToolBar>
#include <QVBoxLayout>

#include <qcustomplot.h>

namespace pcplab::ui
{

namespace
{
const QString k_recordings = QObject::tr("pcplab recordings (*.db *.sqlite *.pcplab);;All files (*)");
}

void main_window::build_session_actions(QMenu* file)
{
    auto add = [this, file](const QString& text, const QKeySequence& key, const QString& tip) {
        QAction* a = file->addAction(text);
        if (!key.isEmpty()) a->setShortcut(key);
        a->setToolTip(tip);
        a->setStatusTip(tip);
        addAction(a);
        return a;
    };
    connect(add(tr("Open recording..."), QKeySequence(tr("Ctrl+O")), tr("Replay a recording in the views")),
        &QAction::triggered, this, [this] {
            const QString f = QFileDialog::getOpenFileName(this, tr("Open recording"), {}, k_recordings);
            if (f.isEmpty()) return;
            if (const QString err = open_recording(f); !err.isEmpty())
                QMessageBox::warning(this, tr("Open recording"), err);
        });
    m_live_action = add(tr("Back to live machine"), {}, tr("Leave the replay and boot the live machine again"));
    m_live_action->setEnabled(false);
    connect(m_live_action, &QAction::triggered, this, &main_window::back_to_live);
    m_record_action = add(tr("Record..."), QKeySequence(tr("Ctrl+Shift+R")),
        tr("Record the live run (A and B in A/B mode) to a file until unchecked"));
    m_record_action->setCheckable(true);
    connect(m_record_action, &QAction::triggered, this, [this](bool on) {
        QString err;
        if (on) {
            const QString f = QFileDialog::getSaveFileName(this, tr("Record to"),
                QStringLiteral("pcplab-%1.db").arg(qs(m_setup.preset).section(QLatin1Char('/'), -1)), k_recordings);
            if (f.isEmpty()) {
                m_record_action->setChecked(false);
                return;
            }
            err = start_recording(f);
        } else {
            err = stop_recording();
        }
        if (!err.isEmpty()) QMessageBox::warning(this, tr("Record"), err);
    });
    connect(add(tr("Compare recordings..."), {}, tr("Overlay two or more recordings and tabulate them")),
        &QAction::triggered, this, [this] {
            const QStringList files
                = QFileDialog::getOpenFileNames(this, tr("Compare recordings (choose two or more)"), {}, k_recordings);
            if (files.isEmpty()) return;
            if (const QString err = compare_recordings(files); !err.isEmpty())
                QMessageBox::warning(this, tr("Compare recordings"), err);
        });
    connect(add(tr("Export figure..."), QKeySequence(tr("Ctrl+E")), tr("Save the current view's plot")),
        &QAction::triggered, this, [this] {
            const QString f
                = QFileDialog::getSaveFileName(this, tr("Export figure"), QStringLiteral("pcplab-figure.png"),
                    tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"));
            if (f.isEmpty()) return;
            if (const QString err = export_figure(f); !err.isEmpty())
                QMessageBox::warning(this, tr("Export figure"), err);
        });
}

QString main_window::open_recording(const QString& path)
{
    std::unique_ptr<replay_source> r;
    try {
        r = std::make_unique<replay_source>(path.toStdString());
    } catch (const std::exception& e) {
        // recording_error names the file; anything else (a file sqlite cannot open at all) gets its name here.
        QString what = qs(e.what());
        if (!what.contains(path)) what = QStringLiteral("%1: %2").arg(path, what);
        show_message(tr("Cannot replay %1").arg(what), 15000);
        return what;
    }
    if (r->snapshot_count() == 0) {
        const QString what = tr("%1: the recording has no snapshots").arg(path);
        show_message(tr("Cannot replay %1").arg(what), 15000);
        return what;
    }
    open_source(std::move(r));
    show_message(tr("Replaying %1 (Space plays, \"Back to live machine\" in the File menu returns)")
                     .arg(QFileInfo(path).fileName()),
        8000);
    return {};
}

void main_window::begin_replay_ui(replay_source* r)
{
    if (!r) return;
    if (!m_replay_bar) {
        m_replay_bar = new QToolBar(tr("Replay"), this);
        m_replay_bar->setObjectName(QStringLiteral("replay-bar"));
        m_replay_bar->setMovable(false);
        addToolBar(Qt::BottomToolBarArea, m_replay_bar);
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
    connect(r, &replay_source::rewound, this,
        [this, r] { m_pump->rebuild_history([r](history& h) { r->refill_history(h); }); });
    // The controls show how the recording was made (its snapshots then move the switch boxes as they were).
    const session::recording& rec = r->recording();
    const recorded_setup shown = setup_of_recording(rec.run(r->run()), r->run_b() ? &rec.run(r->run_b()) : nullptr);
    m_controls->show_setup(shown.setup, shown.resolved);
    m_controls->set_replay(true);
    update_title();
}

void main_window::end_replay_ui()
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
    if (m_controls->replay()) {
        m_controls->set_replay(false);
        m_controls->show_setup(m_setup, m_resolved); // the live machine's again
    }
}

timeline_bar* main_window::timeline() const
{
    return m_timeline;
}

void main_window::back_to_live()
{
    if (m_source && !m_source->is_replay()) return;
    if (m_lesson_machine)
        start_lesson_machine(*m_lesson_machine);
    else
        apply_setup(m_setup);
}

QString main_window::start_recording(const QString& path)
{
    std::optional<session::run_header> base;
    if (m_source && !m_source->is_replay()) base = session::run_header_for(m_resolved.a, m_setup.preset);
    const std::string err = m_tap->start(path.toStdString(), base);
    if (!err.empty()) {
        const QString what = qs(err).contains(path) ? qs(err) : QStringLiteral("%1: %2").arg(path, qs(err));
        show_message(tr("Cannot record: %1").arg(what), 15000);
        if (m_record_action) m_record_action->setChecked(false);
        show_recording_state();
        return what;
    }
    if (m_record_action) m_record_action->setChecked(true);
    show_message(m_source && m_source->is_replay()
            ? tr("Recording to %1: the live machine is recorded once it runs again").arg(path)
            : tr("Recording to %1").arg(path),
        5000);
    show_recording_state();
    return {};
}

QString main_window::stop_recording()
{
    if (!m_tap->active()) return {};
    const QString path = qs(m_tap->path());
    const std::string err = m_tap->stop();
    if (m_record_action) m_record_action->setChecked(false);
    show_recording_state();
    if (!err.empty()) {
        show_message(tr("Recording %1 failed: %2").arg(path, qs(err)), 15000);
        return qs(err);
    }
    show_message(tr("Recorded %1 snapshots to %2").arg(m_tap->last_written()).arg(path), 8000);
    return {};
}

bool main_window::recording() const
{
    return m_tap->active();
}

std::uint64_t main_window::recorded_snapshots() const
{
    return m_tap->written();
}

void main_window::show_recording_state()
{
    if (!m_status_record) {
        m_status_record = new QLabel;
        m_status_record->setToolTip(tr("Recording the live run (File > Record...)"));
        statusBar()->insertPermanentWidget(0, m_status_record);
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

QString main_window::compare_recordings(const QStringList& paths)
{
    if (paths.size() < 2) {
        const QString what = tr("choose two or more recordings to compare");
        show_message(what);
        return what;
    }
    std::vector<std::string> files;
    for (const QString& p : paths) files.push_back(p.toStdString());
    compare_view* view = nullptr;
    try {
        view = new compare_view(files);
    } catch (const std::exception& e) {
        const QString what = qs(e.what());
        show_message(tr("Cannot compare: %1").arg(what), 15000);
        return what;
    }
    auto* win = new QWidget(this, Qt::Window);
    win->setAttribute(Qt::WA_DeleteOnClose);
    win->setObjectName(QStringLiteral("compare-window"));
    QStringList names;
    for (const QString& p : paths) names << QFileInfo(p).fileName();
    win->setWindowTitle(tr("Compare — %1").arg(names.join(QStringLiteral(", "))));
    auto* lay = new QVBoxLayout(win);
    lay->setContentsMargins(4, 4, 4, 4);
    lay->addWidget(view);
    win->resize(1100, 800);
    win->show();
    m_compare_window = win;
    return {};
}

QString main_window::export_figure(const QString& path)
{
    QString id = m_views->focus_view();
    if (id.isEmpty()) id = m_views->current_tab();
    QWidget* w = m_views->find(id);
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
        show_message(tr("Export failed: %1").arg(err), 10000);
        return err;
    }
    show_message(tr("Saved the %1 view to %2").arg(id, path));
    return {};
}

} // namespace pcplab::ui
