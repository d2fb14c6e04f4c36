// A plot view's intake of frames: a frame already drawn is skipped, and while the view is hidden (a tab in
// the background) only the newest frame is kept, to be drawn when the view is shown. Hidden views cost nothing.
#pragma once

#include "ui/views/view.hpp"

namespace pcplab::ui
{

class frame_gate
{
public:
    // True when `f` should be drawn now: it has a snapshot and history, differs from the last one drawn, and
    // the view is visible. A frame arriving while hidden is kept (see pending()) and false is returned.
    bool admit(const frame& f, bool visible)
    {
        if (!f.a || !f.ha || (f.a == m_a && f.b == m_b)) return false;
        if (!visible) {
            m_pending = f;
            return false;
        }
        m_pending = frame{};
        m_a = f.a;
        m_b = f.b;
        return true;
    }
    // The frame kept while hidden (its `a` is null when there is none).
    const frame& pending() const { return m_pending; }
    // The next frame is drawn even if it is the one drawn last (the visible span moved).
    void redraw() { m_a.reset(); }
    void reset()
    {
        m_a.reset();
        m_b.reset();
        m_pending = frame{};
    }

private:
    std::shared_ptr<const sim::snapshot> m_a, m_b; // drawn last
    frame m_pending;
};

} // namespace pcplab::ui
