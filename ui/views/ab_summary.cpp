// Key numbers and A/B deltas.
#include "ui/views/ab_summary.hpp"

#include "ui/views/view_style.hpp"

#include <algorithm>

namespace pcplab::ui
{

key_numbers key_numbers_of(const sim::snapshot& s)
{
    key_numbers k;
    for (const auto& z : s.zones) {
        k.contention_pct = std::max(k.contention_pct, z.lock.contention_pct);
        k.max_hold_ns = std::max(k.max_hold_ns, static_cast<double>(z.lock.m.hold_ns_max));
    }
    // Over the CPU time accounted so far, not CPUs x elapsed: a CPU's clock runs ahead of the snapshot's time by
    // the action it just charged, so the elapsed time undercounts and the share would overshoot.
    double accounted = 0;
    for (const sim::cpu_metrics& c : s.cpus) accounted += static_cast<double>(c.sys_ns + c.user_ns + c.idle_ns);
    k.sys_pct = accounted > 0 ? 100.0 * static_cast<double>(s.sys_ns_total()) / accounted : 0;
    k.zone_allocs = static_cast<double>(s.totals.zone_allocs);
    return k;
}

namespace
{

// " (−75 %)" relative change, or "" when A is 0.
QString rel(double a, double b)
{
    if (a == 0) return {};
    const double r = (b - a) / a * 100.0;
    return QStringLiteral(" (%1%2 %)")
        .arg(r >= 0 ? QStringLiteral("+") : QStringLiteral("−"))
        .arg(std::abs(r), 0, 'f', 0);
}

// " (+1.5 pp)": the difference of two percentages, in percentage points.
QString pp(double a, double b)
{
    const double d = b - a;
    return QStringLiteral(" (%1%2 pp)")
        .arg(d >= 0 ? QStringLiteral("+") : QStringLiteral("−"))
        .arg(std::abs(d), 0, 'f', 1);
}

QString pct(double v)
{
    return QStringLiteral("%1 %").arg(v, 0, 'f', 1);
}

} // namespace

QStringList key_numbers_parts(const sim::snapshot& a, const sim::snapshot* b)
{
    const key_numbers ka = key_numbers_of(a);
    if (!b)
        return {QObject::tr("zone->lock contention %1").arg(pct(ka.contention_pct)),
            QObject::tr("sys %1 of CPU time").arg(pct(ka.sys_pct)),
            QObject::tr("zone allocs %1").arg(compact(ka.zone_allocs)),
            QObject::tr("max hold %1").arg(format_ns(ka.max_hold_ns))};
    const key_numbers kb = key_numbers_of(*b);
    return {QObject::tr("contention A %1 / B %2%3")
                .arg(pct(ka.contention_pct), pct(kb.contention_pct), pp(ka.contention_pct, kb.contention_pct)),
        QObject::tr("sys A %1 / B %2%3").arg(pct(ka.sys_pct), pct(kb.sys_pct), pp(ka.sys_pct, kb.sys_pct)),
        QObject::tr("zone allocs A %1 / B %2%3")
            .arg(compact(ka.zone_allocs), compact(kb.zone_allocs), rel(ka.zone_allocs, kb.zone_allocs)),
        QObject::tr("max hold A %1 / B %2%3")
            .arg(format_ns(ka.max_hold_ns), format_ns(kb.max_hold_ns), rel(ka.max_hold_ns, kb.max_hold_ns))};
}

} // namespace pcplab::ui
