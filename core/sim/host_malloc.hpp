// How the host's C library hands memory back. The engine and its snapshots fill and free buffers of hundreds
// of kilobytes at every snapshot (lock holds, events, per-CPU state); glibc by default serves each one with a
// fresh mmap and returns it on free, or trims the heap top, so the host faults in and zeroes the same pages
// again and again: on a 256-CPU machine that keeps its lock holds (the window always does), about a tenth of
// the engine thread's time (pcplab_session_bench). Programs that run the engine call this once at start.
#pragma once

namespace pcplab::sim
{

// Keeps freed memory in the process for reuse (glibc: blocks up to 32 MiB from the heap, which is trimmed only
// past 1 GiB free); the resident size then stays at the run's peak instead of following it down. No effect
// without glibc.
void keep_freed_memory_for_reuse();

} // namespace pcplab::sim
