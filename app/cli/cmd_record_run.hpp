// `pcplab-cli run --record FILE`: the same run as execute_run, sampled into a recording (core/session).
#pragma once

#include "run_engine.hpp"

#include "session/hold_sampling.hpp"

#include <string>

namespace pcplab::cli
{

// One run and its recording: the summary is execute_run's; `error` says why the file could not be written to
// the end (then the run stopped at the first failed write, stop reason "recording failed", and the file keeps
// what was committed before it), empty when it was.
struct recorded_run {
    sim::run_summary summary;
    std::string error;
};

// One run of `req` recorded into `path`: run 0 of a --repeat series creates the file (replacing an older
// recording; any other existing file is refused), later ones append to it. `holds` says which lock holds the
// file keeps (written into it). Throws cli_error for a file that cannot be recorded to at all.
recorded_run execute_recorded_run(
    const run_request& req, const std::string& path, int index, const session::hold_rule& holds = {});

} // namespace pcplab::cli
