// The engine's run queue: an indexed binary min-heap of CPUs keyed by (virtual clock, CPU id), so the CPU
// furthest behind is always on top and ties go to the lower CPU id (deterministic). Indexed, so a CPU
// whose clock moves while it is not on top (an idle CPU woken early by the reclaimer) can be re-placed.
#pragma once

#include <cstdint>
#include <vector>

namespace pcplab::sim
{

class cpu_heap
{
public:
    using key_t = std::uint64_t;

    void reset(int nr_cpus, key_t t0)
    {
        m_slots.clear();
        m_pos.assign(static_cast<std::size_t>(nr_cpus), 0);
        for (int c = 0; c < nr_cpus; ++c) {
            m_pos[static_cast<std::size_t>(c)] = static_cast<int>(m_slots.size());
            m_slots.push_back({t0, c});
        }
    }
    bool empty() const { return m_slots.empty(); }
    int top() const { return m_slots.front().cpu; }
    key_t top_key() const { return m_slots.front().t; }
    // The clock of `cpu` is now `t` (larger or smaller than before).
    void update(int cpu, key_t t)
    {
        int i = m_pos[static_cast<std::size_t>(cpu)];
        key_t old = m_slots[static_cast<std::size_t>(i)].t;
        m_slots[static_cast<std::size_t>(i)].t = t;
        if (t < old)
            sift_up(i);
        else
            sift_down(i);
    }

private:
    struct slot {
        key_t t;
        int cpu;
    };
    static bool before(const slot& a, const slot& b) { return a.t < b.t || (a.t == b.t && a.cpu < b.cpu); }
    void place(int i, const slot& s)
    {
        m_slots[static_cast<std::size_t>(i)] = s;
        m_pos[static_cast<std::size_t>(s.cpu)] = i;
    }
    void sift_up(int i)
    {
        slot s = m_slots[static_cast<std::size_t>(i)];
        while (i > 0) {
            int parent = (i - 1) / 2;
            if (!before(s, m_slots[static_cast<std::size_t>(parent)])) break;
            place(i, m_slots[static_cast<std::size_t>(parent)]);
            i = parent;
        }
        place(i, s);
    }
    void sift_down(int i)
    {
        const int n = static_cast<int>(m_slots.size());
        slot s = m_slots[static_cast<std::size_t>(i)];
        for (;;) {
            int child = 2 * i + 1;
            if (child >= n) break;
            if (child + 1 < n
                && before(m_slots[static_cast<std::size_t>(child + 1)], m_slots[static_cast<std::size_t>(child)]))
                ++child;
            if (!before(m_slots[static_cast<std::size_t>(child)], s)) break;
            place(i, m_slots[static_cast<std::size_t>(child)]);
            i = child;
        }
        place(i, s);
    }

    std::vector<slot> m_slots;
    std::vector<int> m_pos;
};

} // namespace pcplab::sim
