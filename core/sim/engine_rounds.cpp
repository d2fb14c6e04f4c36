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

// `cpu` has nothing more to do in this round (its workload said done).
void engine::impl::finish_round(int cpu)
{
    cpu_state& s = st[cpu];
    if (!s.done) {
        s.done = true;
        ++round.done_cpus;
    }
    round.finish_time = std::max(round.finish_time, clock[cpu]);
    round.workload_finished = load->finished();
    if (cfg.continuous && round.over()) start_round();
}

bool engine::impl::start_round()
{
    if (!boot_st.done || !round.over()) return false;
    const vtime_ns at = std::max(round.finish_time, round.origin);
    // The CPU that finished the round last: the acting one in continuous mode, else the one at finish_time.
    int cpu = acting;
    const bool outside_step = !in_step;
    if (outside_step) {
        const auto last = std::find(clock.begin(), clock.end(), round.finish_time);
        if (last != clock.end()) cpu = clock.cpu_of(*last);
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
        for (const auto& [pfn, order] : left) mm::free_pages(ctxs[cpu], pfn, order);
        end_action(cpu, prices.call_ns * left.size());
    }
    const workload_score finished_round = load->score(at - round.origin);
    round.finished_work += finished_round.work_units;
    round.last_score = finished_round;
    ++round.finished_rounds;

    load = make_load();
    if (!load) throw std::invalid_argument("unknown workload '" + cfg.workload + "'");
    env = make_env();
    load->attach(env);
    round.origin = at;
    round.done_cpus = 0;
    round.workload_finished = false;
    // Every CPU of the workload takes part from `at`: one idling past it (it had nothing left to do) is
    // taken back to the instant its idle period was cut.
    for (int c = 0; c < st.nr_cpus(); ++c) {
        cpu_state& s = st[c];
        s.done = false;
        if (!s.runs_workload || c == cpu || s.chunk_kind != cpu_activity::idle) continue;
        const vtime_ns back_to = std::max(at, s.chunk_start);
        vtime_ns& clk = clock[c];
        if (clk <= back_to) continue;
        cpu_m[c].idle_ns -= clk - back_to;
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
    e.new_value = static_cast<long>(round.finished_rounds + 1);
    e.text = cfg.workload + " round " + std::to_string(round.finished_rounds + 1) + " starts";
    push_event(std::move(e));
    return true;
}

// The current round's score plus the finished rounds' work; while a newer round runs, the seed measure is the
// last finished round's (a build's elapsed time is only known once it is over).
workload_score engine::impl::score() const
{
    const vtime_ns end = finished() ? round.finish_time : now();
    workload_score s = load->score(end > round.origin ? end - round.origin : 0);
    if (round.finished_rounds == 0) return s;
    s.work_units += round.finished_work;
    if (!round.over()) {
        s.seed_measure = round.last_score.seed_measure;
        s.seed_measure_value = round.last_score.seed_measure_value;
    }
    return s;
}

} // namespace pcplab::sim
