// The live source over sim::lockstep_loop: commands go in as engine_commands, every publication is queued.
#include "ui/live/live_source.hpp"

#include <utility>

namespace pcplab::ui
{

live_source::live_source(sim::engine_config a, std::optional<sim::engine_config> b, live_options opt, QObject* parent)
    : frame_source(parent)
    , m_ab(b.has_value())
    , m_opt(std::move(opt))
{
    std::vector<sim::engine_config> cfgs;
    cfgs.push_back(std::move(a));
    if (b) cfgs.push_back(std::move(*b));
    sim::loop_options lo;
    lo.publish_hz = m_opt.publish_hz;
    lo.speed = m_opt.speed;
    lo.start_paused = m_opt.start_paused;
    lo.boot_min_wall = m_opt.boot_min_wall;
    lo.boot_max_wall = m_opt.boot_max_wall;
    lo.make_load = m_opt.make_load;
    m_loop = std::make_unique<sim::lockstep_loop>(
        std::move(cfgs), lo, [this](const std::vector<std::shared_ptr<const sim::snapshot>>& v) { on_publish(v); });
    m_loop->set_sample_interval(m_opt.sample_every_ns);
}

void live_source::set_sample_interval(sim::vtime_ns every_ns)
{
    m_opt.sample_every_ns = every_ns;
    if (m_loop) m_loop->set_sample_interval(every_ns);
}

live_source::~live_source()
{
    stop();
}

// While the engines boot each reports alone; the other half keeps its previous snapshot.
void live_source::on_publish(const std::vector<std::shared_ptr<const sim::snapshot>>& v)
{
    published_pair p;
    {
        std::lock_guard lk(m_mutex);
        p.a = v[0] ? v[0] : m_latest.a;
        if (m_ab) p.b = v.size() > 1 && v[1] ? v[1] : m_latest.b;
        m_latest = p;
        m_pending.push_back(p);
        while (m_pending.size() > m_opt.max_pending) {
            m_pending.pop_front();
            ++m_dropped;
        }
    }
    if (m_opt.on_publish) m_opt.on_publish(p);
}

std::shared_ptr<const sim::snapshot> live_source::latest_a() const
{
    std::lock_guard lk(m_mutex);
    return m_latest.a;
}

std::shared_ptr<const sim::snapshot> live_source::latest_b() const
{
    std::lock_guard lk(m_mutex);
    return m_latest.b;
}

std::vector<published_pair> live_source::take_published()
{
    std::deque<published_pair> taken;
    {
        std::lock_guard lk(m_mutex);
        taken.swap(m_pending);
    }
    return {std::make_move_iterator(taken.begin()), std::make_move_iterator(taken.end())};
}

std::uint64_t live_source::publications_dropped() const
{
    std::lock_guard lk(m_mutex);
    return m_dropped;
}

std::uint64_t live_source::post(sim::engine_command c)
{
    m_last_command = m_loop->post(std::move(c));
    return m_last_command;
}

void live_source::pause()
{
    post(sim::make_pause());
}

void live_source::resume()
{
    post(sim::make_resume());
}

void live_source::step()
{
    post(sim::make_step_quantum());
}

std::uint64_t live_source::step_action()
{
    return post(sim::make_step_action());
}

std::uint64_t live_source::pause_at(sim::vtime_ns t_ns)
{
    sim::engine_command c = sim::make_pause();
    c.at = t_ns;
    return post(std::move(c));
}

void live_source::set_speed(double vns_per_wall_s)
{
    post(sim::make_set_speed(vns_per_wall_s));
}

bool live_source::send(sim::engine_command c)
{
    if (c.target == sim::command_target::b && !m_ab) return false;
    post(std::move(c));
    return true;
}

std::uint64_t live_source::set_continuous(bool on)
{
    return post(sim::make_set_continuous(on));
}

bool live_source::reboot()
{
    post(sim::make_reboot());
    return true;
}

bool live_source::reboot_with(const sim::engine_config& a, const sim::engine_config* b)
{
    if (m_ab || b) return false;
    post(sim::make_reboot(std::make_shared<const sim::engine_config>(a)));
    return true;
}

void live_source::stop()
{
    if (m_loop) m_loop->stop();
}

} // namespace pcplab::ui
