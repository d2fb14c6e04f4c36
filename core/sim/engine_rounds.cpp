// Rounds of a finite workload (kernbench, boot, ...): when every CPU of a round is done, the next round is a
// fresh instance of the same workload on the same machine, starting at the instant the last CPU finished
// (engine::start_round; by itself in continuous mode). Virtual time goes on; the workload sees time from its
// round's start; the score adds up the rounds.
#include "engine_impl.hpp"

#include "mm/page_alloc.hpp"

#include <algorithm>
#include <stdexcept>

namespace pcplab::sim
{

namespace
{
bool round_over(bool workload_finished, int nr_workload_cpus, int done_cpus)
{
    return workload_finished || (nr_workload_cpus > 0 && done_cpus >= nr_workload_cpus);
}
} // namespace

// `cpu` has nothing more to do in this round (its workload said done).
void engine::impl::finish_round(int cpu)
{
    cpu_state& s = st[static_cast<std::size_t>(cpu)];
    if (!s.done) {
        s.done = true;
        ++done_cpus;
    }
    finish_time = std::max(finish_time, clock[static_cast<std::size_t>(cpu)]);
    workload_finished = load->finished();
    if (cfg.continuous && round_over(workload_finished, nr_workload_cpus, done_cpus)) start_round();
}

bool engine::impl::start_round()
{
    if (!booted || !round_over(workload_finished, nr_workload_cpus, done_cpus)) return false;
    const vtime_ns at = std::max(finish_time, round_origin);
    // The CPU that finished the round last: the acting one in continuous mode, else the one at finish_time.
    int cpu = acting;
    const bool outside_step = !in_step;
    if (outside_step) {
        const auto last = std::find(clock.begin(), clock.end(), finish_time);
        if (last != clock.end()) cpu = static_cast<int>(last - clock.begin());
    }
    // What the finished round still holds is freed by its last CPU, as its tasks' exit would (the shipped
    // workloads hold nothing once they are done).
    if (outside_step) {
        acting = cpu;
        in_step = true;
    }
    const auto left = load->release_all();
    if (!left.empty()) {
        begin_action(cpu);
        for (const auto& [pfn, order] : left) mm::free_pages(ctxs[static_cast<std::size_t>(cpu)], pfn, order);
        end_action(cpu, prices.call_ns * left.size());
    }
    const workload_score finished_round = load->score(at - round_origin);
    rounds_work += finished_round.work_units;
    last_round_score = finished_round;
    ++rounds;

    load = make_load();
    if (!load) throw std::invalid_argument("unknown workload '" + cfg.workload + "'");
    env = make_env();
    load->attach(env);
    round_origin = at;
    done_cpus = 0;
    workload_finished = false;
    // Every CPU of the workload takes part from `at`: one idling past it (it had nothing left to do) is
    // taken back to the instant its idle period was cut.
    for (int c = 0; c < static_cast<int>(st.size()); ++c) {
        cpu_state& s = st[static_cast<std::size_t>(c)];
        s.done = false;
        if (!s.runs_workload || c == cpu || s.chunk_kind != cpu_activity::idle) continue;
        const vtime_ns back_to = std::max(at, s.chunk_start);
        vtime_ns& clk = clock[static_cast<std::size_t>(c)];
        if (clk <= back_to) continue;
        cpu_m[static_cast<std::size_t>(c)].idle_ns -= clk - back_to;
        clk = back_to;
        s.activity = cpu_activity::ready;
        s.cont_left = 0;
        requeue(c);
    }
    if (outside_step) {
        in_step = false;
        requeue(cpu);
    }
    sim_event e;
    e.t = at;
    e.kind = event_kind::workload_round;
    e.new_value = static_cast<long>(rounds + 1);
    e.text = cfg.workload + " round " + std::to_string(rounds + 1) + " starts";
    push_event(std::move(e));
    return true;
}

// The current round's score plus the finished rounds' work; while a newer round runs, the seed measure is the
// last finished round's (a build's elapsed time is only known once it is over).
workload_score engine::impl::score() const
{
    const vtime_ns end = finished() ? finish_time : now();
    workload_score s = load->score(end > round_origin ? end - round_origin : 0);
    if (rounds == 0) return s;
    s.work_units += rounds_work;
    if (!round_over(workload_finished, nr_workload_cpus, done_cpus)) {
        s.seed_measure = last_round_score.seed_measure;
        s.seed_measure_value = last_round_score.seed_measure_value;
    }
    return s;
}

} // namespace pcplab::sim
