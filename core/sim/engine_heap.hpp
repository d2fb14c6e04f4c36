// The engine's run queue: an indexed binary min-heap of CPUs keyed by (virtual clock, CPU id), so the CPU
// furthest behind is always on top and ties go to the lower CPU id (deterministic). Indexed, so a CPU
// whose clock moves while it is not on top (an idle CPU woken early by the reclaimer) can be re-placed.
#pragma once

#include "base/per_cpu.hpp"

#include <cstdint>
#include <stdexcept>
#include <vector>

namespace pcplab::sim
{

class cpu_heap
{
public:
    using key_t = std::uint64_t;

    void reset(int nr_cpus, key_t t0)
    {
        m_shift = 0;
        while ((std::int64_t{1} << m_shift) < nr_cpus) ++m_shift;
        m_cpu_mask = (key_t{1} << m_shift) - 1;
        m_latest = ~key_t{0} >> m_shift;
        m_keys.clear();
        m_pos.assign(nr_cpus, 0);
        for (int c = 0; c < nr_cpus; ++c) {
            m_pos[c] = static_cast<int>(m_keys.size());
            m_keys.push_back(pack(t0, c));
        }
    }
    bool empty() const { return m_keys.empty(); }
    int top() const { return static_cast<int>(m_keys.front() & m_cpu_mask); }
    key_t top_key() const { return m_keys.front() >> m_shift; }
    // The clock of `cpu` is now `t` (larger or smaller than before).
    void update(int cpu, key_t t)
    {
        if (t > m_latest) throw std::overflow_error("virtual time beyond the run queue's range");
        const int i = m_pos[cpu];
        const key_t old = m_keys[static_cast<std::size_t>(i)];
        const key_t k = pack(t, cpu);
        if (k < old)
            sift_up(i, k);
        else
            sift_down(i, k);
    }

private:
    // One word per CPU, the clock above the CPU id: one comparison orders by clock, then by id, as long as the
    // clock fits above the id's bits (2^56 ns, over two years, with 256 CPUs). A single unsigned comparison
    // instead of two lets the compiler pick the smaller child without a branch, and the slot is half as big.
    key_t pack(key_t t, int cpu) const { return t << m_shift | static_cast<key_t>(cpu); }
    void place(int i, key_t k)
    {
        m_keys[static_cast<std::size_t>(i)] = k;
        m_pos[static_cast<int>(k & m_cpu_mask)] = i;
    }
    void sift_up(int i, key_t k)
    {
        while (i > 0) {
            const int parent = (i - 1) / 2;
            const key_t p = m_keys[static_cast<std::size_t>(parent)];
            if (k >= p) break;
            place(i, p);
            i = parent;
        }
        place(i, k);
    }
    void sift_down(int i, key_t k)
    {
        const int n = static_cast<int>(m_keys.size());
        for (;;) {
            int child = 2 * i + 1;
            if (child >= n) break;
            key_t c = m_keys[static_cast<std::size_t>(child)];
            const key_t right = child + 1 < n ? m_keys[static_cast<std::size_t>(child + 1)] : ~key_t{0};
            child += right < c;
            c = right < c ? right : c;
            if (c >= k) break;
            place(i, c);
            i = child;
        }
        place(i, k);
    }

    std::vector<key_t> m_keys; // (clock << m_shift) | cpu
    per_cpu<int> m_pos; // slot of each CPU
    unsigned m_shift = 0; // bits of a CPU id
    key_t m_cpu_mask = 0;
    key_t m_latest = ~key_t{0}; // the latest clock a key holds
};

} // namespace pcplab::sim
