// The lesson panel's widgets: the lesson list on the left; on the right the step (title, prose), the
// prediction, the run and its check, the reveal with the figures table, and the step navigation. Sizes
// follow the panel's font, so presenter mode only has to enlarge that.
#include "ui/lessons/lesson_panel.hpp"

#include <QApplication>
#include <QButtonGroup>
#include <QDoubleSpinBox>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QTableWidget>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace pcplab::ui
{

namespace
{

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

// Pass and fail colours readable on the current palette (darker on light themes, lighter on dark ones).
QColor verdict_colour(const QPalette& pal, bool pass)
{
    const bool dark = pal.color(QPalette::Window).lightness() < 128;
    if (pass) return dark ? QColor(110, 220, 120) : QColor(20, 120, 40);
    return dark ? QColor(255, 120, 110) : QColor(180, 30, 30);
}

// A title with a break opportunity (a zero-width space) after each underscore: the list wraps at word boundaries
// only, and "(alloc_pages_nolock," is wider than the list in presenter mode.
QString breakable(QString title)
{
    return title.replace(QLatin1Char('_'), QStringLiteral("_\u200b"));
}

QTextBrowser* markdown_box(QWidget* parent)
{
    auto* t = new QTextBrowser(parent);
    t->setOpenExternalLinks(true);
    t->setFrameShape(QFrame::NoFrame);
    t->setMinimumHeight(60);
    return t;
}

} // namespace

void lesson_panel::build()
{
    auto* outer = new QHBoxLayout(this);
    m_list = new QListWidget(this);
    // Long titles wrap whole inside the list. Its vertical bar is always there: one that appeared after the
    // items were wrapped to the wider viewport left them under it and clipped ("12. 008 - allocatin", with a
    // horizontal bar). The items are laid out again as the list's width changes.
    m_list->setWordWrap(true);
    m_list->setTextElideMode(Qt::ElideNone);
    m_list->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOn);
    m_list->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_list->setResizeMode(QListView::Adjust);
    m_list->setMaximumWidth(320);
    m_list->setToolTip(tr("The lessons, with the steps revealed so far"));
    outer->addWidget(m_list, 1);
    connect(m_list, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row != m_lesson) select_lesson(row);
    });

    // The step scrolls; the navigation below it stays in view whatever the step's length or the screen's size.
    auto* right_outer = new QVBoxLayout;
    outer->addLayout(right_outer, 3);
    auto* content = new QWidget(this);
    auto* right = new QVBoxLayout(content);
    right->setContentsMargins(0, 0, 0, 0);
    m_step_scroll = new QScrollArea(this);
    m_step_scroll->setObjectName(QStringLiteral("lesson-step-scroll"));
    m_step_scroll->setWidget(content);
    m_step_scroll->setWidgetResizable(true);
    m_step_scroll->setFrameShape(QFrame::NoFrame);
    m_step_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    right_outer->addWidget(m_step_scroll, 1);
    m_title = new QLabel(this);
    m_title->setWordWrap(true);
    m_step_label = new QLabel(this);
    m_step_label->setWordWrap(true);
    m_prose = markdown_box(this);
    right->addWidget(m_title);
    right->addWidget(m_step_label);
    right->addWidget(m_prose, 1);

    m_predict_box = new QGroupBox(tr("Predict"), this);
    auto* pl = new QVBoxLayout(m_predict_box);
    m_question = new QLabel(m_predict_box);
    m_question->setWordWrap(true);
    m_question->setTextFormat(Qt::MarkdownText);
    pl->addWidget(m_question);
    m_choices_layout = new QVBoxLayout;
    pl->addLayout(m_choices_layout);
    m_choices = new QButtonGroup(this);
    connect(m_choices, &QButtonGroup::idClicked, this, [this](int id) { choose(id); });
    auto* row = new QHBoxLayout;
    m_number_box = new QDoubleSpinBox(m_predict_box);
    m_number_box->setObjectName(QStringLiteral("prediction-number"));
    m_number_box->setRange(NO_NUMBER, 1e12); // the minimum stands for "nothing entered yet"
    m_number_box->setSpecialValueText(tr("your answer"));
    m_number_box->setDecimals(0);
    connect(m_number_box, &QDoubleSpinBox::valueChanged, this, [this](double v) { enter_number(v); });
    m_lock_in = new QPushButton(tr("Lock in prediction"), m_predict_box);
    connect(m_lock_in, &QPushButton::clicked, this, &lesson_panel::submit_prediction);
    m_prediction_note = new QLabel(m_predict_box);
    row->addWidget(m_number_box);
    row->addWidget(m_lock_in);
    row->addWidget(m_prediction_note, 1);
    pl->addLayout(row);
    right->addWidget(m_predict_box);

    auto* run_row = new QHBoxLayout;
    m_run = new QPushButton(tr("Set up and run"), this);
    m_run->setToolTip(tr("Boot the step's machine if it has one, then run it for the step's virtual time"));
    connect(m_run, &QPushButton::clicked, this, &lesson_panel::run_step);
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 100);
    run_row->addWidget(m_run);
    run_row->addWidget(m_progress, 1);
    right->addLayout(run_row);
    m_check = new QLabel(this);
    m_check->setWordWrap(true);
    m_check->setTextInteractionFlags(Qt::TextSelectableByMouse);
    right->addWidget(m_check);

    m_reveal_box = new QGroupBox(tr("Answer"), this);
    auto* rl = new QVBoxLayout(m_reveal_box);
    m_reveal = markdown_box(m_reveal_box);
    m_figures = new QTableWidget(0, 3, m_reveal_box);
    m_figures->setHorizontalHeaderLabels({tr("figure"), tr("paper"), tr("simulated")});
    m_figures->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_figures->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_figures->horizontalHeader()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
    m_figures->verticalHeader()->hide();
    m_figures->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_figures->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_figures->setWordWrap(false); // one line per figure: rows keep the font's height
    m_figures->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    rl->addWidget(m_reveal, 1);
    rl->addWidget(m_figures);
    right->addWidget(m_reveal_box, 2);
    right->addStretch(1); // takes the room when a step has neither prose nor a revealed answer

    auto* nav = new QHBoxLayout;
    m_prev = new QPushButton(tr("\u2190 Previous"), this);
    m_reveal_button = new QPushButton(tr("Reveal"), this);
    m_next = new QPushButton(tr("Next \u2192"), this);
    connect(m_prev, &QPushButton::clicked, this, &lesson_panel::previous_step);
    connect(m_reveal_button, &QPushButton::clicked, this, &lesson_panel::reveal);
    connect(m_next, &QPushButton::clicked, this, &lesson_panel::next_step);
    nav->addWidget(m_prev);
    nav->addStretch(1);
    nav->addWidget(m_reveal_button);
    nav->addStretch(1);
    nav->addWidget(m_next);
    right_outer->addLayout(nav);

    if (m_set.lessons.empty())
        m_title->setText(m_set.errors.empty()
                ? tr("No lessons in %1").arg(qs(m_set.dir))
                : tr("No lesson could be loaded: %1").arg(qs(m_set.errors.front().str())));
    refresh_lesson_list();
    apply_fonts();
}

void lesson_panel::refresh_lesson_list()
{
    const QSignalBlocker block(m_list);
    const int keep = m_list->currentRow();
    m_list->clear();
    for (std::size_t i = 0; i < m_set.lessons.size(); ++i) {
        const auto& l = m_set.lessons[i];
        const int done = steps_done(static_cast<int>(i));
        const int total = static_cast<int>(l.steps.size());
        auto* item = new QListWidgetItem(
            QStringLiteral("%1. %2\n%3%4 / %5 steps")
                .arg(i + 1)
                .arg(breakable(qs(l.title)), done == total ? QStringLiteral("\u2713 ") : QString())
                .arg(done)
                .arg(total),
            m_list);
        item->setToolTip(qs(l.summary));
    }
    // Files that did not load are listed too, greyed out, with the first error.
    for (const auto& e : m_set.errors) {
        auto* item = new QListWidgetItem(tr("%1 (not loaded)").arg(qs(e.source)), m_list);
        item->setFlags(Qt::NoItemFlags);
        item->setToolTip(qs(e.str()));
    }
    m_list->setCurrentRow(keep >= 0 ? keep : m_lesson);
}

void lesson_panel::show_step()
{
    const auto* l = lesson_now();
    const auto* s = step_now();
    if (!l || !s) return;
    m_title->setText(qs(l->title));
    m_step_label->setText(tr("Step %1 of %2: %3").arg(m_step + 1).arg(l->steps.size()).arg(qs(s->title)));
    const QString prose = qs(m_step == 0 ? l->intro + "\n" + s->prose : s->prose).trimmed();
    m_prose->setMarkdown(prose);
    m_prose->setVisible(!prose.isEmpty());
    show_prediction(*s);
    m_run->setVisible(s->needs_machine());
    m_run->setText(run_label());
    m_progress->setVisible(s->run_ns.has_value() || s->run_to_finish);
    m_prev->setEnabled(m_step > 0);
    m_next->setEnabled(m_step + 1 < static_cast<int>(l->steps.size()));
    m_reveal_button->setVisible(s->has_block);
    m_reveal_button->setEnabled(can_reveal());
    refresh_check();
    refresh_reveal();
}

QString lesson_panel::run_label() const
{
    const auto* s = step_now();
    if (!s) return {};
    return s->boots || !m_machine_set ? tr("Set up and run") : s->run_ns || s->run_to_finish ? tr("Run") : tr("Check");
}

void lesson_panel::show_prediction(const lessons::step& s)
{
    for (auto* b : m_choices->buttons()) {
        m_choices->removeButton(b);
        delete b;
    }
    m_predict_box->setVisible(s.predict.has_value());
    m_prediction_note->clear();
    if (!s.predict) return;
    const auto& p = *s.predict;
    m_question->setText(qs(p.question));
    for (std::size_t i = 0; i < p.choices.size(); ++i) {
        auto* b = new QRadioButton(qs(p.choices[i]), m_predict_box);
        m_choices->addButton(b, static_cast<int>(i));
        m_choices_layout->addWidget(b);
    }
    m_number_box->setVisible(!p.is_choice());
    m_number_box->setEnabled(true);
    {
        // A whole number (a batch) is typed without decimals, a decimal with the lesson's; empty until typed.
        const QSignalBlocker block(m_number_box);
        m_number_box->setDecimals(p.kind == lessons::answer_kind::decimal ? p.decimals : 0);
        m_number_box->setValue(NO_NUMBER);
    }
    m_lock_in->setEnabled(false); // until a choice or a number is given
}

void lesson_panel::refresh_check()
{
    const auto st = status();
    if (const auto progress = m_tracker.progress()) {
        m_progress->setRange(0, 100);
        m_progress->setValue(static_cast<int>(std::lround(*progress * 100)));
    } else {
        m_progress->setRange(0, 0); // Qt's busy indicator: the run goes on until the workload is done
    }
    QString head;
    switch (st) {
    case check_status::none:
        // The button's own words: it reads "Set up and run", "Run" or "Check" depending on the step.
        head = step_now() && step_now()->needs_machine()
            ? tr("Press \u201c%1\u201d when the class has predicted.").arg(run_label())
            : QString();
        break;
    case check_status::waiting:
        head = tr("Setting up the machine\u2026");
        break;
    case check_status::running:
        head = tr("Running\u2026 (live values)");
        break;
    case check_status::passed:
        head = tr("Check passed");
        break;
    case check_status::failed:
        head = tr("Check failed");
        break;
    }
    QPalette pal = m_check->palette();
    if (st == check_status::passed || st == check_status::failed)
        pal.setColor(QPalette::WindowText, verdict_colour(palette(), st == check_status::passed));
    else
        pal.setColor(QPalette::WindowText, palette().color(QPalette::WindowText));
    m_check->setPalette(pal);
    const QString body = check_text();
    m_check->setText(body.isEmpty() ? head : head + QLatin1Char('\n') + body);
    m_reveal_button->setEnabled(can_reveal());
}

void lesson_panel::refresh_reveal()
{
    m_reveal_box->setVisible(m_revealed);
    if (!m_revealed) return;
    QString text = reveal_text();
    const auto* s = step_now();
    if (s && s->predict && m_predicted)
        text += QStringLiteral("\n\n")
            + (m_prediction_right ? tr("**Your prediction was right.**")
                                  : tr("**Your prediction was off: the answer is %1.**").arg(qs(s->predict->answer)));
    else if (s && s->predict)
        text += QStringLiteral("\n\n") + tr("The answer: **%1**.").arg(qs(s->predict->answer));
    m_reveal->setMarkdown(text);
    const auto rows = figure_rows();
    m_figures->setVisible(!rows.empty());
    m_figures->setRowCount(static_cast<int>(rows.size()));
    for (std::size_t r = 0; r < rows.size(); ++r)
        for (int c = 0; c < 3; ++c) m_figures->setItem(static_cast<int>(r), c, new QTableWidgetItem(rows[r][c]));
    // As tall as its rows: a figures table never scrolls.
    m_figures->resizeRowsToContents();
    int h = m_figures->horizontalHeader()->sizeHint().height() + 2 * m_figures->frameWidth();
    for (int r = 0; r < m_figures->rowCount(); ++r) h += m_figures->rowHeight(r);
    m_figures->setFixedHeight(h);
}

void lesson_panel::apply_fonts()
{
    QFont base = QApplication::font(this);
    if (m_presenter) base.setPointSizeF(base.pointSizeF() * 1.6);
    setFont(base);
    QFont title = base;
    title.setPointSizeF(base.pointSizeF() * 1.4);
    title.setBold(true);
    m_title->setFont(title);
    QFont step = base;
    step.setPointSizeF(base.pointSizeF() * 1.15);
    step.setBold(true);
    m_step_label->setFont(step);
    // Wide enough for a title's longest words at the window's font. Not in presenter mode: the step beside the
    // list needs the room for its larger font (its choices do not wrap); the titles wrap there, at an
    // identifier's underscores too (refresh_lesson_list).
    const int words = QFontMetrics(base).horizontalAdvance(QString(20, QLatin1Char('n')));
    m_list->setMinimumWidth(
        m_presenter ? 0 : words + m_list->verticalScrollBar()->sizeHint().width() + 2 * m_list->frameWidth());
}

} // namespace pcplab::ui
