#include "ui/session/replay_source.hpp"

#include "session/export.hpp"

#include <algorithm>

namespace pcplab::ui
{

replay_source::replay_source(const std::string& path, std::int64_t run, int tick_ms, QObject* parent)
    : frame_source(parent)
    , m_rec(std::make_unique<session::recording>(path))
{
    m_run = session::pick_run(*m_rec, run);
    m_index = m_rec->index(m_run);
    // An A/B pair: the B run recorded alongside (side 1, started next to A's run).
    const auto& ra = m_rec->run(m_run);
    if (ra.side == 0)
        for (const auto& r : m_rec->runs())
            if (r.side == 1 && r.run > m_run && !m_rec->index(r.run).empty()) {
                m_run_b = r.run;
                break;
            }
    go_to(0);
    // The pace of a live recording: the median of what its snapshots say they achieved.
    std::vector<double> paces;
    for (std::size_t i = 0; i < m_index.size(); i += std::max<std::size_t>(1, m_index.size() / 16))
        if (auto s = m_rec->load(m_run, m_index[i].seq); s && s->run.vns_per_s > 0) paces.push_back(s->run.vns_per_s);
    if (!paces.empty()) {
        std::nth_element(paces.begin(), paces.begin() + static_cast<std::ptrdiff_t>(paces.size() / 2), paces.end());
        m_recorded_speed = paces[paces.size() / 2];
    }
    m_speed = m_recorded_speed;
    if (tick_ms > 0) {
        m_timer.setInterval(tick_ms);
        connect(&m_timer, &QTimer::timeout, this, [this] {
            const double ms = m_wall.isValid() ? static_cast<double>(m_wall.restart()) : 0.0;
            tick(ms);
        });
    }
}

replay_source::~replay_source() = default;

void replay_source::go_to(std::size_t i)
{
    if (m_index.empty()) return;
    i = std::min(i, m_index.size() - 1);
    const bool back = m_current && i < m_pos;
    if (back) m_jumped = true;
    m_pos = i;
    m_current = m_rec->load(m_run, m_index[i].seq);
    if (m_run_b) m_current_b = b_at(m_index[i].t_ns);
    m_virtual_pos = static_cast<double>(m_index[i].t_ns);
    if (back) emit rewound();
    emit position_changed(position_ns());
}

qint64 replay_source::position_ns() const
{
    return m_index.empty() ? 0 : static_cast<qint64>(m_index[m_pos].t_ns);
}

qint64 replay_source::start_ns() const
{
    return m_index.empty() ? 0 : static_cast<qint64>(m_index.front().t_ns);
}

qint64 replay_source::duration_ns() const
{
    return m_index.empty() ? 0 : static_cast<qint64>(m_index.back().t_ns);
}

void replay_source::pause()
{
    if (!m_playing) return;
    m_playing = false;
    m_timer.stop();
    emit playing_changed(false);
}

void replay_source::resume()
{
    if (m_playing || m_index.empty()) return;
    if (m_pos + 1 >= m_index.size()) go_to(0); // play again from the start
    m_playing = true;
    m_wall.restart();
    if (m_timer.interval() > 0) m_timer.start();
    emit playing_changed(true);
}

void replay_source::step()
{
    pause();
    if (m_pos + 1 < m_index.size()) go_to(m_pos + 1);
}

void replay_source::set_speed(double vns_per_wall_s)
{
    m_speed = std::max(0.0, vns_per_wall_s);
    m_virtual_pos = static_cast<double>(position_ns());
}

bool replay_source::seek(qint64 t_ns)
{
    if (m_index.empty()) return false;
    // The last snapshot at or before t_ns (the first one for an earlier time).
    auto it = std::upper_bound(m_index.begin(), m_index.end(), t_ns,
        [](qint64 t, const session::snapshot_ref& r) { return t < static_cast<qint64>(r.t_ns); });
    const std::size_t i = it == m_index.begin() ? 0 : static_cast<std::size_t>(it - m_index.begin()) - 1;
    if (i != m_pos) {
        m_jumped = true; // what lies between is not "published": the window sees where the seek landed
        go_to(i);
    }
    return true;
}

void replay_source::stop()
{
    pause();
}

void replay_source::tick(double wall_ms)
{
    if (!m_playing || m_index.empty()) return;
    std::size_t next = m_pos;
    if (m_speed <= 0) {
        next = m_pos + 1;
    } else {
        m_virtual_pos += m_speed * wall_ms / 1000.0;
        while (next + 1 < m_index.size() && static_cast<double>(m_index[next + 1].t_ns) <= m_virtual_pos) ++next;
    }
    if (next >= m_index.size()) next = m_index.size() - 1;
    if (next != m_pos) {
        const double keep = m_virtual_pos;
        go_to(next);
        if (m_speed > 0) m_virtual_pos = keep; // between snapshots the clock keeps its fraction
    }
    if (m_pos + 1 >= m_index.size()) {
        pause();
        emit reached_end();
    }
}

std::shared_ptr<const sim::snapshot> replay_source::b_at(sim::vtime_ns t) const
{
    auto ref = m_rec->at_time(m_run_b, t);
    if (!ref) return nullptr;
    if (m_current_b && m_current_b->seq == ref->seq) return m_current_b;
    return m_rec->load(m_run_b, ref->seq);
}

std::vector<published_pair> replay_source::take_published()
{
    std::vector<published_pair> out;
    if (m_index.empty()) return out;
    if (!m_jumped && m_pos > m_delivered) {
        const std::size_t lo = m_pos + 1 > MAX_TAKEN ? m_pos + 1 - MAX_TAKEN : 0;
        for (std::size_t i = std::max(m_delivered + 1, lo); i < m_pos; ++i)
            out.push_back({m_rec->load(m_run, m_index[i].seq), m_run_b ? b_at(m_index[i].t_ns) : nullptr});
    }
    out.push_back({m_current, m_current_b}); // the caller drops it by seq when it has seen it
    m_delivered = m_pos;
    m_jumped = false;
    return out;
}

std::size_t replay_source::refill_history(history& h) const
{
    h.clear();
    if (m_index.empty()) return 0;
    const auto all = m_rec->load_all(m_run);
    std::size_t fed = 0;
    for (const auto& s : all) {
        if (s->seq > m_index[m_pos].seq) break;
        h.append(*s);
        ++fed;
    }
    return fed;
}

} // namespace pcplab::ui
