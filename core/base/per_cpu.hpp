// One value per possible CPU, indexed by the CPU's number as the kernel's per_cpu(var, cpu) and
// per_cpu_ptr(ptr, cpu) are. A CPU number is an `int` everywhere in pcplab, as it is in the kernel (and -1 is
// "no CPU" in lock holders and events); this type is the one place that turns a CPU number into an index, so
// code that keeps something per CPU needs no cast and an out-of-range CPU is caught in debug builds.
#pragma once

#include <cassert>
#include <cstddef>
#include <utility>
#include <vector>

namespace pcplab
{

template <typename T> class per_cpu
{
public:
    using value_type = T;
    using iterator = typename std::vector<T>::iterator;
    using const_iterator = typename std::vector<T>::const_iterator;

    per_cpu() = default;
    explicit per_cpu(int nr_cpu_ids, const T& value = T{})
        : m_values(index(nr_cpu_ids), value)
    {
    }

    void assign(int nr_cpu_ids, const T& value) { m_values.assign(index(nr_cpu_ids), value); }
    void clear() { m_values.clear(); }
    void reserve(int nr_cpu_ids) { m_values.reserve(index(nr_cpu_ids)); }
    // For values that cannot be copied into place (one per CPU, in CPU order).
    template <typename... Args> T& emplace_back(Args&&... args)
    {
        return m_values.emplace_back(std::forward<Args>(args)...);
    }

    T& operator[](int cpu)
    {
        assert(cpu >= 0 && index(cpu) < m_values.size());
        return m_values[index(cpu)];
    }
    const T& operator[](int cpu) const
    {
        assert(cpu >= 0 && index(cpu) < m_values.size());
        return m_values[index(cpu)];
    }
    // The CPU whose value `v` is (v must be one of ours): this_cpu_ptr's inverse.
    int cpu_of(const T& v) const
    {
        assert(&v >= m_values.data() && &v < m_values.data() + m_values.size());
        return static_cast<int>(&v - m_values.data());
    }

    int nr_cpus() const { return static_cast<int>(m_values.size()); }
    std::size_t size() const { return m_values.size(); }
    bool empty() const { return m_values.empty(); }
    iterator begin() { return m_values.begin(); }
    iterator end() { return m_values.end(); }
    const_iterator begin() const { return m_values.begin(); }
    const_iterator end() const { return m_values.end(); }
    T* data() { return m_values.data(); }
    const T* data() const { return m_values.data(); }
    // The values in CPU order, for an interface that hands out a plain vector (engine::cpus()).
    const std::vector<T>& values() const { return m_values; }

private:
    static std::size_t index(int cpu) { return static_cast<std::size_t>(cpu); }

    std::vector<T> m_values;
};

} // namespace pcplab
