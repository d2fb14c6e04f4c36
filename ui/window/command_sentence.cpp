// The status bar's sentence for a command result. The result carries the engine's log line (engine_command::
// describe: "<kind> <argument> [A|B] at <ns> ns", the form recordings keep); its argument and the time asked
// for are read back from it, so a replayed run's results read the same as a live one's.
#include "ui/window/command_sentence.hpp"

#include "ui/window/qt_text.hpp"

#include <QCoreApplication>
#include <QRegularExpression>

#include <optional>

namespace pcplab::ui
{

namespace
{

QString tr(const char* s)
{
    return QCoreApplication::translate("command_sentence", s);
}

// The log line's parts after the kind's name.
struct described {
    QString argument; // "batched-bulk-free=on", "100000000 ns/s", "" for run control
    QString side; // "A", "B" or "" (both machines)
    std::optional<std::uint64_t> at_ns; // the time a timed command was asked for
};

described parse(const sim::command_result& r)
{
    // From the end: the time, then the side; what is left after the kind's name is the argument.
    static const QRegularExpression at_re(QStringLiteral(R"( at (\d+) ns$)"));
    static const QRegularExpression side_re(QStringLiteral(R"( \[(A|B)\]$)"));
    described d;
    QString rest = qs(r.what);
    if (const auto m = at_re.match(rest); m.hasMatch()) {
        d.at_ns = m.captured(1).toULongLong();
        rest.chop(m.capturedLength());
    }
    if (const auto m = side_re.match(rest); m.hasMatch()) {
        d.side = m.captured(1);
        rest.chop(m.capturedLength());
    }
    const qsizetype space = rest.indexOf(QLatin1Char(' '));
    if (space >= 0) d.argument = rest.mid(space + 1);
    return d;
}

// "Pause", "Switch batched-bulk-free on", "Speed 0.1x real time": what the command asked for.
QString subject(sim::command_kind k, const QString& arg)
{
    const QString name = arg.section(QLatin1Char('='), 0, 0);
    const QString value = arg.section(QLatin1Char('='), 1);
    switch (k) {
    case sim::command_kind::pause:
        return tr("The pause");
    case sim::command_kind::resume:
        return tr("Resume");
    case sim::command_kind::step_action:
        return tr("The step (one action)");
    case sim::command_kind::step_quantum:
        return tr("The step (one quantum)");
    case sim::command_kind::set_speed: {
        const double v = arg.section(QLatin1Char(' '), 0, 0).toDouble();
        return v > 0 ? tr("Speed %1x real time").arg(v / 1e9, 0, 'g', 3) : tr("Speed \"as fast as possible\"");
    }
    case sim::command_kind::set_quantum:
        return tr("Quantum %1").arg(virtual_time_text(arg.section(QLatin1Char(' '), 0, 0).toULongLong()));
    case sim::command_kind::reboot:
        return tr("The reboot");
    case sim::command_kind::set_patch:
        return tr("Switch %1 %2").arg(name, value);
    case sim::command_kind::set_sysctl:
        return tr("Sysctl %1 = %2").arg(name, value);
    case sim::command_kind::set_workload:
        return tr("Workload %1").arg(arg);
    case sim::command_kind::set_intensity:
        return tr("Intensity %1").arg(arg);
    case sim::command_kind::set_continuous:
        return tr("Continuous rounds %1").arg(arg);
    }
    return arg;
}

// The engine's notes end without a full stop and may start lower case: a sentence's second half.
QString clause(const std::string& message)
{
    QString m = qs(message).trimmed();
    while (m.endsWith(QLatin1Char('.'))) m.chop(1);
    return m;
}

} // namespace

QString virtual_time_text(std::uint64_t ns)
{
    const double ms = static_cast<double>(ns) / 1e6;
    return ms >= 1000 ? tr("%1 s").arg(ms / 1000, 0, 'f', 3) : tr("%1 ms").arg(ms, 0, 'f', 2);
}

QString command_sentence(const sim::command_result& r, bool ab)
{
    const described d = parse(r);
    QString who = subject(r.kind, d.argument);
    if (ab && !d.side.isEmpty()) who += tr(" for machine %1").arg(d.side);
    const QString applied = virtual_time_text(r.applied_at_ns);
    if (!r.ok) {
        const QString asked = d.at_ns ? tr(" at %1 virtual").arg(virtual_time_text(*d.at_ns)) : QString();
        return tr("%1%2 was refused: %3.").arg(who, asked, clause(r.message));
    }
    // A timed command that reached the machine after its time (lockstep_loop notes it "late: ..."; the result's
    // time is the quantum boundary it was applied at, which can read the same as the time asked for).
    if (d.at_ns && (r.message.rfind("late", 0) == 0 || r.applied_at_ns > *d.at_ns))
        return tr("%1 asked for at %2 virtual reached the machine after it had run past that time: it took effect "
                  "at once.")
            .arg(who, virtual_time_text(*d.at_ns));
    // The engine's answer to a flip its era has no use for (engine::set_patch): the switch is set anyway.
    if (r.kind == sim::command_kind::set_patch)
        return tr("%1: %2 (the switch is set, but it changes nothing here).").arg(who, clause(r.message));
    return tr("%1 took effect at %2 virtual: %3.").arg(who, applied, clause(r.message));
}

} // namespace pcplab::ui
