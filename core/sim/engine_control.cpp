// Live control (switches, sysctls, intensity) and the events it and the allocator's limit changes log.
//
// What flipping a switch mid-run does (the kernel cannot do this; pcplab defines it as "the code from now on
// behaves as a kernel with the switch in the new position would, starting from the current state"):
//  - pcp-update-after-deferred-init (000): turning it on after boot runs zone_pcp_update on every populated
//    zone now, as if deferred init had just finished; turning it off changes nothing until the next boot
//    (limits already computed stay, as they would in a running kernel).
//  - bulk-free-pick-outside-lock (001) and batched-bulk-free (003): read by free_pcppages_bulk and its
//    callers on every call, so the next flush or drain uses the new code.
//  - pcp-high-autotune (002): zone_set_pageset_high_and_batch is re-applied to every populated zone, so
//    the pagesets get high_min/high_max (on) or the fixed high again (off); ZONE_BELOW_HIGH, which only the
//    auto-tuning code maintains, is cleared either way.
//  - parallel-deferred-init (004): deferred init has already run; only the next boot (engine::reboot)
//    uses the new thread count.
//  - pcp-lock-irqs-enabled (010): read when the interrupts of a step are classified (engine_irq.cpp), so an
//    interrupt raised in the next step meets the new rule.
// A switch that means nothing on the era (mm::patch_not_applicable) is still recorded, with the reason, which
// set_patch returns: it is decided here once and reaches the window in the command's result.
#include "engine_impl.hpp"

#include "mm/pcp.hpp"
#include "mm/pcp_limits.hpp"
#include "mm/sysctl_bounds.hpp"
#include "mm/watermarks.hpp"

#include <algorithm>
#include <climits>

namespace pcplab::sim
{

const char* high_cause_text(std::uint8_t c)
{
    switch (c) {
    case HIGH_GROW_REFILL:
        return "auto-tune grow (refill)";
    case HIGH_GROW_FREE_RUN:
        return "auto-tune grow (free run)";
    case HIGH_SHRINK_RECLAIM:
        return "auto-tune reclaim shrink";
    case HIGH_SHRINK_BELOW_HIGH:
        return "auto-tune shrink (zone below high watermark)";
    case HIGH_SHRINK_FREE_HIGH:
        return "auto-tune shrink (free_high)";
    case HIGH_DECAY:
        return "auto-tune decay (vmstat tick)";
    default:
        return "auto-tune";
    }
}

// During the boot: the instant of the boot's step; inside a step: the acting CPU's clock; between steps (live
// control): the engine's time.
vtime_ns engine::impl::event_time() const
{
    if (boot_st.event_time) return *boot_st.event_time;
    return in_step ? clock[acting] : now();
}

void engine::impl::push_event(sim_event e)
{
    if (!log.push(std::move(e))) tot.events_dropped += 1;
}

// machine::on_limits_change: one event per value that changed (batch, high, high_min, high_max).
void engine::impl::on_limits_change(const mm::limits_change& c)
{
    const char* why = limits_text ? limits_text : mm::limits_cause_name(c.cause);
    auto emit = [&](event_field f, int old_v, int new_v) {
        if (old_v == new_v) return;
        sim_event e;
        e.t = event_time();
        e.kind = event_kind::limits_change;
        e.node = c.node;
        e.zone = c.zone;
        e.old_value = old_v;
        e.new_value = new_v;
        e.field = f;
        e.text = why;
        push_event(std::move(e));
    };
    emit(event_field::batch, c.old_batch, c.new_batch);
    emit(event_field::high, c.old_high, c.new_high);
    emit(event_field::high_min, c.old_high_min, c.new_high_min);
    emit(event_field::high_max, c.old_high_max, c.new_high_max);
}

// One CPU's auto-tuned high moved. Changes with the same cause in the same second of the run (counted from the
// workload's start, like every rule of the run) are folded into one event (its new_value follows), so a run of
// refills does not flood the log.
void engine::impl::note_high_change(int cpu, const mm::zone& z, int old_high, int new_high, std::uint8_t cause)
{
    if (!log.note_high_change(
            cpu, z, clock[cpu], boot_st.times.workload_start_ns, old_high, new_high, cause, high_cause_text(cause)))
        tot.events_dropped += 1;
}

std::string engine::impl::set_patch(mm::patch p, bool on)
{
    const bool was = m->patches[p];
    const std::string why = mm::patch_not_applicable(p, on, m->era.version);
    m->patches.set(p, on);
    cfg.patches.set(p, on);

    sim_event e;
    e.t = event_time();
    e.kind = event_kind::switch_flip;
    e.old_value = was;
    e.new_value = on;
    e.text = std::string(mm::patch_name(p)) + (on ? " on" : " off");
    if (!why.empty())
        e.text += " (" + why + ")";
    else if (p == mm::patch::parallel_deferred_init)
        e.text += " (takes effect at the next boot)";
    push_event(std::move(e));
    if (!boot_st.done || was == on || !why.empty()) return why;

    switch (p) {
    case mm::patch::pcp_update_after_deferred_init:
        if (on) {
            limits_text = "switch on: zone_pcp_update now";
            m->for_each_populated_zone(
                [&](mm::zone& z) { mm::zone_pcp_update(*m, z, 0, mm::limits_cause::deferred_init_done); });
            limits_text = nullptr;
        }
        break;
    case mm::patch::pcp_high_autotune:
        limits_text = on ? "switch on: pcp-high-autotune" : "switch off: pcp-high-autotune";
        m->for_each_populated_zone([&](mm::zone& z) {
            z.flags &= ~mm::ZONE_BELOW_HIGH;
            mm::zone_set_pageset_high_and_batch(*m, z, 0, mm::limits_cause::sysctl);
        });
        limits_text = nullptr;
        break;
    default: // the others act when the allocator next reads them (or, parallel-deferred-init, at boot)
        break;
    }
    autotune = mm::pcp_tuning_of(*m) == mm::pcp_tuning::autotune_v6_7;
    return why;
}

// A name (with or without the "vm." prefix) as lesson files and tests give it.
status engine::impl::set_sysctl(const std::string& name, long value)
{
    const auto which = mm::vm_sysctl_from_name(name);
    if (!which) return error(mm::unknown_vm_sysctl(name));
    return set_sysctl(*which, value);
}

// The sysctls of the lab. The value is kept in the config so a reboot keeps it.
status engine::impl::set_sysctl(mm::vm_sysctl which, long value)
{
    // Checked before the narrowing below: the bounds include the handlers' int range.
    status err = mm::vm_sysctl_problem(which, value, m->era);
    if (err) {
        switch (which) {
        case mm::vm_sysctl::percpu_pagelist_fraction:
            err = mm::set_percpu_pagelist_fraction(*m, static_cast<int>(value));
            if (err) cfg.spec.sysctl.percpu_pagelist_fraction = static_cast<int>(value);
            break;
        case mm::vm_sysctl::percpu_pagelist_high_fraction:
            err = mm::set_percpu_pagelist_high_fraction(*m, static_cast<int>(value));
            if (err) cfg.spec.sysctl.percpu_pagelist_high_fraction = static_cast<int>(value);
            break;
        case mm::vm_sysctl::min_free_kbytes:
            err = mm::set_min_free_kbytes(*m, value);
            if (err) cfg.spec.sysctl.min_free_kbytes = value;
            break;
        case mm::vm_sysctl::watermark_scale_factor:
            err = mm::set_watermark_scale_factor(*m, static_cast<int>(value));
            if (err) cfg.spec.sysctl.watermark_scale_factor = static_cast<int>(value);
            break;
        case mm::vm_sysctl::pcp_batch_scale_max:
            err = mm::set_pcp_batch_scale_max(*m, static_cast<int>(value));
            if (err) cfg.spec.sysctl.pcp_batch_scale_max = static_cast<int>(value);
            break;
        }
    }
    if (!err) return err;
    sim_event e;
    e.t = event_time();
    e.kind = event_kind::note;
    e.new_value = value;
    e.text = "sysctl " + mm::vm_sysctl_name(which) + " = " + std::to_string(value);
    push_event(std::move(e));
    return {};
}

// workload::set_intensity: each CPU's next task / pass / burst uses it; kept for a reboot too.
void engine::impl::set_intensity(double intensity)
{
    cfg.intensity = intensity;
    env.intensity = intensity;
    if (boot_st.done) load->set_intensity(intensity);
    sim_event e;
    e.t = event_time();
    e.kind = event_kind::note;
    e.new_value = static_cast<long>(intensity * 100);
    e.text = "intensity " + std::to_string(intensity);
    push_event(std::move(e));
}

} // namespace pcplab::sim
