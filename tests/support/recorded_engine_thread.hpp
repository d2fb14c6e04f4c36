// A recording of an engine thread's run: every snapshot the thread publishes goes to a recorder, on the engine's
// thread, as the window's recording tap does for its live source.
#pragma once

#include "support/engine_thread.hpp"

#include "session/recorder.hpp"

#include <memory>

namespace pcplab::test
{

// Chains rec.publish into the options' on_publish (after a callback already there).
inline void record_into(session::recorder& rec, engine_thread_options& opt)
{
    auto previous = std::move(opt.on_publish);
    opt.on_publish = [&rec, previous](const std::shared_ptr<const sim::snapshot>& s) {
        if (previous) previous(s);
        rec.publish(s);
    };
}

} // namespace pcplab::test
