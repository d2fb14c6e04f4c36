#include "sim/engine_command.hpp"

#include <sstream>

namespace pcplab::sim
{

const char* command_kind_name(command_kind k)
{
    switch (k) {
    case command_kind::pause:
        return "pause";
    case command_kind::resume:
        return "resume";
    case command_kind::step_action:
        return "step";
    case command_kind::step_quantum:
        return "step_quantum";
    case command_kind::set_speed:
        return "speed";
    case command_kind::set_quantum:
        return "quantum";
    case command_kind::reboot:
        return "reboot";
    case command_kind::set_patch:
        return "set_patch";
    case command_kind::set_sysctl:
        return "set_sysctl";
    case command_kind::set_workload:
        return "set_workload";
    case command_kind::set_intensity:
        return "set_intensity";
    case command_kind::set_continuous:
        return "set_continuous";
    }
    return "?";
}

std::string engine_command::describe() const
{
    std::ostringstream o;
    o << command_kind_name(kind);
    switch (kind) {
    case command_kind::set_speed:
        if (number > 0)
            o << ' ' << number << " ns/s";
        else
            o << " max";
        break;
    case command_kind::set_quantum:
        o << ' ' << value << " ns";
        break;
    case command_kind::reboot:
        if (config) o << " (new configuration)";
        break;
    case command_kind::set_patch:
        o << ' ' << name << '=' << (on ? "on" : "off");
        break;
    case command_kind::set_sysctl:
        o << ' ' << name << '=' << value;
        break;
    case command_kind::set_workload:
        o << ' ' << name;
        break;
    case command_kind::set_intensity:
        o << ' ' << number;
        break;
    case command_kind::set_continuous:
        o << (on ? " on" : " off");
        break;
    default:
        break;
    }
    if (target == command_target::a) o << " [A]";
    if (target == command_target::b) o << " [B]";
    if (at) o << " at " << *at << " ns";
    return o.str();
}

namespace
{
engine_command of_kind(command_kind k)
{
    engine_command c;
    c.kind = k;
    return c;
}
} // namespace

engine_command make_pause()
{
    return of_kind(command_kind::pause);
}
engine_command make_resume()
{
    return of_kind(command_kind::resume);
}
engine_command make_step_action()
{
    return of_kind(command_kind::step_action);
}
engine_command make_step_quantum()
{
    return of_kind(command_kind::step_quantum);
}

engine_command make_set_speed(double vns_per_wall_s)
{
    auto c = of_kind(command_kind::set_speed);
    c.number = vns_per_wall_s;
    return c;
}

engine_command make_set_quantum(vtime_ns quantum)
{
    auto c = of_kind(command_kind::set_quantum);
    c.value = static_cast<long>(quantum);
    return c;
}

engine_command make_reboot(std::shared_ptr<const engine_config> cfg)
{
    auto c = of_kind(command_kind::reboot);
    c.config = std::move(cfg);
    return c;
}

engine_command make_set_patch(std::string name, bool on)
{
    auto c = of_kind(command_kind::set_patch);
    c.name = std::move(name);
    c.on = on;
    return c;
}

engine_command make_set_sysctl(std::string name, long value)
{
    auto c = of_kind(command_kind::set_sysctl);
    c.name = std::move(name);
    c.value = value;
    return c;
}

engine_command make_set_workload(std::string name)
{
    auto c = of_kind(command_kind::set_workload);
    c.name = std::move(name);
    return c;
}

engine_command make_set_intensity(double x)
{
    auto c = of_kind(command_kind::set_intensity);
    c.number = x;
    return c;
}

engine_command make_set_continuous(bool on)
{
    auto c = of_kind(command_kind::set_continuous);
    c.on = on;
    return c;
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
