// The names of the lock callers (lock_ops.hpp), as the kernel functions a profile would show.
#include "lock_ops.hpp"

#include <array>

namespace pcplab::mm
{

std::string_view lock_caller_name(lock_caller c)
{
    static constexpr std::array<std::string_view, static_cast<unsigned>(lock_caller::nr_callers)> names = {
        "rmqueue_bulk",
        "rmqueue",
        "free_pcppages_bulk",
        "free_one_page",
        "drain_pages_zone",
        "drain_zone_pages",
        "decay_pcp_high",
        "deferred_init",
        "memblock_free_all",
        "reclaim",
        "rmqueue_pcplist",
        "free_unref_page_commit",
        "other",
    };
    return names[static_cast<unsigned>(c)];
}

} // namespace pcplab::mm
