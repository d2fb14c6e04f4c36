// The window's machine: the source the views watch (a live engine, an A/B pair in lockstep, or a replay), the
// setup a live one was built from, and the lifetime of both. Every control that acts on the machine comes
// through here: a preset, era, seed or A/B change reboots (in place when the source can, else a new source
// replaces it); a switch, workload, intensity, sysctl or run control is an engine command. A replaced source
// is stopped on a helper thread and deleted here once it has stopped, so the window never waits for an engine.
#pragma once

#include "ui/live/frame_source.hpp"
#include "ui/live/run_setup.hpp"

#include <QObject>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

class QSettings;

namespace pcplab::ui
{

class frame_pump;

class machine_control : public QObject
{
    Q_OBJECT
public:
    // What a machine of one's own (a lesson step's, a story's) adds to its setup.
    struct extras {
        sim::workload_factory make_load; // its workload with its tunables; empty = the setup's by name
        bool start_paused = false;
        std::optional<double> speed;
        bool remember = true; // saved as the machine to open on next time (a lesson's is the lesson's)
    };

    // `settings` (may be null) keeps the last preset, era, workload and speed.
    machine_control(frame_pump* pump, QSettings* settings, QObject* parent = nullptr);
    ~machine_control() override; // stops the engines and joins every thread it started

    frame_source* source() const { return m_source.get(); }
    bool replaying() const { return m_source && m_source->is_replay(); }
    const run_setup& setup() const { return m_setup; }
    const resolved_setup& resolved() const { return m_resolved; }
    double speed() const { return m_speed; }
    // The speed the user chose (the controls, +/-, the settings): a lesson's or a story's pace is not.
    double own_speed() const { return m_own_speed; }
    // Snapshots of an older generation still carry the switches of before a reboot: the boxes ignore them.
    std::uint64_t sync_from_generation() const { return m_sync_from_generation; }
    std::size_t retiring_sources() const { return m_retired.size(); }
    // Called on an engine thread with every publication of every live source, and the source's serial
    // (increasing): the recorder. Set before the first machine starts.
    void set_publish_hook(std::function<void(std::uint64_t, const published_pair&)> hook);

    // Starts the machine of `s` (in place when the source can reboot with it). Returns "" or the error (also
    // sent as a message); the running machine is kept on error.
    QString apply_setup(const run_setup& s);
    // A machine of one's own: `shown` is what the controls show, `r` the configurations it runs. Back to live
    // boots it again.
    void install_custom(const run_setup& shown, resolved_setup r, extras x);
    // Watch another source (a replay): the current one is stopped, the histories start again.
    void open_source(std::unique_ptr<frame_source> s);
    // A new live machine with the current setup (or the custom one), after a replay.
    void back_to_live();

    void choose_preset(const QString& name);
    void choose_era(const QString& era);
    void choose_seed(quint64 seed);
    void set_ab(bool on);
    // A switch flip as the UI makes it, sent to the engine as sim::cmd::set_patch: `target` a (A, or the single
    // machine) or b. Whether it means anything on the era the engine answers, in the command's result.
    void flip_switch(sim::command_target target, mm::patch p, bool on);
    void set_workload(const QString& name);
    void set_intensity(double x);
    void set_sysctl(mm::vm_sysctl which, long value);
    // `remember`: the user's own speed, kept in the settings as the speed to start with next time (a lesson's
    // pacing is not).
    void set_speed(double vns_per_wall_s, bool remember = true);
    // A lesson or a story was left and its machine keeps running: the user's own speed and intensity are in
    // force again, on it and on the machines that follow (free play is not paced as the lesson was).
    void restore_own_pace();
    void step_speed(int direction); // +1 the next faster speed, -1 the next slower
    // Pause or resume; a run whose workload finished starts again (a reboot: the same machine and switches).
    void play_pause();
    // A story's machines never go still: a workload that finishes starts again at once.
    void set_keep_running(bool on) { m_keep_running = on; }
    bool keep_running() const { return m_keep_running; }
    void step();
    void reboot();
    // Runs the live machine for `ns` of virtual time, then pauses (-1: until the workload finishes). Returns
    // the virtual time at which it pauses; nullopt when the source is not live (a replay).
    std::optional<sim::vtime_ns> run_for(qint64 ns);
    // A snapshot every `every_ns` of virtual time on this and every later live machine (0: the wall-clock rate
    // only): set while recording.
    void set_sample_interval(sim::vtime_ns every_ns);
    // Deletes the replaced sources that have stopped (each frame).
    void reap_retired(bool wait = false);

signals:
    void message(const QString& text, int ms);
    // A setup is in force (controls, title and A/B action show it).
    void setup_changed();
    // The current source is about to be replaced: whatever refers to it lets go.
    void source_leaving();
    // A new source is in place (a replay's UI starts here).
    void source_changed(pcplab::ui::frame_source* s);
    void speed_changed(double vns_per_wall_s);
    // A machine is booting from a new setup: what to say until it runs.
    void boot_started(const QString& text);

private:
    void follow_frame(); // each frame the pump shows
    void install(const run_setup& s, resolved_setup r, const extras& x);
    void replace_source(std::unique_ptr<frame_source> next);
    void retire(std::unique_ptr<frame_source> old);

    frame_pump* m_pump;
    QSettings* m_settings;
    run_setup m_setup; // what runs (a custom machine's as shown)
    run_setup m_free; // the user's own choices: what choosing a preset, era, seed or A/B starts from
    resolved_setup m_resolved;
    std::unique_ptr<frame_source> m_source;
    struct retired {
        std::unique_ptr<frame_source> source;
        std::thread stopper;
        std::shared_ptr<std::atomic<bool>> done;
    };
    std::vector<retired> m_retired;
    std::function<void(std::uint64_t, const published_pair&)> m_publish;
    std::uint64_t m_source_serial = 0;
    struct custom_machine {
        run_setup shown;
        resolved_setup r;
        extras x;
    };
    std::optional<custom_machine> m_custom; // the live machine is a lesson's or a story's, not m_setup's
    bool m_custom_load_running = false; // the source runs a workload of its own: never reboot it with another
    double m_speed = 1e9; // in force now
    double m_own_speed = 1e9; // the user's (set_speed with remember)
    std::uint64_t m_sync_from_generation = 0;
    bool m_keep_running = false;
    sim::vtime_ns m_sample_ns = 0;
    std::optional<std::uint64_t> m_restarted_generation; // keep_running restarted this generation already
};

} // namespace pcplab::ui
