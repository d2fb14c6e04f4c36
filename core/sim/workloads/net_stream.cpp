// net-stream: TCP streams between pairs of CPUs, the load behind Nikhil Dhama's free_high threshold
// ("mm: pcp: increase pcp->free_count threshold to trigger free_high", v6.16; reported with iperf3
// client/server pairs on a 2-node, 768-vCPU AMD machine). Many short bursts of order-3 pages, each allocated
// on one CPU and freed on another.
//
// What allocates and frees these pages in a real kernel:
//   tcp_sendmsg copies the user's data into skb fragments taken from sk_page_frag_refill(), which asks for
//     SKB_FRAG_PAGE_ORDER (order 3, 32 KiB) UNMOVABLE pages, up to ZONE_NORMAL;
//   the receiving side frees those skbs after tcp_recvmsg copied them out (or the sender's CPU frees them at
//     TX completion): on a CPU other than the one that allocated them, one run of order-3 frees per batch
//     of consumed data, with no allocation in between. That run is what free_high detects.
//
// The paper ran iperf3's clients and servers on two machines joined by a NIC: on each, a flow's pages are filled
// on one CPU and freed on another (the sender and its TX-completion CPU; the NIC's RX CPU and the reader). Here
// one machine carries both ends, and each CPU of a pair plays both roles, for two flows.
//
// Model: the workload's CPUs are paired within their node (each node's CPUs in placement order, two by two;
// an odd last one with itself: E, a flow's sender and receiver kept on one node, as NUMA-aware scheduling and
// IRQ affinity do), and each CPU of a pair sends one stream to the other. The freed pages then belong to the
// freeing CPU's own zone, where its next sends can take them. Each CPU starts after an idle of 1 .. 100 us
// drawn from its stream (E: the streams of a benchmark do not start in the same microsecond). A turn per CPU:
//   send: `writes` writes of write_kib each, as order-3 blocks; each block is filled by copy_from_user
//         ((1 << 3) x env.user_ns_per_page, the cost model's page-write cost) and queued to the peer;
//   receive: free every block the peer queued before the turn began, each after copy_to_user (the same
//         cost per page), in the order they were sent: one run of frees of pages the peer allocated.
// Flow control: a CPU sends a new block only while its peer holds less than one turn unread (the socket's
// send buffer); otherwise it reads its own queue, or waits 1 us (WAIT_NS) when that is empty too. So a run of
// frees is at most one turn.
// A failed order-3 allocation backs off and retries (sk_page_frag_refill falls back to order 0 in the
// kernel; here the stream waits instead, so every block it sends is order 3).
//
// Parameters:
//   write_kib  128: iperf3's default buffer for TCP (iperf3(1), --length: "128 KB for TCP")
//   writes     4 x intensity per turn (E: a send turn ends when the socket's send buffer is full; 4 x 128
//              KiB = 512 KiB, half of TCP small queues' 1 MiB tcp_limit_output_bytes, so that both
//              directions of a pair fit in flight)
//   rx_irq_pages_per_ms  0: with a rate, each CPU's NIC RX interrupt refills its ring with an order-0 page
//              (GFP_ATOMIC) at that mean rate, in interrupt context, and frees the page it took rx_ring
//              interrupts before (the engine runs them: engine_irq.cpp). 0 keeps every run without it unchanged.
//   rx_ring    512: ixgbe's default RX descriptor count (IXGBE_DEFAULT_RXD)
// Score: KiB sent (throughput).
#include "sim/workloads/registry_internal.hpp"
#include "sim/workloads/rng.hpp"
#include "sim/workloads/task_state.hpp"
#include "sim/workloads/workload_base.hpp"

#include <algorithm>
#include <cmath>

namespace pcplab::sim::workloads
{
namespace
{

constexpr unsigned SKB_FRAG_PAGE_ORDER = 3; // include/net/sock.h: get_order(32768)
constexpr double BLOCK_KIB = double(mm::PAGE_SIZE << SKB_FRAG_PAGE_ORDER) / 1024.0;
constexpr std::uint64_t START_JITTER_US = 100;
// A sender blocked on a full send buffer looks again after this long (E: the wake-up once the peer has read).
constexpr vtime_ns WAIT_NS = 1000;

class net_stream final : public workload_base
{
public:
    net_stream()
    {
        m_params.add("write_kib", 128, "bytes per send() call, KiB (iperf3's TCP default)", 1, 1 << 20);
        m_params.add("writes", 4, "send() calls per turn before the CPU receives (x intensity)", 1, 1e6);
        m_params.add("rx_irq_pages_per_ms", 0,
            "order-0 pages each CPU's NIC RX interrupt takes per ms, in interrupt context (0: none)", 0, 1e6);
        m_params.add(
            "rx_ring", 512, "RX ring length: an interrupt frees the page taken this many interrupts ago", 1, 1 << 16);
    }
    irq_load irq_pages() const override
    {
        return {m_params.get("rx_irq_pages_per_ms"), static_cast<unsigned>(m_params.get("rx_ring"))};
    }
    std::string_view name() const override { return "net-stream"; }

    void attach(const workload_env& env) override
    {
        attach_base(env);
        reset_states(m_cpus, m_order.size(), TAG_NET_STREAM);
        pair_within_nodes();
        m_sent_blocks = 0;
        on_intensity();
    }

    cpu_action next(int cpu, vtime_ns now) override
    {
        int p = place_of(cpu);
        if (p < 0 || m_released) return done();
        cpu_state& c = m_cpus[p];
        cpu_action a;
        if (c.gate.pending(a)) return a;
        for (;;) {
            switch (c.ph) {
            case phase::start:
                c.ph = phase::receive; // the first turn receives nothing, then sends
                return idle(c.r.between(1, START_JITTER_US) * 1000);
            case phase::send:
                if (c.copy_pending) {
                    c.copy_pending = false;
                    if (vtime_ns ns = pages_ns(1U << SKB_FRAG_PAGE_ORDER)) return compute(ns);
                }
                if (c.left > 0) {
                    // The send buffer holds one turn: until the peer has read the last one, the sender blocks
                    // (sk_stream_wait_memory), or reads its own socket if the peer sent something.
                    if (m_cpus[static_cast<std::size_t>(peer_of(p))].inbox.size() < m_blocks_per_turn)
                        return c.gate.issue(alloc_kernel(SKB_FRAG_PAGE_ORDER));
                    if (c.inbox.empty()) return idle(WAIT_NS);
                }
                // The turn's sends are done (or blocked): what the peer queued so far is this turn's run of frees.
                c.ph = phase::receive;
                c.draining.swap(c.inbox);
                c.inbox.clear();
                c.cursor = 0;
                continue;
            case phase::receive:
                if (c.cursor < c.draining.size()) {
                    if (!c.copied) {
                        c.copied = true;
                        if (vtime_ns ns = pages_ns(1U << SKB_FRAG_PAGE_ORDER)) return compute(ns);
                    }
                    c.copied = false;
                    return free_block(c.draining[c.cursor++], SKB_FRAG_PAGE_ORDER);
                }
                c.draining.clear();
                c.ph = phase::send;
                c.left = m_blocks_per_turn;
                continue;
            }
        }
    }

    void allocated(int cpu, mm::pfn_t pfn, vtime_ns now) override
    {
        int p = place_of(cpu);
        if (p < 0) return;
        cpu_state& c = m_cpus[p];
        if (!c.gate.complete(pfn)) return;
        m_cpus[peer_of(p)].inbox.push_back(pfn);
        c.copy_pending = true;
        --c.left;
        ++m_sent_blocks;
    }

    workload_score score(vtime_ns elapsed) const override
    {
        return count_score(static_cast<std::uint64_t>(std::llround(double(m_sent_blocks) * BLOCK_KIB)), "KiB");
    }

    released_blocks release_all() override
    {
        return release_each(m_cpus, [](auto& c, released_blocks& out) {
            for (std::size_t i = c.cursor; i < c.draining.size(); ++i)
                out.emplace_back(c.draining[i], SKB_FRAG_PAGE_ORDER);
            for (mm::pfn_t pfn : c.inbox) out.emplace_back(pfn, SKB_FRAG_PAGE_ORDER);
            c.draining.clear();
            c.inbox.clear();
        });
    }

private:
    enum class phase : std::uint8_t { start, send, receive };
    struct cpu_state {
        alloc_gate gate;
        rng r;
        phase ph = phase::start;
        std::uint32_t left = 0; // blocks of this turn still to send
        bool copy_pending = false; // the block just allocated is still to be filled
        bool copied = false; // the block at `cursor` has been copied out
        std::size_t cursor = 0;
        std::vector<mm::pfn_t> inbox; // blocks the peer sent, not yet received
        std::vector<mm::pfn_t> draining; // this turn's run of frees
    };

    int peer_of(int p) const { return m_peer[static_cast<std::size_t>(p)]; }

    void pair_within_nodes()
    {
        m_peer.assign(m_order.size(), -1);
        std::vector<int> waiting; // per node: a place without a peer yet
        for (std::size_t p = 0; p < m_order.size(); ++p) {
            const int cpu = m_order[p];
            const auto node = static_cast<std::size_t>(
                static_cast<std::size_t>(cpu) < m_env.cpu_node.size() ? m_env.cpu_node[cpu] : 0);
            if (waiting.size() <= node) waiting.resize(node + 1, -1);
            if (waiting[node] < 0) {
                waiting[node] = static_cast<int>(p);
                continue;
            }
            m_peer[p] = waiting[node];
            m_peer[static_cast<std::size_t>(waiting[node])] = static_cast<int>(p);
            waiting[node] = -1;
        }
        for (std::size_t p = 0; p < m_peer.size(); ++p)
            if (m_peer[p] < 0) m_peer[p] = static_cast<int>(p);
    }

    void on_intensity() override
    {
        const double per_write = std::max(1.0, std::ceil(m_params.get("write_kib") / BLOCK_KIB));
        m_blocks_per_turn = scaled_amount(m_params.get("writes") * per_write, 1e6);
    }

    std::uint32_t m_blocks_per_turn = 1;
    std::vector<int> m_peer; // place -> the place it streams to
    std::vector<cpu_state> m_cpus;
    std::uint64_t m_sent_blocks = 0;
};

} // namespace

std::unique_ptr<workload> make_net_stream()
{
    return std::make_unique<net_stream>();
}

} // namespace pcplab::sim::workloads
