// Deferred init progress bars, painted with QPainter (a handful of rows, cheap to repaint).
#include "ui/views/deferred_view.hpp"

#include "ui/views/header_parts.hpp"
#include "ui/views/view_style.hpp"

#include <QPaintEvent>
#include <QPainter>

namespace pcplab::ui
{

namespace
{

// Managed pages of one node (climbs while its deferred init frees pages to the buddy allocator).
unsigned long node_managed(const sim::snapshot& s, int node)
{
    unsigned long m = 0;
    for (const sim::zone_snapshot& z : s.zones)
        if (z.node == node) m += z.managed;
    return m;
}

struct row_geometry {
    int label_w, bar_x, bar_w, bar_h, row_h;
};

// One node's row: label, a bar with the percentage inside, and the numbers under it.
void paint_node(QPainter& p, int y, const sim::snapshot& s, const sim::deferred_progress& d, int side, bool ab,
    const row_geometry& g, const QPalette& pal)
{
    const QFontMetrics fm = p.fontMetrics();
    const QColor fg = text_color(pal);
    p.setPen(ab ? side_color(side, pal) : fg);
    QString label = QStringLiteral("node %1").arg(d.node);
    if (ab) label = (side == 0 ? QStringLiteral("A ") : QStringLiteral("B ")) + label;
    p.drawText(QRect(g.bar_x - g.label_w, y, g.label_w - 6, g.bar_h), Qt::AlignLeft | Qt::AlignVCenter, label);

    const QRect bar(g.bar_x, y, g.bar_w, g.bar_h);
    p.fillRect(bar, panel_color(pal));
    const double frac = d.total ? static_cast<double>(d.done) / static_cast<double>(d.total) : (d.finished ? 1.0 : 0.0);
    const int filled = static_cast<int>(bar.width() * frac);
    p.fillRect(
        QRect(bar.left(), bar.top(), filled, bar.height()), ab ? side_color(side, pal) : node_color(d.node, pal));
    p.setPen(faint_color(pal));
    p.drawRect(bar.adjusted(0, 0, -1, -1));
    // The percentage inside the bar, in a colour that reads on the fill (deep fills in light themes, light in dark).
    const QString pct = d.finished ? QObject::tr("done") : QStringLiteral("%1 %").arg(frac * 100.0, 0, 'f', 1);
    const QRect pct_r(bar.left() + 6, bar.top(), fm.horizontalAdvance(pct) + 2, bar.height());
    p.setPen(filled > pct_r.right() - bar.left() ? (is_dark(pal) ? QColor(20, 20, 20) : QColor(255, 255, 255)) : fg);
    p.drawText(pct_r, Qt::AlignLeft | Qt::AlignVCenter, pct);

    // The pages climbing first; the managed count only once the snapshot has the zones (a boot snapshot does
    // not: it would read 0 while the init threads have done a third of the node).
    QStringList info{QObject::tr("%1 of %2 struct pages initialised")
                         .arg(compact(static_cast<double>(d.done)), compact(static_cast<double>(d.total))),
        count_of(d.threads, QObject::tr("init thread"), QObject::tr("init threads"))};
    if (!s.zones.empty())
        info << QObject::tr("node manages %1")
                    .arg(count_of(
                        static_cast<double>(node_managed(s, d.node)), QObject::tr("page"), QObject::tr("pages")));
    if (d.finished)
        info << QObject::tr("modelled %1 ms, this computer %2 ms")
                    .arg(d.modelled_ms, 0, 'f', 1)
                    .arg(d.host_ms, 0, 'f', 1);
    p.setPen(fg);
    draw_parts(p, QRect(g.bar_x, y + g.bar_h + 2, g.bar_w, fm.height()), info, 1);
}

} // namespace

deferred_view::deferred_view(QWidget* parent)
    : view(parent)
{
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void deferred_view::reset()
{
    m_a.reset();
    m_b.reset();
    update();
}

void deferred_view::show_frame(const frame& f)
{
    if (f.a == m_a && f.b == m_b) return; // snapshots are immutable: the same pointers are the same picture
    m_a = f.a;
    m_b = f.b;
    update();
}

void deferred_view::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    const QPalette& pal = palette();
    p.fillRect(rect(), pal.color(QPalette::Window));
    if (!m_a) {
        draw_message(p, rect(), tr("Waiting for the first snapshot"), pal);
        return;
    }
    const QFontMetrics fm = fontMetrics();
    const int margin = fm.height();
    const QRect area = rect().adjusted(margin, margin / 2, -margin, -margin / 2);
    const bool ab = m_b != nullptr;
    const sim::snapshot& a = *m_a;

    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    p.setPen(text_color(pal));
    draw_parts(p, QRect(area.left(), area.top(), area.width(), fm.height()),
        {tr("Deferred struct page init"), QString::fromStdString(a.preset),
            QString::fromLatin1(sim::run_state_name(a.state))},
        1);
    p.setFont(font());
    int y = area.top() + fm.height() * 2;

    if (a.deferred_init.empty()) {
        draw_message(p, area.adjusted(0, y - area.top(), 0, 0),
            tr("No deferred init on this machine (every struct page is initialised early)"), pal);
        return;
    }
    row_geometry g;
    g.label_w = fm.horizontalAdvance(QStringLiteral("B node 00")) + margin;
    g.bar_x = area.left() + g.label_w;
    g.bar_w = std::max(40, area.right() - g.bar_x);
    g.bar_h = fm.height() * 3 / 2;
    g.row_h = g.bar_h + fm.height() + fm.height() * 2 / 3;
    const int rows = static_cast<int>(a.deferred_init.size()) * (ab ? 2 : 1);
    // Rows shrink to fit many nodes (8-node presets) and grow no larger than they need.
    const int room = area.bottom() - y - fm.height() * 3;
    if (rows * g.row_h > room) g.row_h = std::max(fm.height() * 2 + 2, room / std::max(1, rows));
    g.bar_h = std::min(g.bar_h, g.row_h - fm.height() - 2);

    for (std::size_t i = 0; i < a.deferred_init.size() && y + g.row_h <= area.bottom(); ++i) {
        paint_node(p, y, a, a.deferred_init[i], 0, ab, g, pal);
        y += g.row_h;
        if (ab && i < m_b->deferred_init.size()) {
            paint_node(p, y, *m_b, m_b->deferred_init[i], 1, ab, g, pal);
            y += g.row_h;
        }
    }
    // What the rows mean, once, under them.
    QColor dim = text_color(pal);
    dim.setAlpha(190);
    p.setPen(dim);
    const QRect note(area.left(), y + fm.height() / 2, area.width(), area.bottom() - y - fm.height() / 2);
    const QString text = tr("At boot only the first part of each node's struct pages is initialised; per-node kernel "
                            "threads (deferred_init_memmap) initialise the rest and free it to the buddy allocator, so "
                            "managed pages climb. Modelled time is what the cost model predicts for the preset's "
                            "machine; the other is how long this computer took.");
    // Only where it fits whole: a note cut off mid-sentence reads worse than none.
    if (fm.boundingRect(note, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, text).height() <= note.height())
        p.drawText(note, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, text);
}

} // namespace pcplab::ui
