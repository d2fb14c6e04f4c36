// The lesson panel's behaviour: navigation, prediction, the live check and the reveal. Its widgets are laid
// out in lesson_panel_layout.cpp.
#include "ui/lessons/lesson_panel.hpp"

#include "lessons/lesson_runner.hpp"

#include <QAbstractButton>
#include <QButtonGroup>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QGroupBox>
#include <QLabel>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QTableWidget>
#include <QTextBrowser>
#include <QTimer>
#include <QVBoxLayout>

namespace pcplab::ui
{

namespace
{

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

QString number_text(double v, const std::string& unit)
{
    return qs(lessons::format_number(v)) + (unit.empty() ? QString() : QStringLiteral(" ") + qs(unit));
}

} // namespace

lesson_panel::lesson_panel(lessons::lesson_set set, QWidget* parent)
    : QWidget(parent)
    , m_set(std::move(set))
{
    qRegisterMetaType<std::shared_ptr<const lessons::engine_setup>>();
    m_done.resize(m_set.lessons.size());
    build();
    if (!m_set.lessons.empty()) select_lesson(0);
}

const lessons::lesson* lesson_panel::lesson_now() const
{
    return m_lesson >= 0 && m_lesson < static_cast<int>(m_set.lessons.size()) ? &m_set.lessons[m_lesson] : nullptr;
}

const lessons::step* lesson_panel::step_now() const
{
    const auto* l = lesson_now();
    return l && m_step >= 0 && m_step < static_cast<int>(l->steps.size()) ? &l->steps[m_step] : nullptr;
}

int lesson_panel::steps_done(int lesson) const
{
    return lesson >= 0 && lesson < static_cast<int>(m_done.size()) ? static_cast<int>(m_done[lesson].size()) : 0;
}

void lesson_panel::select_lesson(int index)
{
    if (index < 0 || index >= static_cast<int>(m_set.lessons.size())) return;
    m_lesson = index;
    m_tracker.reset();
    m_tracker.kept().clear();
    m_machine_set = false;
    if (m_list->currentRow() != index) m_list->setCurrentRow(index);
    go_to_step(0);
}

void lesson_panel::go_to_step(int index)
{
    const auto* l = lesson_now();
    if (!l || l->steps.empty()) return;
    m_step = std::clamp(index, 0, static_cast<int>(l->steps.size()) - 1);
    m_tracker.reset();
    m_predicted = m_prediction_right = m_revealed = false;
    m_choice = -1;
    m_number = 0;
    show_step();
    if (!step_now()->highlight.empty()) emit highlight_requested(qs(step_now()->highlight));
}

void lesson_panel::next_step()
{
    const auto* s = step_now();
    if (s && !s->has_block && m_lesson >= 0) m_done[m_lesson].insert(m_step); // a reading step, read
    refresh_lesson_list();
    go_to_step(m_step + 1);
}

void lesson_panel::previous_step()
{
    go_to_step(m_step - 1);
}

void lesson_panel::choose(int choice_index)
{
    const auto* s = step_now();
    if (!s || !s->predict || !s->predict->is_choice() || m_predicted) return;
    if (choice_index < 0 || choice_index >= static_cast<int>(s->predict->choices.size())) return;
    m_choice = choice_index;
    if (auto* b = m_choices->button(choice_index)) b->setChecked(true);
    m_lock_in->setEnabled(true);
}

void lesson_panel::enter_number(double v)
{
    if (m_predicted) return;
    m_number = v;
    if (m_number_box->value() != v) m_number_box->setValue(v);
    m_lock_in->setEnabled(v > NO_NUMBER);
}

void lesson_panel::submit_prediction()
{
    const auto* s = step_now();
    if (!s || !s->predict || m_predicted) return;
    const auto& p = *s->predict;
    if (p.is_choice()) {
        if (m_choice < 0) return;
        m_prediction_right = p.accepts_choice(static_cast<std::size_t>(m_choice));
        m_prediction_note->setText(tr("Your prediction: %1").arg(qs(p.choices[m_choice])));
    } else {
        if (m_number_box->value() <= NO_NUMBER) return; // nothing entered
        m_number = m_number_box->value();
        m_prediction_right = p.accepts(m_number);
        m_prediction_note->setText(tr("Your prediction: %1").arg(qs(lessons::format_number(m_number))));
    }
    m_predicted = true;
    m_lock_in->setEnabled(false);
    m_number_box->setEnabled(false);
    for (auto* b : m_choices->buttons()) b->setEnabled(false);
    refresh_check();
}

void lesson_panel::run_step()
{
    const auto* s = step_now();
    if (!s || !s->needs_machine()) return;
    m_revealed = false;
    if (s->boots || !m_machine_set) {
        auto r = lessons::resolve_setup(s->setup);
        if (auto* why = std::get_if<pcplab::error>(&r)) {
            m_check->setText(tr("This step's machine cannot be set up: %1").arg(qs(why->message)));
            return;
        }
        auto setup = std::make_shared<const lessons::engine_setup>(std::get<lessons::engine_setup>(std::move(r)));
        m_tracker.begin(*s, setup, m_latest);
        m_machine_set = true;
        emit setup_requested(setup);
    } else {
        m_tracker.begin(*s, nullptr, m_latest);
        send_actions(*s);
        if (m_latest) m_tracker.feed(m_latest);
    }
    refresh_check();
}

void lesson_panel::send_actions(const lessons::step& s)
{
    for (const auto& [p, on] : s.flips) emit flip_requested(p, on);
    for (const auto& [which, v] : s.writes) emit sysctl_requested(which, v);
    if (s.run_ns) emit run_requested(static_cast<qint64>(*s.run_ns));
    if (s.run_to_finish) emit run_requested(-1);
}

void lesson_panel::on_snapshot(std::shared_ptr<const sim::snapshot> snapshot)
{
    if (!snapshot) return;
    m_latest = snapshot;
    bool ready = false;
    const auto before = m_tracker.current_phase();
    if (!m_tracker.feed(snapshot, &ready)) return;
    if (ready) send_actions(*step_now());
    refresh_check();
    if (before != m_tracker.current_phase() && m_tracker.current_phase() == step_tracker::phase::done)
        m_reveal_button->setEnabled(can_reveal());
}

QString lesson_panel::check_head() const
{
    return m_check->text().section(QLatin1Char('\n'), 0, 0);
}

lesson_panel::check_status lesson_panel::status() const
{
    const auto* s = step_now();
    if (!s || !s->needs_machine()) return check_status::none;
    switch (m_tracker.current_phase()) {
    case step_tracker::phase::idle:
        return check_status::none;
    case step_tracker::phase::waiting_machine:
        return check_status::waiting;
    case step_tracker::phase::running:
        return check_status::running;
    case step_tracker::phase::failed:
        return check_status::failed;
    case step_tracker::phase::done:
        return m_tracker.evaluation().passed() ? check_status::passed : check_status::failed;
    }
    return check_status::none;
}

QString lesson_panel::check_text() const
{
    QStringList lines;
    if (m_tracker.current_phase() == step_tracker::phase::failed) lines << m_tracker.error().c_str();
    if (m_tracker.evaluated())
        for (const auto& c : m_tracker.evaluation().checks)
            lines << QStringLiteral("%1 %2  [%3]")
                         .arg(c.passed ? QStringLiteral("\u2713") : QStringLiteral("\u2717"), qs(c.expr), qs(c.detail));
    return lines.join(QLatin1Char('\n'));
}

bool lesson_panel::can_reveal() const
{
    const auto* s = step_now();
    if (!s) return false;
    if (!s->needs_machine()) return true;
    const auto ph = m_tracker.current_phase();
    return ph == step_tracker::phase::done || ph == step_tracker::phase::failed;
}

void lesson_panel::reveal()
{
    if (!can_reveal()) return;
    m_revealed = true;
    m_done[m_lesson].insert(m_step);
    refresh_reveal();
    refresh_lesson_list();
    // The answer opens below the step, often below the fold of a short dock. Where it lands is known once the
    // scroll area has laid out the box just shown.
    QTimer::singleShot(0, this, &lesson_panel::bring_answer_into_view);
    emit progress_changed(m_lesson, steps_done(m_lesson));
}

void lesson_panel::bring_answer_into_view()
{
    if (!m_revealed) return;
    const int top = m_reveal_box->mapTo(m_step_scroll->widget(), QPoint(0, 0)).y();
    const int bottom = top + m_reveal_box->height();
    QScrollBar* bar = m_step_scroll->verticalScrollBar();
    // All of it when it fits, else its first lines (QScrollArea::ensureWidgetVisible would centre a tall one).
    bar->setValue(std::min(top, std::max(bar->value(), bottom - m_step_scroll->viewport()->height())));
}

QWidget* lesson_panel::answer_box() const
{
    return m_reveal_box;
}

void lesson_panel::machine_left()
{
    m_machine_set = false;
    const auto ph = m_tracker.current_phase();
    if (ph == step_tracker::phase::waiting_machine || ph == step_tracker::phase::running) m_tracker.reset();
    if (step_now()) m_run->setText(run_label());
    refresh_check();
}

QString lesson_panel::reveal_text() const
{
    const auto* s = step_now();
    if (!s) return {};
    if (m_tracker.evaluated()) return qs(m_tracker.evaluation().reveal);
    return qs(s->reveal.render(lessons::eval_context{})); // no placeholders, or no machine yet
}

std::vector<std::array<QString, 3>> lesson_panel::figure_rows() const
{
    std::vector<std::array<QString, 3>> rows;
    if (!m_tracker.evaluated()) return rows;
    for (const auto& f : m_tracker.evaluation().figures)
        rows.push_back({qs(f.label), f.paper ? number_text(*f.paper, f.paper_unit) : QStringLiteral("\u2013"),
            f.simulated ? number_text(*f.simulated, f.unit) : tr("[%1]").arg(qs(f.error))});
    return rows;
}

void lesson_panel::set_presenter_mode(bool on)
{
    m_presenter = on;
    apply_fonts();
    refresh_reveal(); // the figures table follows the font
}

void lesson_panel::changeEvent(QEvent* e)
{
    QWidget::changeEvent(e);
    if (e->type() == QEvent::PaletteChange) refresh_check();
}

} // namespace pcplab::ui
