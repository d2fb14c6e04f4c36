// The window's frame loop: poll, append to the histories, show to visible views.
#include "ui/window/frame_pump.hpp"

#include <QEvent>

#include <algorithm>

namespace pcplab::ui
{

frame_pump::frame_pump(QObject* parent)
    : QObject(parent)
{
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, &frame_pump::pump_now);
    set_max_hz(60);
}

void frame_pump::set_max_hz(double hz)
{
    m_hz = std::clamp(hz, 1.0, 60.0);
    m_timer.setInterval(static_cast<int>(1000.0 / m_hz + 0.5));
}

void frame_pump::set_views(const std::vector<view*>& views)
{
    for (const auto& v : m_views)
        if (v) v->removeEventFilter(this);
    m_views.assign(views.begin(), views.end());
    for (view* v : views) {
        v->installEventFilter(this);
        for (view* other : views)
            if (other != v) connect(v, &view::seek_requested, other, &view::seek_to, Qt::UniqueConnection);
    }
}

void frame_pump::set_source(frame_source* s)
{
    m_source = s;
    m_ha.clear();
    m_hb.clear();
    m_a.reset();
    m_b.reset();
    m_have_generation = false;
    m_frames = 0;
    m_taken = 0;
    m_results.clear();
    m_results_total = 0;
    reset_views();
    emit machine_changed();
    if (s)
        m_timer.start();
    else
        m_timer.stop();
}

void frame_pump::reset_views()
{
    for (const auto& v : m_views)
        if (v) v->reset();
}

frame frame_pump::make_frame() const
{
    frame f;
    f.a = m_a;
    f.b = m_b;
    f.ha = &m_ha;
    f.hb = m_b ? &m_hb : nullptr;
    return f;
}

void frame_pump::show_to(view* v, const frame& f)
{
    if (v && f.a && v->isVisible()) v->show_frame(f);
}

void frame_pump::pump_now()
{
    if (!m_source) return;
    bool any = false;
    for (auto& p : m_source->take_published()) {
        if (!p.a) continue;
        ++m_taken;
        // A reboot shows first in A's generation (the engines of a pair reboot together).
        if (m_have_generation && p.a->run.generation != m_generation) {
            m_ha.clear();
            m_hb.clear();
            reset_views();
            emit machine_changed();
        }
        m_generation = p.a->run.generation;
        m_have_generation = true;
        const bool new_a = m_ha.append(*p.a);
        const bool new_b = p.b && m_hb.append(*p.b);
        if (new_a) note_results(*p.a);
        if (new_b) note_results(*p.b);
        any = any || new_a || new_b;
        if (new_a || new_b) emit taken(p);
        m_a = std::move(p.a);
        m_b = std::move(p.b);
    }
    if (!any) return;
    refresh();
    ++m_frames;
    emit frame_shown();
}

void frame_pump::rebuild_history(const std::function<void(history& a)>& fill)
{
    if (!m_source) return;
    m_ha.clear();
    m_hb.clear();
    if (fill) fill(m_ha);
    m_source->take_published(); // what is pending is in the history now
    m_a = m_source->latest_a();
    m_b = m_source->latest_b();
    if (m_b) m_hb.append(*m_b);
    if (m_a) {
        m_generation = m_a->run.generation;
        m_have_generation = true;
    }
    reset_views();
    refresh();
    ++m_frames;
    emit frame_shown();
}

void frame_pump::note_results(const sim::snapshot& s)
{
    for (const auto& r : s.commands) {
        m_results.push_back(r);
        ++m_results_total;
    }
    while (m_results.size() > 64) m_results.pop_front();
}

void frame_pump::refresh()
{
    if (!m_a) return;
    QElapsedTimer t;
    t.start();
    const frame f = make_frame();
    for (const auto& v : m_views) show_to(v, f);
    m_last_show_ms = static_cast<double>(t.nsecsElapsed()) / 1e6;
}

// A view that was hidden (another tab) has not seen the recent frames: give it the current one as it appears.
bool frame_pump::eventFilter(QObject* watched, QEvent* e)
{
    if (e->type() == QEvent::Show && m_a) {
        if (auto* v = qobject_cast<view*>(watched)) show_to(v, make_frame());
    }
    return QObject::eventFilter(watched, e);
}

} // namespace pcplab::ui
