// /proc/zoneinfo and /proc/buddyinfo of one moment, printed when first read.
//
// A snapshot carries one: its source copies the numbers (capture_zoneinfo_source, cheap) and whoever reads the
// texts prints them, once, on its own thread: the recorder's writer, or the window's /proc view. Printing was a
// quarter of a recording's sampling time on the engine's thread. A recording read back carries the texts themselves.
#pragma once

#include "zoneinfo_source.hpp"

#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace pcplab::procfs
{

class procfs_texts
{
public:
    // The numbers of `m` now, printed later.
    static std::shared_ptr<const procfs_texts> capture(const mm::machine& m);
    // Texts already printed (a recording's).
    static std::shared_ptr<const procfs_texts> from_texts(std::string zoneinfo, std::string buddyinfo);

    // Printed at the first call of either, by the calling thread; later calls, from any thread, return the same.
    const std::string& zoneinfo() const;
    const std::string& buddyinfo() const;

private:
    procfs_texts() = default;
    void print() const;

    mutable std::optional<zoneinfo_source> m_source; // until printed
    mutable std::once_flag m_printed;
    mutable std::string m_zoneinfo, m_buddyinfo;
};

} // namespace pcplab::procfs
