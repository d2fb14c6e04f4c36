#include "sim/engine_command.hpp"

#include <sstream>

namespace pcplab::sim
{

// The argument of each payload, as a log line shows it (after the kind's name).
namespace
{
struct argument_text {
    std::ostringstream& o;
    void operator()(const cmd::set_speed& c) const
    {
        if (c.vns_per_wall_s > 0)
            o << ' ' << c.vns_per_wall_s << " ns/s";
        else
            o << " max";
    }
    void operator()(const cmd::set_quantum& c) const { o << ' ' << c.quantum << " ns"; }
    void operator()(const cmd::reboot& c) const
    {
        if (c.config) o << " (new configuration)";
    }
    void operator()(const cmd::set_patch& c) const
    {
        o << ' ' << mm::patch_name(c.patch) << '=' << (c.on ? "on" : "off");
    }
    void operator()(const cmd::set_sysctl& c) const { o << ' ' << mm::vm_sysctl_name(c.sysctl) << '=' << c.value; }
    void operator()(const cmd::set_workload& c) const { o << ' ' << c.name; }
    void operator()(const cmd::set_intensity& c) const { o << ' ' << c.intensity; }
    void operator()(const cmd::set_continuous& c) const { o << (c.on ? " on" : " off"); }
    template <typename Other> void operator()(const Other&) const { } // run control: no argument
};

engine_command of(command_payload p, command_target target = command_target::both)
{
    engine_command c;
    c.payload = std::move(p);
    c.target = target;
    return c;
}
} // namespace

std::string engine_command::describe() const
{
    std::ostringstream o;
    o << command_kind_name(kind());
    std::visit(argument_text{o}, payload);
    if (target == command_target::a) o << " [A]";
    if (target == command_target::b) o << " [B]";
    if (at) o << " at " << *at << " ns";
    return o.str();
}

engine_command make_pause()
{
    return of(cmd::pause{});
}
engine_command make_resume()
{
    return of(cmd::resume{});
}
engine_command make_step_action()
{
    return of(cmd::step_action{});
}
engine_command make_step_quantum()
{
    return of(cmd::step_quantum{});
}
engine_command make_set_speed(double vns_per_wall_s)
{
    return of(cmd::set_speed{vns_per_wall_s});
}
engine_command make_set_quantum(vtime_ns quantum)
{
    return of(cmd::set_quantum{quantum});
}
engine_command make_reboot(std::shared_ptr<const engine_config> cfg)
{
    return of(cmd::reboot{std::move(cfg)});
}
engine_command make_set_patch(mm::patch p, bool on, command_target target)
{
    return of(cmd::set_patch{p, on}, target);
}
engine_command make_set_sysctl(mm::vm_sysctl s, long value, command_target target)
{
    return of(cmd::set_sysctl{s, value}, target);
}
engine_command make_set_workload(std::string name)
{
    return of(cmd::set_workload{std::move(name)});
}
engine_command make_set_intensity(double x)
{
    return of(cmd::set_intensity{x});
}
engine_command make_set_continuous(bool on)
{
    return of(cmd::set_continuous{on});
}

std::uint64_t command_queue::push(engine_command c)
{
    std::uint64_t id;
    {
        std::lock_guard lk(m_mutex);
        id = m_next_id++;
        c.id = id;
        m_items.push_back(std::move(c));
    }
    m_cv.notify_one();
    return id;
}

std::vector<engine_command> command_queue::take_all()
{
    std::deque<engine_command> taken;
    {
        std::lock_guard lk(m_mutex);
        taken.swap(m_items);
    }
    return {std::make_move_iterator(taken.begin()), std::make_move_iterator(taken.end())};
}

void command_queue::wait()
{
    std::unique_lock lk(m_mutex);
    m_cv.wait(lk, [&] { return !m_items.empty() || m_stop.load(); });
}

void command_queue::request_stop()
{
    {
        std::lock_guard lk(m_mutex);
        m_stop.store(true);
    }
    m_cv.notify_all();
}

std::uint64_t command_queue::last_id() const
{
    std::lock_guard lk(m_mutex);
    return m_next_id - 1;
}

} // namespace pcplab::sim
