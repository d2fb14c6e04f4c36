// The newest published value, shared between one publisher and any number of readers. The mutex is held
// only to copy or swap a shared_ptr (a reference-count increment), never while a snapshot is built or
// freed, so neither side can hold the other up for longer than that. (std::atomic<std::shared_ptr> does
// the same with a spin bit; this form is also understood by ThreadSanitizer.)
#pragma once

#include <memory>
#include <mutex>

namespace pcplab::test
{

template <typename T> class latest_slot
{
public:
    std::shared_ptr<const T> load() const
    {
        std::lock_guard lk(m_mutex);
        return m_value;
    }
    void store(std::shared_ptr<const T> v)
    {
        {
            std::lock_guard lk(m_mutex);
            m_value.swap(v);
        }
        // `v` now holds the previous value; if this was its last reference it is freed here, unlocked.
    }

private:
    mutable std::mutex m_mutex;
    std::shared_ptr<const T> m_value;
};

} // namespace pcplab::test
