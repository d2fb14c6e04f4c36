#include "sim/engine_thread.hpp"

namespace pcplab::sim
{

engine_thread::engine_thread(engine_config cfg, engine_thread_options opt)
    : m_on_publish(std::move(opt.on_publish))
{
    std::vector<engine_config> cfgs;
    cfgs.push_back(std::move(cfg));
    m_loop = std::make_unique<lockstep_loop>(
        std::move(cfgs), static_cast<loop_options>(opt), [this](const std::vector<std::shared_ptr<const snapshot>>& v) {
            if (!v[0]) return;
            if (m_on_publish) m_on_publish(v[0]);
            m_latest.store(v[0]);
        });
}

engine_thread::~engine_thread()
{
    stop();
}

void engine_thread::stop()
{
    m_loop->stop();
}

std::shared_ptr<const snapshot> engine_thread::wait_for(
    const std::function<bool(const snapshot&)>& pred, std::chrono::milliseconds timeout) const
{
    return poll_snapshot([this] { return latest(); }, pred, timeout);
}

std::shared_ptr<const snapshot> engine_thread::wait_for_command(
    std::uint64_t id, std::chrono::milliseconds timeout) const
{
    return wait_for([id](const snapshot& s) { return s.run.commands_done_through >= id; }, timeout);
}

} // namespace pcplab::sim
