// The window's recorder: a mutex-guarded session::recorder fed from the engine threads.
#include "ui/window/recording_tap.hpp"

#include "session/recording_schema.hpp"

#include <utility>

namespace pcplab::ui
{

recording_tap::~recording_tap()
{
    stop();
}

void recording_tap::publish(std::uint64_t source_id, const published_pair& p)
{
    std::lock_guard lk(m_mu);
    if (!m_rec) return;
    // A replaced source's last words (its final "stopped" snapshot, from the helper thread that stops it)
    // arrive after the new machine has started: they would split the new machine's runs.
    if (source_id < m_source) return;
    if (source_id != m_source) {
        if (m_any) m_rec->end_run("machine replaced");
        m_source = source_id;
        m_any = false;
        m_last_a.reset();
        m_last_b.reset();
    }
    // publish() only queues a pointer: cheap enough to do under the lock.
    if (p.a && p.a != m_last_a) {
        m_rec->publish(p.a);
        m_last_a = p.a;
        m_any = true;
    }
    if (p.b && p.b != m_last_b) {
        m_rec->publish(p.b);
        m_last_b = p.b;
        m_any = true;
    }
}

std::string recording_tap::start(
    const std::string& path, std::optional<session::run_header> base, std::string snapshot_rule)
{
    std::string err = stop();
    session::recorder_options ro;
    ro.source = "pcplab";
    ro.snapshot_rule = std::move(snapshot_rule);
    ro.holds = session::hold_rule::recording_default(); // what the window's engine keeps (resolve_setup)
    ro.base_header = std::move(base);
    try {
        auto rec = std::make_unique<session::recorder>(path, ro);
        std::lock_guard lk(m_mu);
        m_rec = std::move(rec);
        m_source = 0;
        m_any = false;
        m_last_a.reset();
        m_last_b.reset();
    } catch (const session::recording_error& e) {
        return e.what();
    } catch (const std::exception& e) {
        return path + ": " + e.what();
    }
    return err;
}

std::string recording_tap::stop()
{
    std::unique_ptr<session::recorder> rec;
    {
        std::lock_guard lk(m_mu);
        rec = std::move(m_rec);
        m_last_a.reset();
        m_last_b.reset();
    }
    if (!rec) return {};
    try {
        rec->close(); // outside the lock: the engines keep publishing (into nothing) while the writer drains
        m_last_written = rec->written();
    } catch (const std::exception& e) {
        m_last_written = rec->written();
        return e.what();
    }
    return {};
}

bool recording_tap::active() const
{
    std::lock_guard lk(m_mu);
    return m_rec != nullptr;
}

std::string recording_tap::path() const
{
    std::lock_guard lk(m_mu);
    return m_rec ? m_rec->path() : std::string();
}

std::uint64_t recording_tap::written() const
{
    std::lock_guard lk(m_mu);
    return m_rec ? m_rec->written() : 0;
}

std::uint64_t recording_tap::dropped() const
{
    std::lock_guard lk(m_mu);
    return m_rec ? m_rec->dropped() : 0;
}

} // namespace pcplab::ui
