// What the controls dock shows during a replay: the setup the recording was made with (its runs' headers), so
// that the preset, era, switches and workload on screen are the recording's, not the live machine's.
#pragma once

#include "ui/live/run_setup.hpp"

namespace pcplab::session
{
struct run_record;
}

namespace pcplab::ui
{

struct recorded_setup {
    run_setup setup; // preset, requested era, every recorded switch (B's on top in A/B), workload, intensity, seed
    resolved_setup resolved; // as resolve_setup gives it, or built from the header alone for an unknown preset
};

// `b` is the B run of an A/B recording, else null.
recorded_setup setup_of_recording(const session::run_record& a, const session::run_record* b);

} // namespace pcplab::ui
