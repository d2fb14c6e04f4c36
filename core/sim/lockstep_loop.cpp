#include "sim/lockstep_loop.hpp"

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <limits>
#include <mutex>
#include <utility>

namespace pcplab::sim
{

// A thread that owns one engine of a lockstep group and runs the jobs handed to it, one at a time.
class lockstep_loop::worker
{
public:
    worker()
        : m_thread([this] { loop(); })
    {
    }
    ~worker()
    {
        {
            std::lock_guard lk(m_mutex);
            m_exit = true;
        }
        m_cv.notify_all();
        m_thread.join();
    }
    void post(std::function<void()> job)
    {
        {
            std::lock_guard lk(m_mutex);
            m_job = std::move(job);
            m_has_job = true;
            m_done = false;
        }
        m_cv.notify_all();
    }
    // Waits for the job; rethrows what it threw, on the waiting thread.
    void wait()
    {
        std::unique_lock lk(m_mutex);
        m_cv.wait(lk, [&] { return m_done; });
        if (auto e = std::exchange(m_error, nullptr)) std::rethrow_exception(e);
    }

private:
    void loop()
    {
        std::unique_lock lk(m_mutex);
        for (;;) {
            m_cv.wait(lk, [&] { return m_has_job || m_exit; });
            if (!m_has_job) return;
            auto job = std::move(m_job);
            m_has_job = false;
            lk.unlock();
            std::exception_ptr error;
            try {
                job();
            } catch (...) {
                error = std::current_exception();
            }
            lk.lock();
            m_error = error;
            m_done = true;
            m_cv.notify_all();
        }
    }
    std::mutex m_mutex;
    std::condition_variable m_cv;
    std::function<void()> m_job;
    bool m_has_job = false;
    bool m_done = true;
    bool m_exit = false;
    std::exception_ptr m_error;
    std::thread m_thread; // last: starts after the members above exist
};

struct lockstep_loop::state {
    explicit state(const loop_options& o)
        : pace(o.publish_hz)
        , run_speed(o.speed > 0 ? o.speed : 0)
        , quantum(o.quantum_ns ? o.quantum_ns : 100'000)
        , pause_at_boot_end(o.start_paused)
    {
        pace.set_speed(o.speed);
    }
    pacing pace;
    double run_speed; // the speed asked for; while a boot is played the pace runs at its boot speed
    vtime_ns quantum;
    bool paused = false;
    bool pause_at_boot_end; // start_paused: play the boot, then pause where the workloads start
    bool booting = false; // the group's boot is being played (some boundary before boot_end)
    vtime_ns boot_end = 0; // the group's last workload start
    std::vector<engine_command> pending; // timed commands, by (at, id)
    std::vector<std::vector<command_result>> results; // per engine, since its last snapshot
    std::uint64_t max_taken = 0;
    bool dirty = true;
    pacing::clock::time_point last_publish{};
    vtime_ns next_sample = 0; // the virtual time of the next snapshot set_sample_interval asks for

    std::uint64_t done_through() const
    {
        std::uint64_t first_pending = std::numeric_limits<std::uint64_t>::max();
        for (const auto& c : pending) first_pending = std::min(first_pending, c.id);
        return pending.empty() ? max_taken : first_pending - 1;
    }
};

lockstep_loop::lockstep_loop(std::vector<engine_config> cfgs, loop_options opt, publish_fn publish)
    : m_opt(std::move(opt))
    , m_publish(std::move(publish))
{
    for (std::size_t i = 0; i < cfgs.size(); ++i) {
        m_drivers.push_back(
            std::make_unique<engine_driver>(std::move(cfgs[i]), m_opt.make_load, static_cast<int>(i), m_opt.snapshots));
        if (i > 0) m_workers.push_back(std::make_unique<worker>());
    }
    m_thread = std::thread([this] { run(); });
}

lockstep_loop::~lockstep_loop()
{
    stop();
}

std::uint64_t lockstep_loop::post(engine_command c)
{
    return m_queue.push(std::move(c));
}

void lockstep_loop::stop()
{
    m_queue.request_stop();
    if (m_thread.joinable()) m_thread.join();
}

void lockstep_loop::for_each_driver(const std::function<void(std::size_t)>& f)
{
    for (std::size_t i = 1; i < m_drivers.size(); ++i) m_workers[i - 1]->post([&f, i] { f(i); });
    f(0);
    for (auto& w : m_workers) w->wait();
}

bool lockstep_loop::targets(const engine_command& c, std::size_t side) const
{
    switch (c.target) {
    case command_target::both:
        return true;
    case command_target::a:
        return side == 0;
    case command_target::b:
        return side == 1;
    }
    return false;
}

run_state lockstep_loop::state_of(const engine_driver& d, const state& st) const
{
    if (d.failed()) return run_state::failed;
    if (d.finished()) return run_state::finished;
    return st.paused ? run_state::paused : run_state::running;
}

// Every engine boots on its own thread (the real boot, shown as it goes); then the group continues in lockstep
// from the latest instant any of them showed, and the rest of the boot is played as virtual time at the boot
// speed until the last workload starts (boot_end).
void lockstep_loop::boot_all(state& st)
{
    run_info r;
    r.speed = st.run_speed;
    r.quantum_ns = st.quantum;
    const auto interval = std::chrono::duration_cast<std::chrono::milliseconds>(st.pace.interval());
    boot_pacing pacing;
    pacing.speed = st.run_speed;
    pacing.min_wall = m_opt.boot_min_wall;
    pacing.max_wall = m_opt.boot_max_wall;
    for_each_driver([&](std::size_t i) {
        m_drivers[i]->boot(
            [this, i](std::shared_ptr<const snapshot> s) {
                std::vector<std::shared_ptr<const snapshot>> v(m_drivers.size());
                v[i] = std::move(s);
                m_publish(v);
            },
            std::max(interval, std::chrono::milliseconds(1)), r, pacing);
    });
    vtime_ns b = 0, end = 0;
    for (const auto& d : m_drivers) {
        b = std::max(b, d->boundary());
        end = std::max(end, d->workload_start());
    }
    st.boot_end = std::max(b, end);
    for (auto& d : m_drivers) d->set_boundary(b, st.boot_end);
    st.booting = true;
    if (b >= st.boot_end)
        end_boot_if_over(st, b); // nothing left to play
    else
        set_pace(st, b);
    st.dirty = true;
}

// The pace of the group: the boot speed while a boot is played (the slowest engine's), else the run's speed.
void lockstep_loop::set_pace(state& st, vtime_ns boundary)
{
    double speed = st.run_speed;
    if (st.booting) {
        speed = 0;
        for (const auto& d : m_drivers) {
            const double s = d->boot_speed(st.run_speed);
            if (s > 0) speed = speed > 0 ? std::min(speed, s) : s;
        }
    }
    st.pace.set_speed(speed);
    st.pace.anchor(pacing::clock::now(), boundary);
}

void lockstep_loop::publish_round(state& st, bool stopping)
{
    run_info r;
    r.speed = st.run_speed;
    r.boot_speed = st.booting ? st.pace.speed() : 0;
    r.quantum_ns = st.quantum;
    r.behind = st.pace.behind();
    r.commands_done_through = st.done_through();
    std::vector<std::shared_ptr<const snapshot>> snaps(m_drivers.size());
    st.results.resize(m_drivers.size());
    for_each_driver([&](std::size_t i) {
        engine_driver& d = *m_drivers[i];
        snaps[i] = d.make_snapshot(stopping ? run_state::stopped : state_of(d, st), r, std::move(st.results[i]));
        st.results[i].clear();
    });
    m_publish(snaps);
    st.last_publish = pacing::clock::now();
    st.dirty = false;
}

void lockstep_loop::apply(engine_command& c, state& st)
{
    const std::size_t n = m_drivers.size();
    st.results.resize(n);
    st.dirty = true;
    auto all_results = [&](bool ok, const std::string& msg) {
        for (std::size_t i = 0; i < n; ++i) st.results[i].push_back(m_drivers[i]->result_of(c, ok, msg));
    };
    if (c.target == command_target::b && n < 2) {
        all_results(false, "there is no B engine");
        return;
    }
    const auto stop = [this] { return m_queue.stop_requested(); };
    const vtime_ns q = st.quantum;
    switch (c.kind()) {
    case command_kind::pause:
        all_results(true, {});
        st.paused = true;
        st.pause_at_boot_end = false;
        return;
    case command_kind::resume: {
        // Play after a finished finite workload: a new round of it on the same machine.
        bool rounds = false;
        for (auto& d : m_drivers) rounds = d->start_round() || rounds;
        all_results(true, rounds ? "a new round of the workload starts" : "");
        st.paused = false;
        st.pause_at_boot_end = false;
        st.pace.anchor(pacing::clock::now(), m_drivers[0]->boundary());
        return;
    }
    case command_kind::step_action:
        all_results(true, {});
        st.paused = true;
        for_each_driver([&](std::size_t i) {
            if (targets(c, i)) m_drivers[i]->step_action();
        });
        end_boot_if_over(st, m_drivers[0]->boundary());
        return;
    case command_kind::step_quantum:
        all_results(true, {});
        st.paused = true;
        for_each_driver([&](std::size_t i) { m_drivers[i]->advance(1, q, stop); });
        end_boot_if_over(st, m_drivers[0]->boundary());
        return;
    case command_kind::set_speed:
        all_results(true, {});
        st.run_speed = std::max(0.0, std::get<cmd::set_speed>(c.payload).vns_per_wall_s);
        set_pace(st, m_drivers[0]->boundary());
        return;
    case command_kind::set_quantum: {
        const vtime_ns quantum = std::get<cmd::set_quantum>(c.payload).quantum;
        if (quantum == 0) {
            all_results(false, "the quantum must be > 0 ns");
            return;
        }
        all_results(true, {});
        st.quantum = quantum;
        return;
    }
    default:
        break;
    }
    // Engine commands, on each targeted engine's own thread.
    for_each_driver([&](std::size_t i) {
        if (targets(c, i)) st.results[i].push_back(m_drivers[i]->apply(c));
    });
    bool reboot = false;
    for (const auto& d : m_drivers) reboot = reboot || d->reboot_requested();
    // A lockstep group reboots together, so the engines stay at the same virtual time. A paused group plays
    // the new boot and pauses again where the workloads start.
    if (reboot) {
        if (st.paused) {
            st.paused = false;
            st.pause_at_boot_end = true;
        }
        boot_all(st);
    }
}

// The group has reached the last workload start: the run's own speed from here (and a start_paused group
// pauses exactly there).
bool lockstep_loop::end_boot_if_over(state& st, vtime_ns boundary)
{
    if (!st.booting || boundary < st.boot_end) return false;
    st.booting = false;
    if (st.pause_at_boot_end) {
        st.paused = true;
        st.pause_at_boot_end = false;
    }
    set_pace(st, boundary);
    return true;
}

void lockstep_loop::note(state& st, std::uint64_t id, const std::string& text)
{
    for (auto& side : st.results)
        for (auto& r : side)
            if (r.id == id) r.message = r.message.empty() ? text : r.message + "; " + text;
}

void lockstep_loop::run_loop(state& st)
{
    auto boundary = [&] {
        for (const auto& d : m_drivers)
            if (!d->finished()) return d->boundary();
        vtime_ns b = 0;
        for (const auto& d : m_drivers) b = std::max(b, d->boundary());
        return b;
    };
    auto any_active
        = [&] { return std::any_of(m_drivers.begin(), m_drivers.end(), [](const auto& d) { return !d->finished(); }); };
    const auto stop = [this] { return m_queue.stop_requested(); };

    boot_all(st);
    publish_round(st, false);
    while (!m_queue.stop_requested()) {
        // Commands: untimed ones now, timed ones once their boundary is reached; both in queue order.
        std::vector<engine_command> due;
        for (auto& c : m_queue.take_all()) {
            st.max_taken = std::max(st.max_taken, c.id);
            (c.at && *c.at > boundary() ? st.pending : due).push_back(std::move(c));
        }
        std::stable_sort(st.pending.begin(), st.pending.end(),
            [](const auto& x, const auto& y) { return *x.at < *y.at || (*x.at == *y.at && x.id < y.id); });
        // Once every engine is done, the boundary no longer moves: waiting commands apply now.
        while (!st.pending.empty() && (*st.pending.front().at <= boundary() || !any_active())) {
            due.push_back(std::move(st.pending.front()));
            st.pending.erase(st.pending.begin());
        }
        std::sort(due.begin(), due.end(), [](const auto& x, const auto& y) { return x.id < y.id; });
        for (auto& c : due) {
            const bool late = c.at && *c.at < boundary();
            apply(c, st);
            if (late) note(st, c.id, "late: its time had passed when it arrived");
        }
        if (m_queue.stop_requested()) break;

        // Whole quanta, as many as pacing allows, never past the next timed command's boundary (nor, with
        // start_paused, past the workloads' start).
        const bool active = !st.paused && any_active();
        std::uint64_t ran = 0;
        if (active) {
            const vtime_ns b = boundary();
            std::uint64_t k = st.pace.quanta_due(pacing::clock::now(), b, st.quantum);
            const boundary_grid grid{st.quantum, st.boot_end};
            if (!st.pending.empty()) k = std::min(k, grid.quanta_until(b, *st.pending.front().at));
            // A boot being played stops at the workloads' start, which is published as it is (the limits
            // zone_pcp_update set at init's end are drawn from that instant, not from the next snapshot's).
            if (st.booting) k = std::min(k, grid.quanta_until(b, st.boot_end));
            // A snapshot every `every` of virtual time (set_sample_interval), at the first boundary past it.
            if (const vtime_ns every = m_sample_ns.load(); every > 0 && k > 0) {
                if (st.next_sample <= b || st.next_sample > b + every) st.next_sample = (b / every + 1) * every;
                k = std::min<std::uint64_t>(k, std::max<std::uint64_t>(1, grid.quanta_until(b, st.next_sample)));
            }
            if (k > 0) {
                const auto t0 = pacing::clock::now();
                for_each_driver([&](std::size_t i) { m_drivers[i]->advance(k, st.quantum, stop); });
                st.pace.record(k, pacing::clock::now() - t0);
                st.dirty = true;
                ran = k;
            }
            if (end_boot_if_over(st, boundary())) publish_round(st, false);
        }
        const auto now = pacing::clock::now();
        const vtime_ns every = m_sample_ns.load();
        const bool sample_due = every > 0 && ran > 0 && boundary() >= st.next_sample;
        if (st.dirty && (sample_due || now - st.last_publish >= st.pace.interval())) {
            publish_round(st, false);
            if (sample_due) st.next_sample = (boundary() / every + 1) * every;
        }
        if (m_queue.stop_requested()) break;

        // Nothing to run now: sleep until a command comes, a snapshot is due or a paced quantum is.
        if (!active || ran == 0) {
            auto deadline = pacing::clock::time_point::max();
            if (st.dirty) deadline = st.last_publish + st.pace.interval();
            if (active && st.pace.paced()) deadline = std::min(deadline, st.pace.next_due(boundary(), st.quantum));
            if (deadline == pacing::clock::time_point::max())
                m_queue.wait();
            else
                m_queue.wait_until(deadline);
        }
    }
}

void lockstep_loop::run()
{
    state st(m_opt);
    st.results.resize(m_drivers.size());
    try {
        run_loop(st);
    } catch (const std::exception& e) {
        // The drivers catch what the engines throw; anything else ends the loop, visibly.
        for (auto& d : m_drivers) d->fail(std::string("engine thread: ") + e.what());
    }
    try {
        publish_round(st, true);
    } catch (const std::exception&) {
        // Nothing more can be shown; the threads are still joined.
    }
    // Each engine is freed on its own thread (a large memmap takes a while to unmap).
    try {
        for_each_driver([&](std::size_t i) { m_drivers[i]->release(); });
    } catch (const std::exception&) {
        for (auto& d : m_drivers) d->release();
    }
}

} // namespace pcplab::sim
