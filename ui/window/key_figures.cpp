// The key figures and their comparison rules.
#include "ui/window/key_figures.hpp"

#include "ui/views/ab_summary.hpp"
#include "ui/views/view_style.hpp"

#include <QCoreApplication>

#include <algorithm>
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
    for (const sim::deferred_progress& d : s.deferred_init)
        k.deferred_init_ns = std::max(k.deferred_init_ns, d.modelled_ms * 1e6);
    if (k.score > 0) {
        k.sys_ns_per_work = k.sys_ns / k.score;
        k.zone_allocs_per_work = k.zone_allocs / k.score;
    }
    return k;
}

std::optional<double> change_pct(double a, double b)
{
    if (a == 0) return std::nullopt;
    return (b - a) / a * 100.0;
}

namespace
{
// Which way is better, where it is defined.
enum class better { neither, lower, higher };
enum class format { count, ns, percent };
// When a figure has a value: always, once the workload did some work (per unit of work), or where the machine
// has the thing at all (deferred init).
enum class known { always, after_work, if_nonzero };
// Whether presenter mode shows it: never, always, or where A and B differ (deferred init: every story
// machine but 004's boots both sides alike, and "+0.0 %" would crowd the strip).
enum class headline { no, yes, where_ab_differ };

struct figure_def {
    const char* label;
    const char* tip;
    double key_figures::*field;
    better way;
    format fmt;
    known when;
    headline shown;
};
const figure_def k_figures[] = {
    {QT_TRANSLATE_NOOP("key_figures", "virtual time"),
        QT_TRANSLATE_NOOP("key_figures", "Virtual time each machine has reached (equal in lockstep)"),
        &key_figures::sim_time_ns, better::neither, format::ns, known::always, headline::no},
    {QT_TRANSLATE_NOOP("key_figures", "contention %"),
        QT_TRANSLATE_NOOP("key_figures", "Largest share of the run during which some CPU waited for a zone->lock"),
        &key_figures::contention_pct, better::lower, format::percent, known::always, headline::yes},
    {QT_TRANSLATE_NOOP("key_figures", "sys time / work"),
        QT_TRANSLATE_NOOP(
            "key_figures", "Allocator time of all CPUs, spinning included, per unit of the workload's work"),
        &key_figures::sys_ns_per_work, better::lower, format::ns, known::after_work, headline::yes},
    {QT_TRANSLATE_NOOP("key_figures", "user time"),
        QT_TRANSLATE_NOOP("key_figures",
            "Workload compute of all CPUs: it grows with the work done, so neither more nor less is better"),
        &key_figures::user_ns, better::neither, format::ns, known::always, headline::no},
    {QT_TRANSLATE_NOOP("key_figures", "zone allocs / work"),
        QT_TRANSLATE_NOOP(
            "key_figures", "Pages taken from the buddy allocator (refills and direct) per unit of the workload's work"),
        &key_figures::zone_allocs_per_work, better::lower, format::count, known::after_work, headline::no},
    {QT_TRANSLATE_NOOP("key_figures", "longest hold"),
        QT_TRANSLATE_NOOP("key_figures",
            "Longest single zone->lock hold so far: shorter holds can come with many more of them, so neither is "
            "better by itself (see contention and sys time)"),
        &key_figures::max_hold_ns, better::neither, format::ns, known::always, headline::yes},
    {QT_TRANSLATE_NOOP("key_figures", "work done"),
        QT_TRANSLATE_NOOP("key_figures", "The workload's work units so far (the same virtual time: more is faster)"),
        &key_figures::score, better::higher, format::count, known::always, headline::yes},
    {QT_TRANSLATE_NOOP("key_figures", "deferred init"),
        QT_TRANSLATE_NOOP("key_figures",
            "Modelled time of the slowest node's deferred struct-page init, the last part of the boot (cost model; "
            "\"-\" where every struct page is initialised early)"),
        &key_figures::deferred_init_ns, better::lower, format::ns, known::if_nonzero, headline::where_ab_differ},
};

QString format_value(double v, format f)
{
    switch (f) {
    case format::ns:
        return format_ns(v);
    case format::percent:
        return QString::number(v, 'f', 2) + QStringLiteral(" %");
    case format::count:
        break;
    }
    return compact(v);
}

QString tr(const char* s)
{
    return QCoreApplication::translate("key_figures", s);
}
} // namespace

std::vector<figure_change> compare_figures(const sim::snapshot& a, const sim::snapshot* b)
{
    const key_figures ka = key_figures_of(a);
    const key_figures kb = b ? key_figures_of(*b) : key_figures{};
    std::vector<figure_change> out;
    for (const figure_def& f : k_figures) {
        figure_change c;
        c.label = tr(f.label);
        c.tip = tr(f.tip);
        const auto is_known = [&f](const key_figures& k) {
            return f.when == known::always || (f.when == known::after_work ? k.score > 0 : k.*f.field != 0);
        };
        const bool a_known = is_known(ka);
        const double va = ka.*f.field;
        c.a = a_known ? format_value(va, f.fmt) : QStringLiteral("-");
        c.b = c.change = QStringLiteral("-");
        c.telling = !b && a_known;
        c.headline = f.shown == headline::yes || (f.shown == headline::where_ab_differ && b && va != kb.*f.field);
        if (b) {
            const bool b_known = is_known(kb);
            const double vb = kb.*f.field;
            c.b = b_known ? format_value(vb, f.fmt) : QStringLiteral("-");
            if (a_known && b_known) {
                // A percentage changes by percentage points (a relative change of 0.01 % is noise, not news).
                const bool pp = f.fmt == format::percent;
                const auto d = pp ? std::optional<double>(vb - va) : change_pct(va, vb);
                c.change = d ? QStringLiteral("%1%2%3")
                                   .arg(*d >= 0 ? "+" : "")
                                   .arg(*d, 0, 'f', pp ? 2 : 1)
                                   .arg(pp ? QStringLiteral(" pp") : QStringLiteral(" %"))
                             : (vb == 0 ? QStringLiteral("=") : QStringLiteral("new"));
                c.telling = d || vb != 0;
                const double noise = pp ? 0.5 : 1.0; // pp, or percent
                if (d && std::abs(*d) >= noise && f.way != better::neither)
                    c.verdict = (f.way == better::lower ? *d < 0 : *d > 0) ? 1 : -1;
            }
        }
        out.push_back(std::move(c));
    }
    return out;
}

} // namespace pcplab::ui
