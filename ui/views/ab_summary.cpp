// Key numbers and A/B deltas.
#include "views/ab_summary.hpp"

#include "views/view_style.hpp"

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
    k.sys_s = static_cast<double>(s.sys_ns_total()) / 1e9;
    const double cpu_time = static_cast<double>(s.sim_time_ns) * std::max(1, s.nr_cpus);
    k.sys_pct = cpu_time > 0 ? 100.0 * static_cast<double>(s.sys_ns_total()) / cpu_time : 0;
    k.zone_allocs = static_cast<double>(s.totals.zone_allocs);
    return k;
}

namespace
{

// "−75 %" relative change, or "" when A is 0.
QString rel(double a, double b)
{
    if (a == 0) return {};
    const double r = (b - a) / a * 100.0;
    return QStringLiteral(" (%1%2 %)")
        .arg(r >= 0 ? QStringLiteral("+") : QStringLiteral("−"))
        .arg(std::abs(r), 0, 'f', 0);
}

QString pp(double a, double b)
{
    const double d = b - a;
    return QStringLiteral(" (%1%2 pp)")
        .arg(d >= 0 ? QStringLiteral("+") : QStringLiteral("−"))
        .arg(std::abs(d), 0, 'f', 1);
}

} // namespace

QString key_numbers_text(const sim::snapshot& a, const sim::snapshot* b)
{
    const key_numbers ka = key_numbers_of(a);
    if (!b)
        return QObject::tr("contention %1 % · sys %2 % of CPU time · zone allocs %3 · max hold %4")
            .arg(ka.contention_pct, 0, 'f', 1)
            .arg(ka.sys_pct, 0, 'f', 1)
            .arg(compact(ka.zone_allocs), format_ns(ka.max_hold_ns));
    const key_numbers kb = key_numbers_of(*b);
    return QObject::tr(
        "A vs B — contention %1 / %2 %%3 · sys %4 / %5 %%6 · zone allocs %7 / %8%9 · max hold %10 / %11%12")
        .arg(ka.contention_pct, 0, 'f', 1)
        .arg(kb.contention_pct, 0, 'f', 1)
        .arg(pp(ka.contention_pct, kb.contention_pct))
        .arg(ka.sys_pct, 0, 'f', 1)
        .arg(kb.sys_pct, 0, 'f', 1)
        .arg(pp(ka.sys_pct, kb.sys_pct))
        .arg(compact(ka.zone_allocs), compact(kb.zone_allocs), rel(ka.zone_allocs, kb.zone_allocs))
        .arg(format_ns(ka.max_hold_ns), format_ns(kb.max_hold_ns), rel(ka.max_hold_ns, kb.max_hold_ns));
}

} // namespace pcplab::ui
