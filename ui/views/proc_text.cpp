// /proc texts formatted from a snapshot the way mm/vmstat.c zoneinfo_show_print and frag_show_print print them.
#include "ui/views/proc_text.hpp"

#include "mm/mm_types.hpp"

#include <cstdarg>
#include <cstdio>

namespace pcplab::ui
{

namespace
{

void appendf(std::string& out, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
void appendf(std::string& out, const char* fmt, ...)
{
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    const int n = std::vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n > 0) out.append(buf, std::min(static_cast<std::size_t>(n), sizeof buf - 1));
}

} // namespace

std::string zoneinfo_from_snapshot(const sim::snapshot& s)
{
    std::string out;
    out.reserve(s.zones.size() * (400 + static_cast<std::size_t>(s.nr_cpus) * 90));
    const bool wide = s.era.at_least(6, 13); // high_min/high_max per pageset, wider labels (v6.13+)
    for (std::size_t zi = 0; zi < s.zones.size(); ++zi) {
        const sim::zone_snapshot& z = s.zones[zi];
        appendf(out, "Node %d, zone %8s", z.node, mm::zone_name(static_cast<unsigned>(z.zone)));
        appendf(out, "\n  pages free     %ld", z.free_pages);
        if (s.era.at_least(5, 17)) appendf(out, "\n        boost    %lu", z.watermark_boost);
        appendf(out, "\n        min      %lu", z.watermark[mm::WMARK_MIN]);
        appendf(out, "\n        low      %lu", z.watermark[mm::WMARK_LOW]);
        appendf(out, "\n        high     %lu", z.watermark[mm::WMARK_HIGH]);
        if (s.era.at_least(6, 12)) appendf(out, "\n        promo    %lu", z.watermark[mm::WMARK_PROMO]);
        appendf(out, "\n        spanned  %lu", z.spanned);
        appendf(out, "\n        present  %lu", z.present);
        appendf(out, "\n        managed  %lu", z.managed);
        appendf(out, "\n      nr_free_pages %ld", z.free_pages);
        out += "\n  pagesets";
        if (s.has_pagesets(static_cast<int>(zi)))
            for (int cpu = 0; cpu < s.nr_cpus; ++cpu) {
                const sim::pcp_sample& p = s.pageset(zi, cpu);
                appendf(out, "\n    cpu: %i", cpu);
                if (wide) {
                    appendf(out, "\n              count:    %i", p.count);
                    appendf(out, "\n              high:     %i", p.high);
                    appendf(out, "\n              batch:    %i", p.batch);
                    appendf(out, "\n              high_min: %i", z.high_min);
                    appendf(out, "\n              high_max: %i", z.high_max);
                } else {
                    appendf(out, "\n              count: %i", p.count);
                    appendf(out, "\n              high:  %i", p.high);
                    appendf(out, "\n              batch: %i", p.batch);
                }
            }
        out += '\n';
    }
    return out;
}

std::string buddyinfo_from_snapshot(const sim::snapshot& s)
{
    std::string out;
    for (const sim::zone_snapshot& z : s.zones) {
        // frag_show_print: "Node %d, zone %8s " then "%6lu " per order.
        appendf(out, "Node %d, zone %8s ", z.node, mm::zone_name(static_cast<unsigned>(z.zone)));
        for (unsigned o = 0; o < mm::NR_PAGE_ORDERS; ++o) appendf(out, "%6lu ", z.nr_free[o]);
        out += '\n';
    }
    return out;
}

} // namespace pcplab::ui
