// The limits view's series and markers of one machine in one zone.
#include "ui/views/limits_series.hpp"

#include <qcustomplot.h>

#include <QObject>

namespace pcplab::ui
{

namespace
{

constexpr int k_max_high_marks = 20'000; // per zone and side; later per-CPU high changes are not marked

double positive_or_nan(double v)
{
    return v > 0 ? v : std::numeric_limits<double>::quiet_NaN();
}

QString field_name(sim::event_field f)
{
    switch (f) {
    case sim::event_field::batch:
        return QStringLiteral("batch");
    case sim::event_field::high:
        return QStringLiteral("high");
    case sim::event_field::high_min:
        return QStringLiteral("high_min");
    case sim::event_field::high_max:
        return QStringLiteral("high_max");
    case sim::event_field::pages:
        return QStringLiteral("pages");
    case sim::event_field::none:
        break;
    }
    return {};
}

} // namespace

QString side_prefix(bool ab, int side)
{
    return ab ? (side == 0 ? QStringLiteral("A: ") : QStringLiteral("B: ")) : QString();
}

void limits_series::note_y(double v)
{
    if (v > 0) {
        ymin = std::min(ymin, v);
        ymax = std::max(ymax, v);
    }
}

void limits_series::note_boot(const QString& cause, const QString& change)
{
    for (auto& [c, list] : boot_notes)
        if (c == cause) {
            list << change;
            return;
        }
    boot_notes.push_back({cause, {change}});
}

void limits_series::add_sample(double t, const zone_sample& z)
{
    m_batch.add(t, positive_or_nan(z.batch));
    m_high.add(t, positive_or_nan(z.high));
    m_hmin.add(t, positive_or_nan(z.high_min));
    m_hmax.add(t, positive_or_nan(z.high_max));
    m_band_lo.add(t, positive_or_nan(z.cpu_high_min));
    m_band_hi.add(t, positive_or_nan(z.cpu_high_max));
    for (int v : {z.batch, z.high, z.high_min, z.high_max, z.cpu_high_min, z.cpu_high_max}) note_y(v);
}

void limits_series::add_event(const sim::sim_event& e, bool this_zone, bool this_node, const event_context& c)
{
    const double t = seconds(static_cast<std::int64_t>(e.t));
    const QString text = QString::fromStdString(e.text);
    const QString where = QObject::tr(" at %1 s").arg(t, 0, 'f', 6);
    const QString pre = side_prefix(c.ab, c.side);
    const auto value = static_cast<double>(e.new_value);
    switch (e.kind) {
    case sim::event_kind::limits_change:
        if (!this_zone) break;
        // Before v6.7 high_min/high_max are bookkeeping copies of high, not limits of their own.
        if (!c.tuned && (e.field == sim::event_field::high_min || e.field == sim::event_field::high_max)) break;
        m_limit_marks.add(t, positive_or_nan(value));
        note_y(value); // the y range shows every marker
        markers.push_back({t, value,
            pre
                + QObject::tr("%1 %2 → %3 (%4)%5")
                      .arg(field_name(e.field))
                      .arg(e.old_value)
                      .arg(e.new_value)
                      .arg(text, where)});
        if (t <= c.first_sample_t)
            note_boot(pre + text, QObject::tr("%1 %2 → %3").arg(field_name(e.field)).arg(e.old_value).arg(e.new_value));
        break;
    case sim::event_kind::pcp_high_change:
        if (!this_zone || m_high_marks.x.size() >= k_max_high_marks) break;
        m_high_marks.add(t, positive_or_nan(value));
        markers.push_back({t, value,
            pre
                + QObject::tr("CPU %1 high %2 → %3: %4%5")
                      .arg(e.cpu)
                      .arg(e.old_value)
                      .arg(e.new_value)
                      .arg(text, where)});
        break;
    case sim::event_kind::deferred_init_done:
    case sim::event_kind::reclaim_start:
    case sim::event_kind::reclaim_stop:
    case sim::event_kind::switch_flip: {
        if (!(this_zone || this_node)) break;
        m_vlines.add(t, 1.0);
        const QString what = e.kind == sim::event_kind::deferred_init_done
            ? QObject::tr("deferred init done on node %1").arg(e.node)
            : e.kind == sim::event_kind::reclaim_start ? QObject::tr("reclaim starts")
            : e.kind == sim::event_kind::reclaim_stop  ? QObject::tr("reclaim stops")
                                                       : QObject::tr("switch");
        markers.push_back(
            {t, std::numeric_limits<double>::quiet_NaN(), pre + what + QStringLiteral(": ") + text + where});
        break;
    }
    default:
        break;
    }
}

void limits_series::clear_samples()
{
    for (step_builder* b : {&m_batch, &m_high, &m_hmin, &m_hmax, &m_band_lo, &m_band_hi}) b->clear();
    ymin = std::numeric_limits<double>::infinity();
    ymax = 0;
}

void limits_series::clear_events()
{
    m_limit_marks.clear();
    m_high_marks.clear();
    m_vlines.clear();
    markers.clear();
    boot_notes.clear();
}

void limits_series::push()
{
    if (!g_batch) return;
    auto put = [](QCPGraph* g, const xy& d, bool sorted) { g->setData(d.x, d.y, sorted); };
    put(g_batch, m_batch.points(), true);
    put(g_high, m_high.points(), true);
    put(g_hmin, m_hmin.points(), true);
    put(g_hmax, m_hmax.points(), true);
    put(g_lo, m_band_lo.points(), true);
    put(g_hi, m_band_hi.points(), true);
    // Events arrive in host order (two CPUs' clocks interleave a little): let QCustomPlot sort them.
    put(g_limit, m_limit_marks, false);
    put(g_highm, m_high_marks, false);
    put(g_vline, m_vlines, false);
}

} // namespace pcplab::ui
