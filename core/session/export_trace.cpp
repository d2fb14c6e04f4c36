// The Chrome JSON trace format ("Trace Event Format"): times in microseconds, "X" complete events with a
// duration, "C" counters, "i" instant events with a scope (g = global, p = process, t = thread), "M" metadata
// naming processes and threads. Written by hand rather than through a JSON DOM: a run can hold millions of holds.
#include "session/export.hpp"
#include "session/record_names.hpp"

#include "mm/lock_ops.hpp"
#include "mm/mm_types.hpp"

#include <cstdio>

namespace pcplab::session
{

namespace
{

// Thread ids: a CPU is tid cpu + 1; a zone lock's track is LOCK_TID_BASE + node * 8 + zone (global, so a
// viewer that keys threads by tid alone still keeps them apart).
constexpr int LOCK_TID_BASE = 100000;

int node_pid(int node)
{
    return node + 1; // pid 0 is the idle task in most viewers
}
int cpu_tid(int cpu)
{
    return cpu + 1;
}
int lock_tid(int node, int zone)
{
    return LOCK_TID_BASE + node * 8 + zone;
}

std::string esc(const std::string& s)
{
    std::string out = "\"";
    for (char c : s) {
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", c);
                out += buf;
            } else {
                out += c;
            }
        }
    }
    return out + "\"";
}

// Microseconds with nanosecond precision, written exactly (no binary rounding of the decimal).
std::string us(std::uint64_t ns)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%llu.%03llu", static_cast<unsigned long long>(ns / 1000),
        static_cast<unsigned long long>(ns % 1000));
    return buf;
}

std::string zone_label(int node, int zone)
{
    const char* z
        = zone >= 0 && zone < static_cast<int>(mm::MAX_NR_ZONES) ? mm::zone_name(static_cast<unsigned>(zone)) : "?";
    return "Node " + std::to_string(node) + " " + z;
}

class trace_writer
{
public:
    void event(const std::string& body)
    {
        m_out += m_first ? "\n" : ",\n";
        m_first = false;
        m_out += "{" + body + "}";
    }
    void meta(const char* what, int pid, int tid, const std::string& args)
    {
        event(std::string("\"ph\":\"M\",\"name\":\"") + what + "\",\"pid\":" + std::to_string(pid)
            + ",\"tid\":" + std::to_string(tid) + ",\"args\":{" + args + "}");
    }
    std::string& out() { return m_out; }

private:
    std::string m_out;
    bool m_first = true;
};

std::string ids(int pid, int tid)
{
    return ",\"pid\":" + std::to_string(pid) + ",\"tid\":" + std::to_string(tid);
}

} // namespace

std::string export_trace(const recording& rec, std::int64_t run)
{
    const run_record& rr = rec.run(run);
    const auto snaps = rec.load_all(run);
    if (snaps.empty()) rec.fail("run " + std::to_string(run) + " has no snapshots");

    // The topology: from the last snapshot that has it (booting snapshots may not).
    std::vector<int> cpu_node;
    std::vector<std::pair<int, int>> zones;
    for (auto it = snaps.rbegin(); it != snaps.rend(); ++it)
        if (!(*it)->cpu_node.empty()) {
            cpu_node = (*it)->cpu_node;
            for (const auto& z : (*it)->zones) zones.emplace_back(z.node, z.zone);
            break;
        }
    auto pid_of_cpu = [&](int cpu) {
        return node_pid(
            cpu >= 0 && cpu < static_cast<int>(cpu_node.size()) ? cpu_node[static_cast<std::size_t>(cpu)] : 0);
    };

    trace_writer w;
    int nodes = 0;
    for (int n : cpu_node) nodes = std::max(nodes, n + 1);
    for (const auto& [node, zone] : zones) nodes = std::max(nodes, node + 1);
    for (int n = 0; n < nodes; ++n) {
        w.meta("process_name", node_pid(n), 0, "\"name\":" + esc("Node " + std::to_string(n)));
        w.meta("process_sort_index", node_pid(n), 0, "\"sort_index\":" + std::to_string(n));
    }
    for (const auto& [node, zone] : zones) {
        w.meta("thread_name", node_pid(node), lock_tid(node, zone),
            "\"name\":" + esc("zone->lock " + zone_label(node, zone)));
        w.meta(
            "thread_sort_index", node_pid(node), lock_tid(node, zone), "\"sort_index\":" + std::to_string(-8 + zone));
    }
    for (std::size_t c = 0; c < cpu_node.size(); ++c) {
        const int cpu = static_cast<int>(c);
        w.meta("thread_name", pid_of_cpu(cpu), cpu_tid(cpu), "\"name\":" + esc("CPU " + std::to_string(cpu)));
        w.meta("thread_sort_index", pid_of_cpu(cpu), cpu_tid(cpu), "\"sort_index\":" + std::to_string(cpu));
    }

    for (const auto& sp : snaps) {
        const sim::snapshot& s = *sp;
        for (const auto& z : s.zones) {
            w.event("\"ph\":\"C\",\"name\":" + esc(zone_label(z.node, z.zone) + " pcp") + ids(node_pid(z.node), 0)
                + ",\"ts\":" + us(s.sim_time_ns) + ",\"args\":{\"count\":" + std::to_string(z.pcp_pages)
                + ",\"high\":" + std::to_string(z.high) + ",\"batch\":" + std::to_string(z.batch) + "}");
        }
        for (const auto& h : s.holds) {
            if (h.kind != mm::lock_kind::zone_lock) continue; // pcp->lock holds nest differently: not drawn
            const std::string caller(mm::lock_caller_name(h.caller));
            const std::string args = ",\"args\":{\"cpu\":" + std::to_string(h.cpu)
                + ",\"pages\":" + std::to_string(h.pages) + ",\"wait_ns\":" + std::to_string(h.wait_ns)
                + ",\"hold_ns\":" + std::to_string(h.hold_ns) + "}";
            w.event("\"ph\":\"X\",\"cat\":\"zone_lock\",\"name\":" + esc(caller)
                + ids(node_pid(h.node), lock_tid(h.node, h.zone)) + ",\"ts\":" + us(h.start)
                + ",\"dur\":" + us(h.hold_ns) + args);
            const std::string where = esc("zone->lock " + zone_label(h.node, h.zone));
            if (h.wait_ns > 0 && h.start >= h.wait_ns)
                w.event("\"ph\":\"X\",\"cat\":\"wait\",\"name\":" + esc("wait " + zone_label(h.node, h.zone))
                    + ids(pid_of_cpu(h.cpu), cpu_tid(h.cpu)) + ",\"ts\":" + us(h.start - h.wait_ns)
                    + ",\"dur\":" + us(h.wait_ns) + args);
            w.event("\"ph\":\"X\",\"cat\":\"hold\",\"name\":" + esc(caller) + ids(pid_of_cpu(h.cpu), cpu_tid(h.cpu))
                + ",\"ts\":" + us(h.start) + ",\"dur\":" + us(h.hold_ns) + ",\"args\":{\"lock\":" + where
                + ",\"pages\":" + std::to_string(h.pages) + "}");
        }
        for (const auto& e : s.events) {
            std::string scope = "g", where = ids(node_pid(0), 0);
            if (e.kind == sim::event_kind::pcp_high_change || (e.kind == sim::event_kind::drain && e.cpu >= 0)) {
                scope = "t";
                where = ids(pid_of_cpu(e.cpu), cpu_tid(e.cpu));
            } else if (e.kind != sim::event_kind::switch_flip && e.node >= 0) {
                scope = "p";
                where = ids(node_pid(e.node), e.zone >= 0 ? lock_tid(e.node, e.zone) : 0);
            }
            std::string name = event_kind_name(e.kind);
            if (e.field != sim::event_field::none) name += std::string(" ") + event_field_name(e.field);
            w.event("\"ph\":\"i\",\"s\":\"" + scope + "\",\"cat\":\"event\",\"name\":" + esc(name) + where
                + ",\"ts\":" + us(e.t) + ",\"args\":{\"old\":" + std::to_string(e.old_value) + ",\"new\":"
                + std::to_string(e.new_value) + ",\"cpu\":" + std::to_string(e.cpu) + ",\"text\":" + esc(e.text) + "}");
        }
        for (const auto& c : s.commands)
            w.event("\"ph\":\"i\",\"s\":\"g\",\"cat\":\"command\",\"name\":" + esc(c.what) + ids(node_pid(0), 0)
                + ",\"ts\":" + us(c.applied_at_ns) + ",\"args\":{\"ok\":" + (c.ok ? "true" : "false")
                + ",\"message\":" + esc(c.message) + "}");
    }

    std::string switches;
    for (const auto& [name, on] : rr.switches)
        switches += (switches.empty() ? "" : ",") + esc(name) + ":" + (on ? "true" : "false");
    return "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"source\":\"pcplab\",\"preset\":" + esc(rr.preset)
        + ",\"era\":" + esc(rr.era) + ",\"workload\":" + esc(rr.workload) + ",\"seed\":" + std::to_string(rr.seed)
        + ",\"holds_rule\":" + esc(rec.meta("holds_rule")) + ",\"switches\":{" + switches + "}},\"traceEvents\":["
        + w.out() + "\n]}\n";
}

} // namespace pcplab::session
