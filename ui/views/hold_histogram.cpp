// The hold-time histogram: one bar per log2 bucket from the first to the last non-empty one, log count scale,
// the threshold as a vertical line with the number of holds over it.
#include "ui/views/lock_paint.hpp"

#include "ui/views/header_parts.hpp"
#include "ui/views/view_style.hpp"

#include <QPainter>

#include <cmath>

namespace pcplab::ui
{

namespace
{

// A bucket's lower edge (a power of two of ns) to two or three figures: "512 ns", "4.1 us", "131 us".
QString edge_label(double ns)
{
    const double a = ns >= 1e9 ? ns / 1e9 : ns >= 1e6 ? ns / 1e6 : ns >= 1e3 ? ns / 1e3 : ns;
    const char* unit = ns >= 1e9 ? "s" : ns >= 1e6 ? "ms" : ns >= 1e3 ? "us" : "ns";
    return QStringLiteral("%1 %2").arg(a, 0, 'f', a < 10 && ns >= 1e3 ? 1 : 0).arg(QLatin1String(unit));
}

} // namespace

QString caller_name(mm::lock_caller c)
{
    const std::string_view n = mm::lock_caller_name(c);
    return QString::fromLatin1(n.data(), static_cast<qsizetype>(n.size()));
}

void paint_hold_histogram(QPainter& p, const QRect& area, const QString& zone, const sim::lock_metrics* a,
    const sim::lock_metrics* b, std::int64_t threshold_ns, const QPalette& pal)
{
    const QFontMetrics fm = p.fontMetrics();
    p.setPen(text_color(pal));
    if (!a) {
        draw_message(p, area, QObject::tr("No zone->lock metrics yet"), pal);
        return;
    }
    const sim::lock_metrics* sides[2] = {a, b};
    int lo = 47, hi = 0;
    std::uint64_t top = 1;
    for (const auto* m : sides) {
        if (!m) continue;
        for (int i = 0; i < 48; ++i)
            if (m->hold_hist.buckets[static_cast<std::size_t>(i)]) {
                lo = std::min(lo, i);
                hi = std::max(hi, i);
                top = std::max(top, m->hold_hist.buckets[static_cast<std::size_t>(i)]);
            }
    }
    // Include the threshold's bucket so that its line is always on the axis.
    const int thr_bucket
        = threshold_ns > 0 ? static_cast<int>(std::floor(std::log2(static_cast<double>(threshold_ns)))) : 20;
    if (lo > hi) {
        lo = std::max(0, thr_bucket - 12);
        hi = thr_bucket;
    }
    lo = std::min(lo, thr_bucket);
    hi = std::max(hi, thr_bucket);
    draw_parts(p, QRect(area.left(), area.top(), area.width(), fm.height()),
        {QObject::tr("zone->lock hold times, %1").arg(zone), QObject::tr("holds per log2 bucket"),
            QObject::tr("count on a log scale")},
        1);
    const int axis_w = fm.horizontalAdvance(QStringLiteral("100 k "));
    const QRect plot(area.left() + axis_w, area.top() + fm.height() + 4, area.width() - axis_w - 4,
        area.height() - 3 * fm.height() - 6);
    if (plot.height() < 10 || plot.width() < 40) return;
    const double top_log = std::log10(static_cast<double>(top) + 1);
    // The bars stop a line below the plot's top: the threshold's label has that line to itself (over the tallest
    // bars it hid them in a short plot).
    const int bar_h = std::max(4, plot.height() - fm.height() - 2);
    // Decade lines; their labels where they stay a line apart and above the bucket labels.
    int last_label_y = plot.bottom() + fm.height();
    for (int dec = 0; std::pow(10.0, dec) <= static_cast<double>(top) * 1.0001; ++dec) {
        const int y = plot.bottom() - static_cast<int>(std::log10(std::pow(10.0, dec) + 1) / top_log * bar_h);
        p.setPen(faint_color(pal));
        p.drawLine(plot.left(), y, plot.right(), y);
        if (y + fm.height() / 2 > plot.bottom() + 1 || last_label_y - y < fm.height()) continue;
        p.setPen(text_color(pal));
        p.drawText(QRect(area.left(), y - fm.height() / 2, axis_w - 4, fm.height()), Qt::AlignRight | Qt::AlignVCenter,
            compact(std::pow(10.0, dec)));
        last_label_y = y;
    }
    const int n = hi - lo + 1;
    const int slot = std::max(3, plot.width() / n);
    const int sides_n = b ? 2 : 1;
    // Bars no wider than 40 px each, centred in their bucket's slot.
    const int bw = std::clamp((slot - std::max(1, slot / 5)) / sides_n, 1, 40);
    const int inset = (slot - bw * sides_n) / 2;
    // Every k-th bucket labelled, k such that the widest label and a gap fit in k slots.
    int widest = 0;
    for (int i = lo; i <= hi; ++i) widest = std::max(widest, fm.horizontalAdvance(edge_label(std::pow(2.0, i))));
    const int label_every = std::max(1, (widest + fm.height() + slot - 1) / slot);
    for (int i = lo; i <= hi; ++i) {
        const int x0 = plot.left() + (i - lo) * slot;
        for (int s = 0; s < sides_n; ++s) {
            const std::uint64_t c = sides[s]->hold_hist.buckets[static_cast<std::size_t>(i)];
            if (!c) continue;
            const int h = std::max(1, static_cast<int>(std::log10(static_cast<double>(c) + 1) / top_log * bar_h));
            QColor fill = b ? side_color(s, pal)
                            : (threshold_ns > 0 && i >= thr_bucket ? warn_color(pal) : series_color(0, pal));
            p.fillRect(QRect(x0 + inset + s * bw, plot.bottom() - h + 1, bw - 1, h), fill);
        }
        if ((i - lo) % label_every == 0) {
            p.setPen(text_color(pal));
            // The label sits on the bucket's lower edge: the axis is log2(ns), like the threshold line.
            const QString t = edge_label(std::pow(2.0, i));
            const int tw = fm.horizontalAdvance(t);
            p.drawText(QRect(std::max(area.left(), x0 - tw / 2), plot.bottom() + 2, tw + 1, fm.height()),
                Qt::AlignLeft | Qt::AlignTop, t);
        }
    }
    // The threshold: unknown (0) only in a recording that did not keep it; then no line and no count over it.
    if (threshold_ns > 0) {
        // Threshold line at its position within its bucket (log2 interpolation).
        const double thr_pos = (std::log2(static_cast<double>(std::max<std::int64_t>(1, threshold_ns))) - lo) * slot;
        const int tx = plot.left() + static_cast<int>(thr_pos);
        p.setPen(QPen(warn_color(pal), 2, Qt::DashLine));
        p.drawLine(tx, plot.top(), tx, plot.bottom());
        // Waits too: behind many CPUs a wait passes the threshold long before any hold does.
        auto count = [](std::uint64_t n, const char* one, const char* many) {
            return QStringLiteral("%1 %2").arg(n).arg(QObject::tr(n == 1 ? one : many));
        };
        QString over
            = QObject::tr("over %1: %2%3, %4")
                  .arg(format_ns(static_cast<double>(threshold_ns)), b ? QStringLiteral("A ") : QString(),
                      count(a->holds_over_threshold, "hold", "holds"), count(a->waits_over_threshold, "wait", "waits"));
        if (b)
            over += QObject::tr("; B %1, %2")
                        .arg(count(b->holds_over_threshold, "hold", "holds"),
                            count(b->waits_over_threshold, "wait", "waits"));
        if (fm.horizontalAdvance(over) > plot.width()) over = over.left(over.indexOf(QLatin1Char(';')));
        const int tw = fm.horizontalAdvance(over);
        const int lx = tx + 4 + tw < plot.right() ? tx + 4 : std::max(plot.left(), tx - 4 - tw);
        // The label sits on the plot's top line, above the tallest bars; a backdrop keeps it clear of the decade lines.
        const QRect label(lx, plot.top(), tw + 2, fm.height());
        QColor backdrop = pal.color(QPalette::Window);
        backdrop.setAlpha(220);
        p.fillRect(label.adjusted(-2, 0, 2, 0), backdrop);
        p.setPen(warn_color(pal));
        p.drawText(label, Qt::AlignLeft | Qt::AlignVCenter, over);
        p.setPen(text_color(pal));
    }
    // p99 from log2 buckets is a bound: the bucket's upper edge, capped at the longest hold.
    const QStringList foot = b
        ? QStringList{QObject::tr("hold p99 at most A %1, B %2")
                          .arg(format_ns(static_cast<double>(sim::hold_ns_p99(*a))),
                              format_ns(static_cast<double>(sim::hold_ns_p99(*b)))),
            QObject::tr("longest A %1, B %2")
                .arg(format_ns(static_cast<double>(a->hold_ns_max)), format_ns(static_cast<double>(b->hold_ns_max))),
            QObject::tr("A and B bars side by side per bucket")}
        : QStringList{QObject::tr("%1 holds").arg(compact(static_cast<double>(a->hold_hist.count()))),
            QObject::tr("p99 at most %1").arg(format_ns(static_cast<double>(sim::hold_ns_p99(*a)))),
            QObject::tr("longest %1").arg(format_ns(static_cast<double>(a->hold_ns_max)))};
    draw_parts(p, QRect(area.left(), area.bottom() - fm.height(), area.width(), fm.height()), foot, 1);
}

} // namespace pcplab::ui
