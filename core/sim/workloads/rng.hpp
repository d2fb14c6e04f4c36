// The workloads' random numbers: splitmix64 to derive seeds, xoshiro256** for the streams. Written out here
// (not std::uniform_*_distribution, whose output differs between standard libraries) so the same seed gives
// the same action sequence, bit for bit, on every platform and compiler.
#pragma once

#include <cassert>
#include <cstdint>

namespace pcplab::sim::workloads
{

// splitmix64 (Steele, Lea, Flood 2014): one step of the generator Vigna recommends for seeding xoshiro.
inline std::uint64_t splitmix64(std::uint64_t& state)
{
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

// A seed for one independent stream: the run's seed, a tag naming the workload and the use, and an index
// (CPU, job, worker). Mixing all three through splitmix64 keeps neighbouring indices uncorrelated.
inline std::uint64_t stream_seed(std::uint64_t seed, std::uint64_t tag, std::uint64_t index)
{
    std::uint64_t s = seed;
    std::uint64_t a = splitmix64(s) ^ tag;
    std::uint64_t t = a;
    std::uint64_t b = splitmix64(t) ^ index;
    std::uint64_t u = b;
    return splitmix64(u);
}

// xoshiro256** 1.0 (Blackman, Vigna 2018).
class rng
{
public:
    rng()
        : rng(1)
    {
    }
    explicit rng(std::uint64_t seed)
    {
        for (auto& w : m_s) w = splitmix64(seed);
    }

    std::uint64_t next()
    {
        const std::uint64_t result = rotl(m_s[1] * 5, 7) * 9;
        const std::uint64_t t = m_s[1] << 17;
        m_s[2] ^= m_s[0];
        m_s[3] ^= m_s[1];
        m_s[1] ^= m_s[2];
        m_s[0] ^= m_s[3];
        m_s[2] ^= t;
        m_s[3] = rotl(m_s[3], 45);
        return result;
    }

    // Uniform in [0, n) for n < 2^32 (multiply-shift on the top 32 bits: integer only, no division).
    std::uint32_t below(std::uint32_t n) { return static_cast<std::uint32_t>(((next() >> 32) * n) >> 32); }
    // Uniform in [lo, hi] (inclusive), lo <= hi < 2^32.
    std::uint64_t between(std::uint64_t lo, std::uint64_t hi)
    {
        assert(lo <= hi && hi - lo < 0xffffffffULL);
        return lo + below(static_cast<std::uint32_t>(hi - lo + 1));
    }
    // True with probability num/den.
    bool chance(std::uint32_t num, std::uint32_t den) { return below(den) < num; }

private:
    static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    std::uint64_t m_s[4];
};

// Tags of the streams (any distinct constants; spelled as ASCII so a reader can tell them apart).
inline constexpr std::uint64_t TAG_KERNBENCH_JOB = 0x6b626a6f62ULL; // "kbjob"
inline constexpr std::uint64_t TAG_PAGE_FAULT1 = 0x7066315f31ULL; // "pf1_1"
inline constexpr std::uint64_t TAG_STRESS_VM = 0x73766d5f31ULL; // "svm_1"
inline constexpr std::uint64_t TAG_HIGH_ORDER = 0x686f5f31ULL; // "ho_1"
inline constexpr std::uint64_t TAG_BURSTY = 0x6273745f31ULL; // "bst_1"
inline constexpr std::uint64_t TAG_BOOT = 0x626f6f745fULL; // "boot_"
inline constexpr std::uint64_t TAG_NET_STREAM = 0x6e65745f31ULL; // "net_1"
inline constexpr std::uint64_t TAG_FRAG_CHURN = 0x6672675f31ULL; // "frg_1"
inline constexpr std::uint64_t TAG_BPF_ANY_CONTEXT = 0x6270665f31ULL; // "bpf_1"
inline constexpr std::uint64_t TAG_JEMALLOC_PURGE = 0x6a656d5f31ULL; // "jem_1"
inline constexpr std::uint64_t TAG_IRQ_ALLOC = 0x6972715f31ULL; // "irq_1": the engine's interrupt source

} // namespace pcplab::sim::workloads
