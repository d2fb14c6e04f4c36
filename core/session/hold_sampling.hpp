// Which zone->lock / pcp->lock holds a recording keeps. Every hold can be kept, none, one in N plus every
// hold at least as long as a threshold (the long holds are the interesting ones), or every zone->lock hold with
// only the pcp->lock holds that waited or were taken on another CPU's pageset (`zone`, what the views draw).
// The rule is written into the recording (meta `holds_rule`) so that a reader knows what its log holds.
#pragma once

#include "sim/metrics.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace pcplab::session
{

struct hold_rule {
    enum class mode { all, none, sampled, zone };
    mode m = mode::all;
    std::uint64_t every = 1; // sampled: keep hold number 0, N, 2N ... (counted per run)
    sim::vtime_ns over_ns = 0; // sampled: also keep every hold at least this long (0 = none by length)

    // "all", "none", "1/N", "1/N+over:T" (T in ns, us, ms or s, e.g. 1/100+over:50us), "zone".
    std::string text() const;
    // nullopt for text that is none of the forms above.
    static std::optional<hold_rule> parse(std::string_view text);
    // What a run records by default (pcplab-cli run --record, the window's File > Record).
    static hold_rule recording_default();
    bool engine_must_keep_holds() const { return m != mode::none; }
    // engine_config::keep_plain_pcp_holds: only the rules that may keep an uncontended local pcp->lock hold.
    bool engine_must_keep_plain_pcp_holds() const { return m == mode::all || m == mode::sampled; }
};

// Applies a rule to the holds of one run, in the order they come.
class hold_sampler
{
public:
    explicit hold_sampler(hold_rule r)
        : m_rule(r)
    {
    }
    bool keep(const sim::lock_hold_record& h)
    {
        switch (m_rule.m) {
        case hold_rule::mode::all:
            return true;
        case hold_rule::mode::none:
            return false;
        case hold_rule::mode::zone:
            return !sim::plain_pcp_hold(h);
        case hold_rule::mode::sampled:
            break;
        }
        const bool by_count = m_seen++ % m_rule.every == 0;
        return by_count || (m_rule.over_ns && h.hold_ns >= m_rule.over_ns);
    }
    void restart() { m_seen = 0; }

private:
    hold_rule m_rule;
    std::uint64_t m_seen = 0;
};

} // namespace pcplab::session
