// A 64-bit digest of the allocator state (free lists in order, PCP lists, counters, limits): two machines
// with the same digest hand out the same pages in the same order. Used to prove determinism.
#pragma once

#include "machine.hpp"

#include <cstdint>

namespace pcplab::mm
{

std::uint64_t state_digest(const machine& m);

} // namespace pcplab::mm
