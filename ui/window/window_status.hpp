// The window's status bar: messages (every part's problems and notes), the run state with the virtual time
// reached, the pace achieved, and the commands the engines refused. It also tells when a boot starts and
// ends, for the deferred-init tab that a boot brings forward.
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QString>

#include <cstdint>

class QLabel;
class QStatusBar;

namespace pcplab::ui
{

class frame_pump;

class window_status : public QObject
{
    Q_OBJECT
public:
    window_status(QStatusBar* bar, const frame_pump* pump, QObject* parent = nullptr);

    void show_message(const QString& text, int ms = 8000);
    QString last_message() const { return m_last_message; }
    // Shown until the machine leaves booting.
    void show_boot_message(const QString& text);
    // The newest frame the pump showed (`replay`: the state is the recorded one).
    void show_frame(bool replay);

signals:
    // The boot tab comes forward while booting, and goes back a moment after the boot (modelled vs host time).
    void boot_tab_wanted(bool show);

private:
    void show_refused_commands();
    void keep_width(QLabel* l) const;

    QStatusBar* m_bar;
    const frame_pump* m_pump;
    QLabel* m_state = nullptr;
    QLabel* m_rate = nullptr;
    QString m_last_message;
    QString m_boot_message;
    QElapsedTimer m_clock;
    qint64 m_boot_done_at = 0; // m_clock ms when the last boot was seen finished; -1 while booting
    std::uint64_t m_commands_seen = 0;
};

} // namespace pcplab::ui
