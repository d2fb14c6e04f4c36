// The hold-time histogram: one bar per log2 bucket from the first to the last non-empty one, log count scale,
// the threshold as a vertical line with the number of holds over it.
#include "views/lock_paint.hpp"

#include "views/view_style.hpp"

#include <QPainter>

#include <cmath>

namespace pcplab::ui
{

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
    const QString title = QObject::tr("zone->lock hold time of %1 (log2 buckets; count on a log scale)").arg(zone);
    p.drawText(QRect(area.left(), area.top(), area.width(), fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
        fm.elidedText(title, Qt::ElideRight, area.width()));
    const int axis_w = fm.horizontalAdvance(QStringLiteral("100 k "));
    const QRect plot(area.left() + axis_w, area.top() + fm.height() + 4, area.width() - axis_w - 4,
        area.height() - 3 * fm.height() - 6);
    if (plot.height() < 10 || plot.width() < 40) return;
    const double top_log = std::log10(static_cast<double>(top) + 1);
    for (int dec = 0; std::pow(10.0, dec) <= static_cast<double>(top) * 1.0001; ++dec) {
        const int y = plot.bottom() - static_cast<int>(std::log10(std::pow(10.0, dec) + 1) / top_log * plot.height());
        p.setPen(faint_color(pal));
        p.drawLine(plot.left(), y, plot.right(), y);
        p.setPen(text_color(pal));
        p.drawText(QRect(area.left(), y - fm.height() / 2, axis_w - 4, fm.height()), Qt::AlignRight | Qt::AlignVCenter,
            compact(std::pow(10.0, dec)));
    }
    const int n = hi - lo + 1;
    const int slot = std::max(3, plot.width() / n);
    const int sides_n = b ? 2 : 1;
    // Bars no wider than 40 px each, centred in their bucket's slot.
    const int bw = std::clamp((slot - std::max(1, slot / 5)) / sides_n, 1, 40);
    const int inset = (slot - bw * sides_n) / 2;
    const int label_every = std::max(1, (fm.horizontalAdvance(QStringLiteral("512 us ")) + slot - 1) / slot);
    for (int i = lo; i <= hi; ++i) {
        const int x0 = plot.left() + (i - lo) * slot;
        for (int s = 0; s < sides_n; ++s) {
            const std::uint64_t c = sides[s]->hold_hist.buckets[static_cast<std::size_t>(i)];
            if (!c) continue;
            const int h
                = std::max(1, static_cast<int>(std::log10(static_cast<double>(c) + 1) / top_log * plot.height()));
            QColor fill = b ? side_color(s, pal) : (i >= thr_bucket ? warn_color(pal) : series_color(0, pal));
            p.fillRect(QRect(x0 + inset + s * bw, plot.bottom() - h + 1, bw - 1, h), fill);
        }
        if ((i - lo) % label_every == 0) {
            p.setPen(text_color(pal));
            // The label sits on the bucket's lower edge: the axis is log2(ns), like the threshold line.
            p.drawText(QRect(x0 - slot * 3 / 2, plot.bottom() + 2, slot * 3, fm.height()),
                Qt::AlignHCenter | Qt::AlignTop, format_ns(std::pow(2.0, i)));
        }
    }
    // Threshold line at its position within its bucket (log2 interpolation).
    const double thr_pos = (std::log2(static_cast<double>(std::max<std::int64_t>(1, threshold_ns))) - lo) * slot;
    const int tx = plot.left() + static_cast<int>(thr_pos);
    p.setPen(QPen(warn_color(pal), 2, Qt::DashLine));
    p.drawLine(tx, plot.top(), tx, plot.bottom());
    // Waits too: behind many CPUs a wait passes the threshold long before any hold does.
    QString over = QObject::tr("threshold %1: %2 holds, %3 waits over")
                       .arg(format_ns(static_cast<double>(threshold_ns)))
                       .arg(a->holds_over_threshold)
                       .arg(a->waits_over_threshold);
    if (b) over += QObject::tr(" (B %1, %2)").arg(b->holds_over_threshold).arg(b->waits_over_threshold);
    const int tw = fm.horizontalAdvance(over);
    const int lx = tx + 4 + tw < plot.right() ? tx + 4 : std::max(plot.left(), tx - 4 - tw);
    // The label sits at the top of the plot, where the tallest bars end: a backdrop keeps it readable.
    const QRect label(lx, plot.top(), tw + 2, fm.height());
    QColor backdrop = pal.color(QPalette::Window);
    backdrop.setAlpha(220);
    p.fillRect(label.adjusted(-2, 0, 2, 0), backdrop);
    p.setPen(warn_color(pal));
    p.drawText(label, Qt::AlignLeft | Qt::AlignVCenter, over);
    p.setPen(text_color(pal));
    // p99 from log2 buckets is a bound: the bucket's upper edge, capped at the longest hold.
    const QString foot = b
        ? QObject::tr("A and B bars side by side per bucket; hold p99 at most A %1, B %2")
              .arg(format_ns(static_cast<double>(sim::hold_ns_p99(*a))),
                  format_ns(static_cast<double>(sim::hold_ns_p99(*b))))
        : QObject::tr("%1 holds, p99 at most %2, longest %3")
              .arg(compact(static_cast<double>(a->hold_hist.count())),
                  format_ns(static_cast<double>(sim::hold_ns_p99(*a))), format_ns(static_cast<double>(a->hold_ns_max)));
    p.drawText(QRect(area.left(), area.bottom() - fm.height(), area.width(), fm.height()),
        Qt::AlignLeft | Qt::AlignVCenter, fm.elidedText(foot, Qt::ElideRight, area.width()));
}

} // namespace pcplab::ui
