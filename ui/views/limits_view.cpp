// Batch and high over time in QCustomPlot: stacked axis rects (one per zone), step graphs fed incrementally
// from the history, markers as scatter graphs and impulse graphs (cheap even with thousands of events).
#include "ui/views/limits_view.hpp"

#include "ui/views/batched_graph.hpp"
#include "ui/views/header_parts.hpp"
#include "ui/views/legend_item.hpp"
#include "ui/views/limits_series.hpp"
#include "ui/views/opaque_plot.hpp"
#include "ui/views/plot_style.hpp"
#include "ui/views/view_style.hpp"

#include "mm/mm_types.hpp"

#include <qcustomplot.h>

#include <QHBoxLayout>
#include <QHelpEvent>
#include <QPainter>
#include <QPixmap>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace pcplab::ui
{

namespace
{

// An ssDisc scatter of `size` pixels, drawn once: a CPU's high changes thousands of times per zone, and
// QCustomPlot would fill an antialiased ellipse per point (about 1 ms per A/B frame of meta-1t-316).
QPixmap disc_pixmap(const QColor& c, double size)
{
    const int side = static_cast<int>(std::ceil(size)) + 3; // the disc, its 1 px outline and a margin
    QPixmap pm(side, side);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(QPen(c));
    p.setBrush(c);
    p.drawEllipse(QPointF(side / 2.0, side / 2.0), size / 2, size / 2); // as QCPScatterStyle::drawShape does
    return pm;
}

} // namespace

struct limits_view::zone_plot {
    int node = 0, zone = 0;
    QCPAxisRect* rect = nullptr;
    limits_series s[2];
    QCPItemText* note = nullptr;
    QCPItemText* name = nullptr; // the zone's name, top right
    QStringList note_lines; // the note's text: its whole lines that fit are shown
    double ylo = 0.5, ymax = 100; // the log axis' lower end and the highest value plotted
    QCPItemRect* boot = nullptr; // the boot (deferred init) as a shaded band, when it took virtual time
};

limits_view::limits_view(QWidget* parent)
    : view(parent)
    , m_plot(make_opaque_plot(this))
    , m_picker(new zone_picker)
    , m_header(new header_line)
{
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(4, 2, 4, 0);
    bar->addWidget(m_picker);
    bar->addWidget(m_header, 1);
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    lay->setSpacing(0);
    lay->addLayout(bar);
    lay->addWidget(m_plot, 1);
    connect(m_picker, &zone_picker::chosen, this, [this] {
        m_gate.redraw();
        if (m_last.a && !m_in_show) show_frame(frame(m_last));
    });
    m_plot->setAutoAddPlottableToLegend(false);
    m_plot->setNoAntialiasingOnDrag(true);
    m_plot->installEventFilter(this);
    m_follow = new time_follow(m_plot);
    clear_plot(m_plot);
    style_plot(m_plot, palette());
    // The notes depend on their plot's size, known once the replot has laid it out.
    connect(m_plot, &QCustomPlot::afterLayout, this, [this] {
        for (auto& zp : m_zones) {
            if (zp->note) zp->note->setText(fit_note(zp->note_lines, zp->rect));
            fit_headroom(*zp);
        }
    });
}

limits_view::~limits_view() = default;

QString limits_view::layout_key(const frame& f) const
{
    const sim::snapshot& a = *f.a;
    return QStringLiteral("%1|%2|").arg(f.b ? 1 : 0).arg(a.era.at_least(6, 7) ? 1 : 0)
        + zones_layout_key(a, f.b.get(), m_picker->choice());
}

void limits_view::rebuild_layout(const frame& f)
{
    m_zones.clear();
    m_legend = nullptr;
    m_legend_order.clear();
    clear_plot(m_plot);
    m_samples[0].reset();
    m_samples[1].reset();
    m_events[0].reset();
    m_events[1].reset();
    const sim::snapshot& a = *f.a;
    const std::vector<int> chosen = zones_of(a, m_picker->choice());
    if (chosen.empty()) return;
    const bool ab = f.b != nullptr;
    const bool tuned = a.era.at_least(6, 7);
    m_tuned = tuned;
    // The legend has its own row above the plots, in lines of four (inside a plot it covered the boot note).
    // A legend limits the width of its layout column to its own, so it shares that row with a spacer.
    auto* row = new QCPLayoutGrid;
    m_plot->plotLayout()->addElement(0, 0, row);
    m_plot->plotLayout()->setRowStretchFactor(0, 0.001);
    auto* legend = m_legend = new QCPLegend;
    row->addElement(0, 0, legend);
    row->addElement(0, 1, new QCPLayoutElement(m_plot));
    row->setColumnStretchFactor(0, 0.001);
    legend->setLayer(QStringLiteral("legend")); // needs the plot, which addElement gave it
    legend->setIconSize(18, 8);
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    legend->setWrap(4);
    for (int zi : chosen) {
        const sim::zone_snapshot& z = a.zone_at(zi);
        if (m_zones.size() >= 8) break;
        auto zp = std::make_unique<zone_plot>();
        zp->node = z.node;
        zp->zone = z.zone;
        zp->rect = add_stacked_rect(m_plot);
        QCPAxis* x = zp->rect->axis(QCPAxis::atBottom);
        QCPAxis* y = zp->rect->axis(QCPAxis::atLeft);
        QCPAxis* y2 = zp->rect->axis(QCPAxis::atRight); // hidden 0..1 axis for the full-height marker lines
        y->setScaleType(QCPAxis::stLogarithmic);
        y->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
        y->setLabel(tr("pages"));
        y2->setRange(0, 1);
        x->setLabel(tr("virtual time (s)"));
        for (int side = 0; side < (ab ? 2 : 1); ++side) {
            limits_series& ss = zp->s[side];
            const sim::snapshot& s = side == 0 ? a : *f.b;
            ss.zi = s.zone_index(z.node, z.zone);
            auto graph = [&](QCPAxis* vy) {
                QCPGraph* g = add_batched_graph(x, vy);
                g->setLineStyle(QCPGraph::lsStepLeft);
                g->setAntialiased(false); // axis-aligned steps: antialiasing only costs time
                g->setAdaptiveSampling(true);
                return g;
            };
            ss.g_lo = graph(y);
            ss.g_hi = graph(y);
            ss.g_hi->setChannelFillGraph(ss.g_lo);
            ss.g_high = graph(y);
            ss.g_batch = graph(y);
            ss.g_hmin = graph(y);
            ss.g_hmax = graph(y);
            ss.g_hmin->setVisible(tuned);
            ss.g_hmax->setVisible(tuned);
            ss.g_hi->setName(side_prefix(ab, side) + tr("per-CPU high (band)"));
            ss.g_high->setName(side_prefix(ab, side) + tr("high"));
            ss.g_batch->setName(side_prefix(ab, side) + tr("batch"));
            ss.g_hmin->setName(side_prefix(ab, side) + tr("high_min / high_max"));
            ss.g_highm = graph(y);
            ss.g_highm->setLineStyle(QCPGraph::lsNone);
            ss.g_highm->setName(side_prefix(ab, side) + tr("a CPU's high changed"));
            ss.g_limit = graph(y);
            ss.g_limit->setLineStyle(QCPGraph::lsNone);
            ss.g_limit->setName(side_prefix(ab, side) + tr("zone limit changed"));
            ss.g_vline = graph(y2);
            ss.g_vline->setLineStyle(QCPGraph::lsImpulse);
            ss.g_vline->setName(side_prefix(ab, side) + tr("deferred init / reclaim / switch"));
        }
        zp->boot = new QCPItemRect(m_plot);
        zp->boot->setLayer(QStringLiteral("grid"));
        zp->boot->setClipAxisRect(zp->rect);
        for (QCPItemPosition* pos : {zp->boot->topLeft, zp->boot->bottomRight}) {
            pos->setAxisRect(zp->rect);
            pos->setAxes(x, y);
            pos->setTypeX(QCPItemPosition::ptPlotCoords);
            pos->setTypeY(QCPItemPosition::ptAxisRectRatio);
        }
        zp->boot->setVisible(false);
        zp->note = new QCPItemText(m_plot);
        zp->note->setClipToAxisRect(true);
        zp->note->setClipAxisRect(zp->rect);
        zp->note->position->setType(QCPItemPosition::ptAxisRectRatio);
        zp->note->position->setAxisRect(zp->rect);
        zp->note->position->setCoords(0.02, 0.03); // clear of the marker line at t = 0
        zp->note->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        zp->note->setTextAlignment(Qt::AlignLeft);
        // The zone's name inside its plot, top right (the y axis' title would not fit a short plot).
        zp->name = new QCPItemText(m_plot);
        zp->name->setClipToAxisRect(true);
        zp->name->setClipAxisRect(zp->rect);
        zp->name->position->setType(QCPItemPosition::ptAxisRectRatio);
        zp->name->position->setAxisRect(zp->rect);
        zp->name->position->setCoords(0.99, 0.03);
        zp->name->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
        zp->name->setText(zone_label(z.node, z.zone));
        if (m_zones.empty()) {
            // The legend's entries by importance, what is left out when the view is small last; in A/B one
            // entry per kind with A's and B's icons (fourteen entries did not fit a 1280x800 screen).
            using member = QCPGraph* limits_series::*;
            std::vector<member> kinds = {&limits_series::g_high, &limits_series::g_batch, &limits_series::g_limit};
            // Per-CPU highs differ only with auto-tuning (v6.7+); before, they all equal the zone's high. Where
            // they differ they are what the view is about, so they come before the event lines (whose kinds
            // the tooltips and the events view also name).
            if (tuned)
                kinds.insert(kinds.end(), {&limits_series::g_hi, &limits_series::g_highm, &limits_series::g_hmin});
            kinds.push_back(&limits_series::g_vline);
            const int prefix = static_cast<int>(side_prefix(ab, 0).size());
            for (const member k : kinds) {
                QCPGraph* g = zp->s[0].*k;
                if (ab)
                    m_legend_order.push_back({g, zp->s[1].*k, tr("A, B: %1").arg(g->name().mid(prefix))});
                else
                    m_legend_order.push_back({g, nullptr, g->name()});
            }
        }
        m_zones.push_back(std::move(zp));
    }
    // One time axis, under the last plot: the others share it.
    for (std::size_t i = 0; i + 1 < m_zones.size(); ++i) {
        m_zones[i]->rect->axis(QCPAxis::atBottom)->setTickLabels(false);
        m_zones[i]->rect->axis(QCPAxis::atBottom)->setLabel(QString());
    }
    refit_legend();
    m_follow->attach_axes();
    restyle();
}

void limits_view::feed(const frame& f, int side)
{
    const history& h = side == 0 ? *f.ha : *f.hb;
    const bool ab = f.b != nullptr;
    const auto& samples = h.samples();
    const sample_cursor::news ns = m_samples[side].take(h);
    if (ns.rebuild)
        for (auto& zp : m_zones) zp->s[side].clear_samples();
    for (std::size_t i = ns.first; i < samples.size(); ++i) {
        const sample& smp = samples[i];
        const double t = seconds(smp.t_ns);
        for (auto& zp : m_zones) {
            limits_series& ss = zp->s[side];
            if (ss.zi < 0 || static_cast<std::size_t>(ss.zi) >= smp.zones.size()) continue;
            ss.add_sample(t, smp.zones[static_cast<std::size_t>(ss.zi)]);
        }
    }

    const auto& events = h.events();
    const sample_cursor::news ne = m_events[side].take(h, h.events_total(), events.size());
    if (ne.rebuild)
        for (auto& zp : m_zones) zp->s[side].clear_events();
    const double first_t = samples.empty() ? 0 : seconds(samples.front().t_ns);
    for (std::size_t i = ne.first; i < events.size(); ++i) {
        const sim::sim_event& e = events[i];
        for (auto& zp : m_zones) {
            const bool this_zone = e.node == zp->node && e.zone == zp->zone;
            const bool this_node = e.node < 0 || (e.node == zp->node && e.zone < 0);
            zp->s[side].add_event(e, this_zone, this_node, {m_tuned, ab, side, first_t});
        }
    }

    for (auto& zp : m_zones) zp->s[side].push();
}

void limits_view::show_frame(const frame& f)
{
    if (!f.a || !f.ha) return;
    m_last = f;
    m_in_show = true;
    m_picker->offer(*f.a);
    m_in_show = false;
    if (!m_gate.admit(f, isVisible())) return;
    const QString key = layout_key(f);
    if (key != m_layout) {
        m_layout = key;
        rebuild_layout(f);
    }
    feed(f, 0);
    if (f.b && f.hb) feed(f, 1);

    // From virtual time 0 (boot's events are there) to the newest sample.
    const double newest = newest_time(f.ha, f.b ? f.hb : nullptr);
    m_follow->data_range(-0.01 * newest, newest); // a margin so that the markers at t = 0 show whole
    const double boot_end = seconds(std::max(f.ha->boot_end_ns(), f.hb ? f.hb->boot_end_ns() : 0));
    QStringList head;
    for (auto& zp : m_zones) {
        zp->boot->setVisible(boot_end > 0);
        zp->boot->topLeft->setCoords(0, 0);
        zp->boot->bottomRight->setCoords(boot_end, 1);
        // The current limits first in the header: what the plot's right end shows.
        for (int side = 0; side < (f.b ? 2 : 1); ++side) {
            const sim::snapshot& s = side == 0 ? *f.a : *f.b;
            const int zi = s.zone_index(zp->node, zp->zone);
            if (zi < 0) continue;
            const sim::zone_snapshot& z = s.zone_at(zi);
            head << tr("%1%2: batch %3, high %4")
                        .arg(side_prefix(f.b != nullptr, side).remove(QLatin1Char(':')))
                        .arg(m_zones.size() > 1 ? tr("node %1").arg(zp->node) : zone_label(zp->node, zp->zone))
                        .arg(z.batch)
                        .arg(z.high);
        }
        double ymin = std::min(zp->s[0].ymin, zp->s[1].ymin), ymax = std::max(zp->s[0].ymax, zp->s[1].ymax);
        if (!(ymax > 0)) {
            ymin = 1;
            ymax = 100;
        }
        zp->ylo = std::max(0.5, ymin / 2);
        zp->ymax = ymax;
        fit_headroom(*zp); // again once the notes are laid out (afterLayout)
        QStringList notes;
        for (const limits_series& ss : zp->s)
            for (const auto& [cause, changes] : ss.boot_notes)
                notes << tr("%1: %2").arg(cause, changes.join(QStringLiteral(", ")));
        if (!notes.isEmpty()) notes.prepend(tr("At boot (t = 0):"));
        zp->note_lines = notes; // set as they fit once the plot is laid out (afterLayout)
        // A few y ticks in a short plot, so that "10", "100", "1000" do not run into each other.
        zp->rect->axis(QCPAxis::atLeft)
            ->ticker()
            ->setTickCount(std::clamp(zp->rect->height() / (2 * QFontMetrics(m_plot->font()).height()), 1, 5));
        const bool title_fits = QFontMetrics(m_plot->font()).horizontalAdvance(tr("pages")) + 6 < zp->rect->height();
        zp->rect->axis(QCPAxis::atLeft)->setLabel(title_fits ? tr("pages") : QString());
    }
    m_header->set_parts(head);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void limits_view::reset()
{
    m_gate.reset();
    m_last = frame{};
    m_header->set_parts({});
    m_layout.clear();
    m_zones.clear();
    m_legend = nullptr;
    m_legend_order.clear();
    clear_plot(m_plot);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void limits_view::seek_to(qint64 t_ns)
{
    m_follow->seek(seconds(t_ns));
}

void limits_view::restyle()
{
    const QPalette& pal = palette();
    style_plot(m_plot, pal);
    const bool ab = m_zones.empty() ? false : m_zones.front()->s[1].g_batch != nullptr;
    for (auto& zp : m_zones) {
        for (int side = 0; side < 2; ++side) {
            limits_series& ss = zp->s[side];
            if (!ss.g_batch) continue;
            const QColor c_high = ab ? side_color(side, pal) : series_color(0, pal);
            // In A/B both lines have the side's colour; batch is the paler one (solid: dashes paint slowly).
            const QColor c_batch = ab ? paler_color(side_color(side, pal), pal) : series_color(1, pal);
            ss.g_high->setPen(QPen(c_high, 2));
            ss.g_batch->setPen(QPen(c_batch, 2));
            ss.g_hmin->setPen(QPen(c_high, 1, Qt::DotLine));
            ss.g_hmax->setPen(QPen(c_high, 1, Qt::DotLine));
            QColor band = c_high;
            band.setAlpha(is_dark(pal) ? 70 : 45);
            ss.g_lo->setPen(Qt::NoPen);
            ss.g_hi->setPen(Qt::NoPen);
            ss.g_hi->setBrush(band); // filled down to g_lo (channel fill)
            QColor dots = series_color(4, pal);
            dots.setAlpha(170);
            ss.g_highm->setScatterStyle(QCPScatterStyle(disc_pixmap(dots, 3)));
            ss.g_highm->setPen(QPen(dots));
            ss.g_limit->setScatterStyle(
                QCPScatterStyle(side == 0 ? QCPScatterStyle::ssDiamond : QCPScatterStyle::ssTriangle, text_color(pal),
                    warn_color(pal), 10));
            ss.g_limit->setPen(QPen(warn_color(pal)));
            // In A/B each machine's instants in its own colour: seed 004's B ends deferred init long before A.
            ss.g_vline->setPen(QPen(ab ? side_color(side, pal) : series_color(2, pal), 1.5, Qt::DashLine));
        }
        QColor band = series_color(2, pal);
        band.setAlpha(is_dark(pal) ? 45 : 35);
        zp->boot->setPen(Qt::NoPen);
        zp->boot->setBrush(band);
        if (zp->name) {
            zp->name->setColor(text_color(pal));
            zp->name->setFont(font());
        }
        if (zp->note) {
            zp->note->setColor(text_color(pal));
            QFont fnt = font();
            fnt.setPointSizeF(fnt.pointSizeF() * 0.9);
            zp->note->setFont(fnt);
        }
    }
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void limits_view::showEvent(QShowEvent* e)
{
    view::showEvent(e);
    if (m_gate.pending().a) show_frame(frame(m_gate.pending()));
}

// The last frame drawn again, once the events in flight have run (its layout follows a new size or font).
void limits_view::show_last_again()
{
    m_gate.redraw();
    if (m_last.a && isVisible())
        QMetaObject::invokeMethod(
            this, [this] { show_frame(frame(m_last)); }, Qt::QueuedConnection);
}

void limits_view::changeEvent(QEvent* e)
{
    if (e->type() == QEvent::PaletteChange || e->type() == QEvent::FontChange) restyle();
    if (e->type() == QEvent::FontChange && m_legend) {
        // The legend's columns, the ticks and the titles that fit follow the font: laid out again even when no
        // new frame comes (a paused or finished run).
        refit_legend();
        show_last_again();
    }
    view::changeEvent(e);
}

QString limits_view::marker_tooltip_at(const QPoint& pos) const
{
    QCPAxisRect* r = m_plot->axisRectAt(pos);
    if (!r) return {};
    for (const auto& zp : m_zones) {
        if (zp->rect != r) continue;
        QCPAxis* x = r->axis(QCPAxis::atBottom);
        QCPAxis* y = r->axis(QCPAxis::atLeft);
        double best = 7; // pixels
        QString text;
        for (const limits_series& ss : zp->s)
            for (const limits_marker& m : ss.markers) {
                const double dx = std::abs(x->coordToPixel(m.t) - pos.x());
                if (dx > best) continue;
                // A point marker under the cursor wins over a full-height line through it.
                const double d = std::isnan(m.y) ? dx + 3 : std::hypot(dx, y->coordToPixel(m.y) - pos.y());
                if (d < best) {
                    best = d;
                    text = m.text;
                }
            }
        return text;
    }
    return {};
}

void limits_view::refit_legend()
{
    if (!m_legend) return;
    // As many entries as fit in a row or two (three in a view tall enough for two zones), the most important
    // first; none in a view too short to spare a line (the names are in the tooltip of the markers and the
    // view's larger self).
    const int rows = m_plot->height() < 200 ? 0 : m_plot->height() < 320 ? 1 : m_plot->height() < 420 ? 2 : 3;
    const int width = m_plot->width() - 20;
    std::vector<int> entry_width;
    for (const legend_entry& e : m_legend_order)
        entry_width.push_back(legend_entry_width(m_legend, e.text, e.b ? 2 : 1));
    // The legend fills rows of `c` entries; each of its columns is as wide as the widest entry in it. The most
    // entries that some column count lays out within the width and rows, and that count.
    const auto row_width = [&](std::size_t n, std::size_t c) {
        int total = -m_legend->columnSpacing();
        for (std::size_t col = 0; col < c; ++col) {
            int widest = 0;
            for (std::size_t i = col; i < n; i += c) widest = std::max(widest, entry_width[i]);
            total += widest + m_legend->columnSpacing();
        }
        return total;
    };
    std::size_t fit = 0;
    int columns = 1;
    for (std::size_t n = 1; n <= m_legend_order.size() && rows > 0; ++n) {
        std::size_t c = n;
        while (c > 0 && ((n + c - 1) / c > static_cast<std::size_t>(rows) || row_width(n, c) > width)) --c;
        if (c == 0 || (n + c - 1) / c > static_cast<std::size_t>(rows)) break;
        fit = n;
        columns = static_cast<int>(c);
    }
    m_legend->clearItems();
    m_legend->setWrap(columns);
    for (std::size_t i = 0; i < fit; ++i) {
        const legend_entry& e = m_legend_order[i];
        if (e.b)
            add_pair_to_legend(e.a, e.b, e.text, m_legend);
        else
            add_to_legend(e.a, m_legend);
    }
    m_legend->setFillOrder(m_legend->fillOrder(), true);
    // A legend with no entry still draws its frame: a stray empty square at the view's left edge (1280x720).
    m_legend->setVisible(fit > 0);
}

void limits_view::fit_headroom(zone_plot& zp) const
{
    // The lines stay below the boot note (top left) and the zone's name (top right): on the log axis the
    // highest value sits at the share of the height left free under them, so the note never covers a line.
    const QFontMetrics fm(zp.note ? zp.note->font() : font());
    const QString text = zp.note ? zp.note->text() : QString();
    const int lines = std::max<int>(1, text.isEmpty() ? 1 : static_cast<int>(text.count(QLatin1Char('\n'))) + 1);
    const int h = std::max(1, zp.rect->height());
    const double reserved = lines * fm.height() + 0.03 * h + 6;
    const double free = std::clamp((h - reserved) / h, 0.2, 0.9);
    const double lo = zp.ylo, top = std::max(zp.ymax, lo * 2);
    zp.rect->axis(QCPAxis::atLeft)->setRange(lo, lo * std::pow(top / lo, 1 / free));
}

QString limits_view::fit_note(const QStringList& lines, const QCPAxisRect* r) const
{
    // The whole lines that fit the plot (less its name's line and a margin), and how many more there are.
    const QFontMetrics fm(m_zones.empty() || !m_zones.front()->note ? font() : m_zones.front()->note->font());
    // At most half the plot's height, so that the lines keep the other half (fit_headroom).
    const int room_w = r->width() - 12, room_h = r->height() / 2;
    QStringList shown;
    int used = 0;
    int left = 0;
    for (const QString& l : lines) {
        if (fm.horizontalAdvance(l) > room_w || used + 2 * fm.height() > room_h) {
            ++left;
            continue;
        }
        shown << l;
        used += fm.height();
    }
    if (left > 0 && shown.size() > 1 && used + fm.height() <= room_h)
        shown << tr("%1 more at t = 0: hover the markers").arg(left);
    return shown.size() > 1 ? shown.join(QLatin1Char('\n')) : QString();
}

QString limits_view::zone_note(int i) const
{
    if (i < 0 || i >= static_cast<int>(m_zones.size()) || !m_zones[static_cast<std::size_t>(i)]->note) return {};
    return m_zones[static_cast<std::size_t>(i)]->note->text();
}

QString limits_view::zone_plot_label(int i) const
{
    if (i < 0 || i >= static_cast<int>(m_zones.size())) return {};
    return zone_label(m_zones[static_cast<std::size_t>(i)]->node, m_zones[static_cast<std::size_t>(i)]->zone);
}

int limits_view::high_points(int i, int side) const
{
    if (i < 0 || i >= static_cast<int>(m_zones.size()) || side < 0 || side > 1) return 0;
    const QCPGraph* g = m_zones[static_cast<std::size_t>(i)]->s[side].g_high;
    return g ? g->dataCount() : 0;
}

QPoint limits_view::first_limit_marker(int i) const
{
    if (i < 0 || i >= static_cast<int>(m_zones.size())) return {-1, -1};
    const zone_plot& zp = *m_zones[static_cast<std::size_t>(i)];
    for (const limits_marker& m : zp.s[0].markers)
        if (!std::isnan(m.y))
            return {static_cast<int>(zp.rect->axis(QCPAxis::atBottom)->coordToPixel(m.t)),
                static_cast<int>(zp.rect->axis(QCPAxis::atLeft)->coordToPixel(m.y))};
    return {-1, -1};
}

bool limits_view::eventFilter(QObject* o, QEvent* e)
{
    if (o == m_plot && e->type() == QEvent::Resize && m_legend) {
        refit_legend();
        show_last_again();
    }
    if (o == m_plot && e->type() == QEvent::ToolTip) {
        auto* he = static_cast<QHelpEvent*>(e);
        const QString t = marker_tooltip_at(he->pos());
        if (t.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(he->globalPos(), t, m_plot);
        return true;
    }
    return view::eventFilter(o, e);
}

} // namespace pcplab::ui
