// The key figures as a table.
#include "ui/window/delta_panel.hpp"

#include "ui/views/view_style.hpp"

#include <QGridLayout>
#include <QLabel>

namespace pcplab::ui
{

QColor verdict_color(const QPalette& pal, int verdict)
{
    if (verdict > 0) return is_dark(pal) ? QColor(110, 210, 120) : QColor(20, 130, 40);
    if (verdict < 0) return warn_color(pal);
    return pal.color(QPalette::WindowText);
}

delta_panel::delta_panel(QWidget* parent)
    : QWidget(parent)
{
    m_grid = new QGridLayout(this);
    m_grid->setHorizontalSpacing(12);
    m_head_a = new QLabel(tr("<b>A</b>"));
    m_head_b = new QLabel(tr("<b>B</b>"));
    m_head_d = new QLabel(tr("<b>B vs A</b>"));
    m_head_d->setToolTip(tr("(B - A) / A, for contention the difference in percentage points; green where B is "
                            "better per unit of work, red where it is worse, plain where neither is defined"));
    m_grid->addWidget(m_head_a, 0, 1, Qt::AlignRight);
    m_grid->addWidget(m_head_b, 0, 2, Qt::AlignRight);
    m_grid->addWidget(m_head_d, 0, 3, Qt::AlignRight);
    const auto figures = compare_figures(sim::snapshot{}, nullptr); // the labels
    int r = 1;
    for (const auto& f : figures) {
        row rw;
        rw.name = new QLabel(f.label);
        rw.a = new QLabel(QStringLiteral("-"));
        rw.b = new QLabel(QStringLiteral("-"));
        rw.delta = new QLabel(QStringLiteral("-"));
        for (auto* l : {rw.name, rw.a, rw.b, rw.delta}) l->setToolTip(f.tip);
        m_grid->addWidget(rw.name, r, 0);
        m_grid->addWidget(rw.a, r, 1, Qt::AlignRight);
        m_grid->addWidget(rw.b, r, 2, Qt::AlignRight);
        m_grid->addWidget(rw.delta, r, 3, Qt::AlignRight);
        m_rows.push_back(rw);
        ++r;
    }
    // Two lines of their own, not wrapped: a wrapped label's minimum height is one line, and a short dock cut
    // the rest off. Why a figure is plain is in the tooltip.
    m_legend = new QLabel(tr("<small>B vs A: green better, red worse, per unit of work;<br>plain: neither is "
                             "defined (hover for why)</small>"));
    m_legend->setToolTip(tr("User time follows the work done; a shorter longest hold can come with many more holds "
                            "(see contention and sys time)"));
    m_grid->addWidget(m_legend, r++, 0, 1, 5);
    m_grid->setRowStretch(r, 1);
    m_grid->setColumnStretch(4, 1);
    clear();
}

void delta_panel::clear()
{
    for (auto& rw : m_rows) {
        for (auto* l : {rw.a, rw.b, rw.delta}) l->setText(QStringLiteral("-"));
        rw.verdict = 0;
    }
}

void delta_panel::show_figures(const sim::snapshot& a, const sim::snapshot* b)
{
    m_head_a->setText(b ? tr("<b>A</b>") : tr("<b>this run</b>"));
    for (auto* l : {m_head_b, m_head_d, m_legend}) l->setVisible(b != nullptr);
    const auto figures = compare_figures(a, b);
    const QPalette pal = palette();
    for (std::size_t i = 0; i < m_rows.size() && i < figures.size(); ++i) {
        const figure_change& f = figures[i];
        row& rw = m_rows[i];
        rw.a->setText(f.a);
        rw.b->setVisible(b != nullptr);
        rw.delta->setVisible(b != nullptr);
        rw.verdict = f.verdict;
        if (!b) continue;
        rw.b->setText(f.b);
        rw.delta->setText(QStringLiteral("<span style=\"color:%1\">%2</span>")
                              .arg(verdict_color(pal, f.verdict).name(), f.change.toHtmlEscaped()));
    }
}

int delta_panel::verdict(int r) const
{
    return r >= 0 && r < static_cast<int>(m_rows.size()) ? m_rows[static_cast<std::size_t>(r)].verdict : 0;
}

QString delta_panel::cell_text(int r, int column) const
{
    if (r < 0 || r >= static_cast<int>(m_rows.size())) return {};
    const row& rw = m_rows[static_cast<std::size_t>(r)];
    const QLabel* l = column == 0 ? rw.a : column == 1 ? rw.b : rw.delta;
    return l->text();
}

} // namespace pcplab::ui
