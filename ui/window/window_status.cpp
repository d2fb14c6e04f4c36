// The status bar's texts, from the frames the pump shows.
#include "ui/window/window_status.hpp"

#include "ui/window/command_sentence.hpp"
#include "ui/window/frame_pump.hpp"
#include "ui/window/qt_text.hpp"

#include <QLabel>
#include <QStatusBar>

#include <algorithm>

namespace pcplab::ui
{

window_status::window_status(QStatusBar* bar, const frame_pump* pump, QObject* parent)
    : QObject(parent)
    , m_bar(bar)
    , m_pump(pump)
{
    m_clock.start();
    m_state = new QLabel;
    m_state->setToolTip(tr("Run state and the virtual time reached"));
    m_rate = new QLabel;
    m_rate->setToolTip(tr("Virtual time per wall second achieved, and engine actions per second; \"slower than the "
                          "set speed\" when this computer cannot keep up with the speed chosen in Run"));
    // Their text is as long as the state is: it must not set the window's minimum width.
    for (QLabel* l : {m_rate, m_state}) l->setMinimumWidth(40);
    m_bar->addPermanentWidget(m_rate);
    m_bar->addPermanentWidget(m_state);
    // The tooltip with an elided message's whole text goes with the message.
    connect(m_bar, &QStatusBar::messageChanged, this, [this](const QString& now) {
        if (now.isEmpty()) m_bar->setToolTip({});
    });
}

// The labels' texts change every frame. A text that grew is laid out only after it was painted, clipped ("445 k
// actions/"): a label keeps the widest width it needed, up to a third of the bar each, so the window's minimum
// width is not set by it and the numbers do not jiggle.
void window_status::keep_width(QLabel* l) const
{
    const int cap = std::max(40, m_bar->width() / 3);
    const int want = std::min(std::max(l->sizeHint().width(), l->minimumWidth()), cap);
    if (want != l->minimumWidth()) l->setMinimumWidth(want);
}

void window_status::show_message(const QString& text, int ms)
{
    m_last_message = text;
    // QStatusBar clips a message under its permanent labels, mid-word ("is left out on era v6.7: pcp-update-
    // after-(" at 1280 px): the message is elided to the room left of them instead, whole in the bar's tooltip.
    int room = m_bar->width() - 4 * m_bar->fontMetrics().averageCharWidth(); // the bar's margins and grip
    for (const QLabel* l : {m_rate, m_state})
        if (l->isVisible()) room -= std::max(l->width(), l->minimumWidth()) + 8;
    const QString shown = m_bar->fontMetrics().elidedText(text, Qt::ElideRight, std::max(120, room));
    m_bar->setToolTip(shown == text ? QString() : text);
    m_bar->showMessage(shown, ms);
}

void window_status::show_boot_message(const QString& text)
{
    m_boot_message = text;
    show_message(text, 0); // until the machine runs (show_frame)
}

void window_status::show_frame(bool replay)
{
    const auto a = m_pump->shown_a();
    const auto b = m_pump->shown_b();
    if (!a) return;
    QString st = tr("%1 · %2 virtual")
                     .arg(QString::fromLatin1(sim::run_state_name(a->state)), virtual_time_text(a->sim_time_ns));
    if (b) st += tr(" · A/B lockstep");
    if (replay) st = tr("replay: %1").arg(st);
    if (a->state == sim::run_state::booting && !a->deferred_init.empty()) {
        unsigned long done = 0, total = 0;
        for (const auto& d : a->deferred_init) {
            done += d.done;
            total += d.total;
        }
        if (total > 0) st += tr(" · deferred init %1%").arg(100.0 * static_cast<double>(done) / total, 0, 'f', 0);
    }
    m_state->setText(st);
    keep_width(m_state);
    QStringList rate;
    if (a->run.vns_per_s > 0) rate << tr("%1x real time").arg(a->run.vns_per_s / 1e9, 0, 'g', 3);
    if (a->run.events_per_s > 0) rate << tr("%1 k actions/s").arg(a->run.events_per_s / 1e3, 0, 'f', 0);
    // The pacer's flag outlives the run that set it: say it only while the machine runs.
    if (a->run.behind && a->state == sim::run_state::running) rate << tr("slower than the set speed");
    m_rate->setText(rate.join(QStringLiteral(" · ")));
    keep_width(m_rate);

    if (a->state == sim::run_state::booting) {
        emit boot_tab_wanted(true);
        m_boot_done_at = -1;
    } else if (m_boot_done_at < 0) {
        m_boot_done_at = m_clock.elapsed();
    } else if (m_clock.elapsed() - m_boot_done_at > 1500) {
        emit boot_tab_wanted(false); // after a moment on the finished boot (modelled vs host time)
    }
    if (!m_boot_message.isEmpty() && a->state != sim::run_state::booting) {
        // The bar holds the message as shown, which may be elided: compare what was asked for.
        if (m_last_message == m_boot_message) m_bar->clearMessage();
        m_boot_message.clear();
    }
    if (a->state == sim::run_state::failed) show_message(tr("The engine failed: %1").arg(qs(a->error)), 0);
    show_refused_commands();
}

// Commands the engine refused, or accepted with a note.
void window_status::show_refused_commands()
{
    const auto& results = m_pump->recent_results();
    const std::uint64_t total = m_pump->results_total();
    const std::uint64_t fresh = std::min<std::uint64_t>(total - std::min(total, m_commands_seen), results.size());
    const bool ab = m_pump->shown_b() != nullptr;
    for (std::size_t i = results.size() - fresh; i < results.size(); ++i) {
        const auto& r = results[i];
        if (!r.ok || !r.message.empty()) show_message(command_sentence(r, ab), r.ok ? 8000 : 10000);
    }
    m_commands_seen = total;
}

} // namespace pcplab::ui
