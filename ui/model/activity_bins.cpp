// Per-CPU and per-lock activity in time bins (activity_bins.hpp).
#include "ui/model/activity_bins.hpp"

#include <algorithm>

namespace pcplab::ui
{

namespace
{

// count / high of one pageset: how full the list is against the limit that triggers a drain. A pageset without
// a high yet (0, before setup_per_cpu_pageset) is empty or, with pages on it, full.
float fill_of(const sim::pcp_sample& p)
{
    if (p.high > 0) return static_cast<float>(p.count) / static_cast<float>(p.high);
    return p.count > 0 ? 1.0f : 0.0f;
}

bool has_pagesets(const sim::snapshot& s)
{
    return !s.zones.empty() && s.has_pagesets(static_cast<int>(s.zones.size()) - 1);
}

} // namespace

activity_bins::activity_bins(std::size_t max_bins, std::int64_t first_width_ns)
    : m_max(std::max<std::size_t>(2, max_bins & ~std::size_t{1}))
    , m_first_width(std::max<std::int64_t>(1, first_width_ns))
    , m_width(m_first_width)
{
}

void activity_bins::clear()
{
    ++m_layout;
    m_width = m_first_width;
    m_cpus = 0;
    m_zones.clear();
    m_now = 0;
    m_have_prev = false;
    m_exact = true;
    for (auto* v : {&m_depth, &m_cover, &m_cpu_wait, &m_zone_union, &m_zone_sum, &m_prev_depth}) v->clear();
    m_prev_spin.clear();
    m_prev_waiting.clear();
    m_until.clear();
}

int activity_bins::zone_index(int node, int zone) const
{
    for (std::size_t i = 0; i < m_zones.size(); ++i)
        if (m_zones[i].node == node && m_zones[i].zone == zone) return static_cast<int>(i);
    return -1;
}

std::size_t activity_bins::bins() const
{
    return std::min(m_max, static_cast<std::size_t>((m_now + m_width - 1) / m_width));
}

std::size_t activity_bins::bytes() const
{
    std::size_t n = 0;
    for (const auto* v : {&m_depth, &m_cover, &m_cpu_wait, &m_zone_union, &m_zone_sum, &m_prev_depth})
        n += v->capacity() * sizeof(float);
    return n + (m_prev_spin.capacity() + m_prev_waiting.capacity() + m_until.capacity()) * 8;
}

std::int64_t activity_bins::elapsed_in(std::size_t b) const
{
    const std::int64_t start = static_cast<std::int64_t>(b) * m_width;
    return std::clamp<std::int64_t>(m_now - start, 0, m_width);
}

float activity_bins::depth(std::size_t zi, int cpu, std::size_t b) const
{
    if (zi >= m_zones.size() || cpu < 0 || cpu >= m_cpus || b >= m_max || m_cover[b] <= 0) return -1;
    const std::size_t row = zi * static_cast<std::size_t>(m_cpus) + static_cast<std::size_t>(cpu);
    return m_depth[row * m_max + b] / m_cover[b];
}

float activity_bins::cpu_wait_share(int cpu, std::size_t b) const
{
    const std::int64_t e = elapsed_in(b);
    if (cpu < 0 || cpu >= m_cpus || e <= 0) return 0;
    return std::min(1.0f, m_cpu_wait[static_cast<std::size_t>(cpu) * m_max + b] / static_cast<float>(e));
}

double activity_bins::zone_contention_share(std::size_t zi, std::size_t b) const
{
    const std::int64_t e = elapsed_in(b);
    if (zi >= m_zones.size() || e <= 0) return 0;
    return std::min(1.0, static_cast<double>(m_zone_union[zi * m_max + b]) / static_cast<double>(e));
}

double activity_bins::zone_cpus_waiting(std::size_t zi, std::size_t b) const
{
    const std::int64_t e = elapsed_in(b);
    if (zi >= m_zones.size() || e <= 0) return 0;
    return static_cast<double>(m_zone_sum[zi * m_max + b]) / static_cast<double>(e);
}

void activity_bins::shape(const sim::snapshot& s)
{
    bool same = s.nr_cpus == m_cpus && s.zones.size() == m_zones.size();
    for (std::size_t i = 0; same && i < s.zones.size(); ++i)
        same = s.zones[i].node == m_zones[i].node && s.zones[i].zone == m_zones[i].zone;
    if (same) return;
    // Another machine (or the zones appeared at the end of the boot): what was binned described other rows.
    const std::int64_t now = m_now;
    clear();
    m_now = now;
    m_cpus = std::max(0, s.nr_cpus);
    for (const auto& z : s.zones) m_zones.push_back({z.node, z.zone});
    const std::size_t cpus = static_cast<std::size_t>(m_cpus), zones = m_zones.size();
    m_depth.assign(zones * cpus * m_max, 0);
    m_cover.assign(m_max, 0);
    m_cpu_wait.assign(cpus * m_max, 0);
    m_zone_union.assign(zones * m_max, 0);
    m_zone_sum.assign(zones * m_max, 0);
    m_prev_depth.assign(zones * cpus, -1);
    m_until.assign(zones, 0);
}

void activity_bins::merge_pairs()
{
    for (auto* v : {&m_depth, &m_cover, &m_cpu_wait, &m_zone_union, &m_zone_sum}) {
        const std::size_t rows = v->size() / m_max;
        for (std::size_t r = 0; r < rows; ++r) {
            float* row = v->data() + r * m_max;
            for (std::size_t i = 0; i < m_max / 2; ++i) row[i] = row[2 * i] + row[2 * i + 1];
            std::fill(row + m_max / 2, row + m_max, 0.0f);
        }
    }
    m_width *= 2;
    ++m_layout;
}

void activity_bins::fit(std::int64_t t_end)
{
    while (t_end > 0 && static_cast<std::size_t>((t_end - 1) / m_width) >= m_max) merge_pairs();
}

void activity_bins::spread(float* row, std::int64_t t0, std::int64_t t1, double value_per_ns)
{
    if (t1 <= t0 || t0 < 0) return;
    touched(static_cast<std::size_t>(t0 / m_width));
    for (auto b = static_cast<std::size_t>(t0 / m_width); b < m_max; ++b) {
        const std::int64_t lo = static_cast<std::int64_t>(b) * m_width, hi = lo + m_width;
        if (lo >= t1) break;
        const std::int64_t part = std::min(t1, hi) - std::max(t0, lo);
        row[b] += static_cast<float>(value_per_ns * static_cast<double>(part));
    }
}

void activity_bins::add_waits(const sim::snapshot& s)
{
    for (const sim::lock_hold_record& h : s.holds) {
        if (h.kind != mm::lock_kind::zone_lock || h.wait_ns == 0) continue;
        const int zi = zone_index(h.node, h.zone);
        if (zi < 0 || h.cpu >= m_cpus) continue;
        const auto grant = static_cast<std::int64_t>(h.start);
        const std::int64_t request = grant - static_cast<std::int64_t>(h.wait_ns);
        fit(grant);
        spread(m_cpu_wait.data() + static_cast<std::size_t>(h.cpu) * m_max, request, grant, 1.0);
        spread(m_zone_sum.data() + static_cast<std::size_t>(zi) * m_max, request, grant, 1.0);
        // One lock's records come in grant order (it is held by one CPU at a time), so each wait either starts
        // after the merged interval so far or extends it to the right, as engine::impl::record_hold merges them.
        std::int64_t& until = m_until[static_cast<std::size_t>(zi)];
        const std::int64_t from = std::max(request, until);
        if (grant > from) spread(m_zone_union.data() + static_cast<std::size_t>(zi) * m_max, from, grant, 1.0);
        until = std::max(until, grant);
    }
}

void activity_bins::add_counter_waits(const sim::snapshot& s, std::int64_t t0, std::int64_t t1)
{
    const double span = static_cast<double>(t1 - t0);
    for (int cpu = 0; cpu < m_cpus && cpu < static_cast<int>(s.cpus.size()); ++cpu) {
        const std::uint64_t now = s.cpus[static_cast<std::size_t>(cpu)].spin_ns;
        const std::uint64_t was = m_prev_spin[static_cast<std::size_t>(cpu)];
        if (now > was)
            spread(m_cpu_wait.data() + static_cast<std::size_t>(cpu) * m_max, t0, t1,
                static_cast<double>(now - was) / span);
    }
    for (std::size_t zi = 0; zi < m_zones.size() && zi < s.zones.size(); ++zi) {
        const sim::lock_metrics& m = s.zones[zi].lock.m;
        const std::uint64_t waiting = m.waiting_ns, waits = m.wait_ns_total;
        if (waiting > m_prev_waiting[2 * zi])
            spread(
                m_zone_union.data() + zi * m_max, t0, t1, static_cast<double>(waiting - m_prev_waiting[2 * zi]) / span);
        if (waits > m_prev_waiting[2 * zi + 1])
            spread(
                m_zone_sum.data() + zi * m_max, t0, t1, static_cast<double>(waits - m_prev_waiting[2 * zi + 1]) / span);
    }
}

std::size_t activity_bins::first_changed_since(const mark& m) const
{
    if (m.layout != m_layout || m.adds > m_adds || m_adds - m.adds > k_touch_ring) return 0;
    std::size_t first = m_max;
    for (std::uint64_t n = m.adds; n < m_adds; ++n) first = std::min(first, m_touch_ring[n % k_touch_ring]);
    return first;
}

void activity_bins::add(const sim::snapshot& s)
{
    shape(s);
    m_touched = m_max;
    const auto t = static_cast<std::int64_t>(s.sim_time_ns);
    const std::size_t cpus = static_cast<std::size_t>(m_cpus), zones = m_zones.size();
    if (m_have_prev && t > m_now) {
        fit(t);
        // The previous snapshot's depths held from its time to this one's: a time-weighted mean per bin.
        if (!m_prev_depth.empty() && m_prev_depth.front() >= 0) {
            const std::size_t b0 = static_cast<std::size_t>(m_now / m_width);
            touched(b0);
            for (std::size_t b = b0; b < m_max; ++b) {
                const std::int64_t lo = static_cast<std::int64_t>(b) * m_width;
                if (lo >= t) break;
                const float part = static_cast<float>(std::min(t, lo + m_width) - std::max(m_now, lo));
                m_cover[b] += part;
                for (std::size_t r = 0; r < zones * cpus; ++r) m_depth[r * m_max + b] += m_prev_depth[r] * part;
            }
        }
        if (!s.holds_kept) add_counter_waits(s, m_now, t);
    }
    m_exact = s.holds_kept;
    if (s.holds_kept) add_waits(s);

    if (has_pagesets(s))
        for (std::size_t zi = 0; zi < zones; ++zi)
            for (int cpu = 0; cpu < m_cpus; ++cpu)
                m_prev_depth[zi * cpus + static_cast<std::size_t>(cpu)] = fill_of(s.pageset(zi, cpu));
    else
        std::fill(m_prev_depth.begin(), m_prev_depth.end(), -1.0f);
    m_prev_spin.resize(cpus);
    for (std::size_t cpu = 0; cpu < cpus && cpu < s.cpus.size(); ++cpu) m_prev_spin[cpu] = s.cpus[cpu].spin_ns;
    m_prev_waiting.resize(2 * zones);
    for (std::size_t zi = 0; zi < zones; ++zi) {
        m_prev_waiting[2 * zi] = s.zones[zi].lock.m.waiting_ns;
        m_prev_waiting[2 * zi + 1] = s.zones[zi].lock.m.wait_ns_total;
    }
    m_have_prev = true;
    m_now = std::max(m_now, t);
    m_touch_ring[m_adds % k_touch_ring] = m_touched;
    ++m_adds;
}

} // namespace pcplab::ui
