#include "support/ab_runner.hpp"

#include "support/engine_thread.hpp"

namespace pcplab::test
{

ab_runner::ab_runner(sim::engine_config a, sim::engine_config b, sim::loop_options opt)
{
    std::vector<sim::engine_config> cfgs;
    cfgs.push_back(std::move(a));
    cfgs.push_back(std::move(b));
    m_loop = std::make_unique<sim::lockstep_loop>(
        std::move(cfgs), std::move(opt), [this](const std::vector<std::shared_ptr<const sim::snapshot>>& v) {
            // A half left null keeps the previous one (one engine reporting boot progress).
            std::lock_guard lk(m_publish_mutex);
            auto prev = m_latest.load();
            auto next = std::make_shared<ab_snapshot>();
            next->a = v[0] ? v[0] : (prev ? prev->a : nullptr);
            next->b = v[1] ? v[1] : (prev ? prev->b : nullptr);
            m_latest.store(std::move(next));
        });
}

ab_runner::~ab_runner()
{
    stop();
}

void ab_runner::stop()
{
    m_loop->stop();
}

std::uint64_t ab_runner::set_patch(sim::command_target side, mm::patch p, bool on)
{
    return post(sim::make_set_patch(p, on, side));
}

std::uint64_t ab_runner::set_sysctl(sim::command_target side, mm::vm_sysctl which, long value)
{
    return post(sim::make_set_sysctl(which, value, side));
}

std::uint64_t ab_runner::set_intensity(sim::command_target side, double x)
{
    auto c = sim::make_set_intensity(x);
    c.target = side;
    return post(std::move(c));
}

std::uint64_t ab_runner::set_workload(sim::command_target side, std::string name)
{
    auto c = sim::make_set_workload(std::move(name));
    c.target = side;
    return post(std::move(c));
}

std::shared_ptr<const ab_snapshot> ab_runner::wait_for(
    const std::function<bool(const ab_snapshot&)>& pred, std::chrono::milliseconds timeout) const
{
    return poll_snapshot([this] { return latest(); }, pred, timeout);
}

} // namespace pcplab::test
