#include "support/engine_thread.hpp"

namespace pcplab::test
{

engine_thread::engine_thread(sim::engine_config cfg, engine_thread_options opt)
    : m_on_publish(std::move(opt.on_publish))
{
    std::vector<sim::engine_config> cfgs;
    cfgs.push_back(std::move(cfg));
    m_loop = std::make_unique<sim::lockstep_loop>(std::move(cfgs), static_cast<sim::loop_options>(opt),
        [this](const std::vector<std::shared_ptr<const sim::snapshot>>& v) {
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

std::shared_ptr<const sim::snapshot> engine_thread::wait_for(
    const std::function<bool(const sim::snapshot&)>& pred, std::chrono::milliseconds timeout) const
{
    return poll_snapshot([this] { return latest(); }, pred, timeout);
}

std::shared_ptr<const sim::snapshot> engine_thread::wait_for_command(
    std::uint64_t id, std::chrono::milliseconds timeout) const
{
    return wait_for([id](const sim::snapshot& s) { return s.run.commands_done_through >= id; }, timeout);
}

} // namespace pcplab::test
