#include "ui/session/compare_view.hpp"

#include "session/export.hpp"
#include "session/series.hpp"
#include "ui/session/figure_export.hpp"

#include <QComboBox>
#include <QEvent>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QVBoxLayout>
#include <qcustomplot.h>

namespace pcplab::ui
{

compare_view::compare_view(const std::vector<std::string>& paths, QWidget* parent)
    : QWidget(parent)
    , m_series(new QComboBox(this))
    , m_zone(new QComboBox(this))
    , m_plot(new QCustomPlot(this))
    , m_table(new QPlainTextEdit(this))
{
    for (const auto& p : paths) m_recs.push_back(std::make_unique<session::recording>(p));

    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Series"), this));
    for (const auto& s : session::all_series()) m_series->addItem(QString::fromUtf8(s.name));
    top->addWidget(m_series);
    top->addWidget(new QLabel(tr("Zone"), this));
    if (!m_recs.empty()) {
        const std::int64_t run = session::pick_run(*m_recs.front());
        for (const auto& line : session::read_series(*m_recs.front(), run, *session::find_series("high")))
            m_zone->addItem(QString::fromStdString(line.label));
    }
    top->addWidget(m_zone);
    top->addStretch(1);

    m_table->setReadOnly(true);
    m_table->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_table->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    try {
        std::vector<session::compare_input> cols;
        for (const auto& r : m_recs)
            for (auto& c : session::compare_inputs_from(*r)) cols.push_back(std::move(c));
        m_columns = static_cast<int>(cols.size());
        m_table->setPlainText(QString::fromStdString(
            session::format_compare(session::build_compare_table(cols), session::compare_format::text)));
    } catch (const std::exception& e) {
        m_table->setPlainText(tr("No table: %1").arg(QString::fromStdString(e.what())));
    }

    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_plot);
    split->addWidget(m_table);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto* lay = new QVBoxLayout(this);
    lay->addLayout(top);
    lay->addWidget(split, 1);

    connect(m_series, &QComboBox::currentTextChanged, this, [this] { redraw(); });
    connect(m_zone, &QComboBox::currentTextChanged, this, [this] { redraw(); });
    const int normal = m_zone->findText(QStringLiteral("Normal"), Qt::MatchEndsWith);
    if (normal >= 0) m_zone->setCurrentIndex(normal);
    show_series(QStringLiteral("contention_pct_recent"));
}

compare_view::~compare_view() = default;

void compare_view::show_series(const QString& name)
{
    const int i = m_series->findText(name);
    if (i >= 0 && i != m_series->currentIndex())
        m_series->setCurrentIndex(i); // redraws through the signal
    else
        redraw();
}

void compare_view::redraw()
{
    const session::series_info* s = session::find_series(m_series->currentText().toStdString());
    if (!s) return;
    m_zone->setEnabled(s->per_zone);
    // One line per recording and side: the chosen zone of a zone series, labelled by the recording's era and
    // tag (and the side of an A/B recording).
    std::vector<session::series_line> lines;
    for (const auto& r : m_recs) {
        const std::int64_t first = session::pick_run(*r);
        std::vector<std::int64_t> runs = {first};
        for (const auto& rr : r->runs())
            if (rr.side == 1 && rr.run > first && !r->index(rr.run).empty()) {
                runs.push_back(rr.run);
                break;
            }
        for (const std::int64_t run : runs) {
            const session::run_record& rr = r->run(run);
            const std::string side = runs.size() > 1 ? (rr.side == 1 ? " (B)" : " (A)") : "";
            for (auto& line : session::read_series(*r, run, *s)) {
                if (s->per_zone && QString::fromStdString(line.label) != m_zone->currentText()) continue;
                line.label = rr.requested_era + " " + rr.tag + side;
                lines.push_back(std::move(line));
                break;
            }
        }
    }
    const QString where = s->per_zone ? QStringLiteral(" — ") + m_zone->currentText() : QString();
    draw_series(*m_plot, lines, *s, QString::fromUtf8(s->name) + where);
}

QString compare_view::table_text() const
{
    return m_table->toPlainText();
}

int compare_view::graph_count() const
{
    return m_plot->graphCount();
}

void compare_view::changeEvent(QEvent* e)
{
    QWidget::changeEvent(e);
    if (e->type() == QEvent::PaletteChange) redraw();
}

} // namespace pcplab::ui
