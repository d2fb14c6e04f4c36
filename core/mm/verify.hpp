// verify(): the debug check that walks every free list, PCP list and frame and proves page conservation.
#pragma once

#include "machine.hpp"

#include <string>
#include <vector>

namespace pcplab::mm
{

struct verify_result {
    std::vector<std::string> errors; // empty when consistent
    unsigned long free_pages = 0;
    unsigned long pcp_pages = 0;
    unsigned long allocated_pages = 0;
    bool ok() const { return errors.empty(); }
};

// Every frame of every zone is in exactly one place (a buddy list at one order, a PCP list, allocated,
// reserved or not yet initialised); nr_free, nr_free_pages and pcp->count agree with the lists; no two
// free buddies are left unmerged where the era merges; managed = buddy + pcp + allocated.
verify_result verify(const machine& m);

} // namespace pcplab::mm
