// `pcplab --screenshot FILE`: run the window's machine as fast as it goes until a virtual time, pause it exactly
// there (a timed command, so the picture does not depend on the host's speed), show that frame and save the
// window as a PNG.
#pragma once

#include <QSize>
#include <QString>

#include <chrono>
#include <cstdint>

namespace pcplab::ui
{

class main_window;

struct screenshot_request {
    QString file;
    std::uint64_t run_for_ns = 2'000'000'000;
    std::chrono::milliseconds timeout{180'000};
    QSize size{1600, 1000};
};

// Waits (processing events) until every machine of the window has reached run_for (or finished), then saves;
// with a story playing, until its first checkpoint shows. In presenter mode the picture is the full screen of
// that size.
// Returns "" on success, else a one-line message (timeout, engine failure, unwritable file).
QString take_screenshot(main_window& w, const screenshot_request& r);

} // namespace pcplab::ui
