// Live A/B deltas of the figures users of profilers compare first.
#include "window/delta_panel.hpp"

#include "views/ab_summary.hpp"
#include "views/view_style.hpp"

#include <QGridLayout>
#include <QLabel>

#include <cmath>

namespace pcplab::ui
{

key_figures key_figures_of(const sim::snapshot& s)
{
    key_figures k;
    // The figures the views' headers show too, defined once (views/ab_summary).
    const key_numbers n = key_numbers_of(s);
    k.sim_time_ns = static_cast<double>(s.sim_time_ns);
    k.contention_pct = n.contention_pct;
    k.max_hold_ns = n.max_hold_ns;
    k.sys_ns = static_cast<double>(s.sys_ns_total());
    k.user_ns = static_cast<double>(s.user_ns_total());
    k.zone_allocs = n.zone_allocs;
    k.score = s.score.work_units;
    return k;
}

std::optional<double> change_pct(double a, double b)
{
    if (a == 0) return std::nullopt;
    return (b - a) / a * 100.0;
}

namespace
{
struct figure_def {
    const char* label;
    const char* tip;
    double key_figures::*field;
    bool lower_is_better;
    int format; // 0 = count, 1 = ns, 2 = percent
};
const figure_def k_figures[] = {
    {"virtual time", "Virtual time each machine has reached (equal in lockstep)", &key_figures::sim_time_ns, false, 1},
    {"contention %", "Largest share of the run during which some CPU waited for a zone->lock",
        &key_figures::contention_pct, true, 2},
    {"sys time", "Allocator time of all CPUs, spinning included", &key_figures::sys_ns, true, 1},
    {"user time", "Workload compute of all CPUs", &key_figures::user_ns, false, 1},
    {"zone allocations", "Pages taken from the buddy allocator (refills and direct)", &key_figures::zone_allocs, true,
        0},
    {"max hold", "Longest single zone->lock hold so far", &key_figures::max_hold_ns, true, 1},
    {"work done", "The workload's work units so far", &key_figures::score, false, 0},
};

QString format_value(double v, int format)
{
    if (format == 1) return format_ns(v);
    if (format == 2) return QString::number(v, 'f', 2) + QStringLiteral(" %");
    return compact(v);
}
} // namespace

delta_panel::delta_panel(QWidget* parent)
    : QWidget(parent)
{
    m_grid = new QGridLayout(this);
    m_grid->setHorizontalSpacing(12);
    m_head_a = new QLabel(tr("<b>A</b>"));
    m_head_b = new QLabel(tr("<b>B</b>"));
    m_head_d = new QLabel(tr("<b>B vs A</b>"));
    m_head_d->setToolTip(tr("(B - A) / A, for contention the difference in percentage points; green where B is "
                            "better, red where it is worse"));
    m_grid->addWidget(m_head_a, 0, 1, Qt::AlignRight);
    m_grid->addWidget(m_head_b, 0, 2, Qt::AlignRight);
    m_grid->addWidget(m_head_d, 0, 3, Qt::AlignRight);
    int r = 1;
    for (const auto& f : k_figures) {
        auto* name = new QLabel(tr(f.label));
        name->setToolTip(tr(f.tip));
        m_grid->addWidget(name, r, 0);
        row rw;
        rw.a = new QLabel(QStringLiteral("-"));
        rw.b = new QLabel(QStringLiteral("-"));
        rw.delta = new QLabel(QStringLiteral("-"));
        for (auto* l : {rw.a, rw.b, rw.delta}) l->setToolTip(tr(f.tip));
        m_grid->addWidget(rw.a, r, 1, Qt::AlignRight);
        m_grid->addWidget(rw.b, r, 2, Qt::AlignRight);
        m_grid->addWidget(rw.delta, r, 3, Qt::AlignRight);
        m_rows.push_back(rw);
        ++r;
    }
    m_grid->setRowStretch(r, 1);
    m_grid->setColumnStretch(4, 1);
    clear();
}

void delta_panel::clear()
{
    for (auto& rw : m_rows)
        for (auto* l : {rw.a, rw.b, rw.delta}) l->setText(QStringLiteral("-"));
}

void delta_panel::show_figures(const sim::snapshot& a, const sim::snapshot* b)
{
    const key_figures ka = key_figures_of(a);
    const key_figures kb = b ? key_figures_of(*b) : key_figures{};
    m_head_a->setText(b ? tr("<b>A</b>") : tr("<b>this run</b>"));
    for (auto* l : {m_head_b, m_head_d}) l->setVisible(b != nullptr);
    const QPalette pal = palette();
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        const figure_def& f = k_figures[i];
        row& rw = m_rows[i];
        const double va = ka.*f.field;
        rw.a->setText(format_value(va, f.format));
        rw.b->setVisible(b != nullptr);
        rw.delta->setVisible(b != nullptr);
        if (!b) continue;
        const double vb = kb.*f.field;
        rw.b->setText(format_value(vb, f.format));
        // A percentage changes by percentage points (a relative change of 0.01 % is noise, not news).
        const auto d = f.format == 2 ? std::optional<double>(vb - va) : change_pct(va, vb);
        const QString unit = f.format == 2 ? QStringLiteral(" pp") : QStringLiteral(" %");
        QString text = d
            ? QStringLiteral("%1%2%3").arg(*d >= 0 ? "+" : "").arg(*d, 0, 'f', f.format == 2 ? 2 : 1).arg(unit)
            : (vb == 0 ? QStringLiteral("=") : QStringLiteral("new"));
        QColor c = pal.color(QPalette::WindowText);
        const double noise = f.format == 2 ? 0.5 : 1.0; // pp, or percent
        if (d && std::abs(*d) >= noise && i > 0) {
            const bool better = f.lower_is_better ? *d < 0 : *d > 0;
            c = better ? (is_dark(pal) ? QColor(110, 210, 120) : QColor(20, 130, 40)) : warn_color(pal);
        }
        rw.delta->setText(QStringLiteral("<span style=\"color:%1\">%2</span>").arg(c.name(), text.toHtmlEscaped()));
    }
}

QString delta_panel::cell_text(int r, int column) const
{
    if (r < 0 || r >= static_cast<int>(m_rows.size())) return {};
    const row& rw = m_rows[static_cast<std::size_t>(r)];
    const QLabel* l = column == 0 ? rw.a : column == 1 ? rw.b : rw.delta;
    return l->text();
}

} // namespace pcplab::ui
