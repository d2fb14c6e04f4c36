// `pcplab-cli run --record FILE`: the same run as execute_run, sampled into a recording (core/session).
#pragma once

#include "run_engine.hpp"

#include "session/hold_sampling.hpp"

#include <string>

namespace pcplab::cli
{

// One run of `req` recorded into `path`: run 0 of a --repeat series creates the file (replacing an older
// recording; any other existing file is refused), later ones append to it. The summary is execute_run's.
// `holds` says which lock holds the file keeps (written into it). Throws cli_error for a file that cannot be
// written.
sim::run_summary execute_recorded_run(
    const run_request& req, const std::string& path, int index, const session::hold_rule& holds = {});

} // namespace pcplab::cli
