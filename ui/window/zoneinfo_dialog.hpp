// File > Open /proc/zoneinfo...: a real machine's /proc/zoneinfo checked against the formulas of every kernel
// that could have printed it, with the explanation, and "Boot this machine", which writes the preset
// preset-from-zoneinfo would and hands its path to the window (which loads it as any --preset path).
#pragma once

#include "procfs/zoneinfo_check.hpp"
#include "procfs/zoneinfo_parse.hpp"

#include <QDialog>
#include <QString>

#include <optional>
#include <string>
#include <vector>

class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace pcplab::ui
{

class zoneinfo_dialog : public QDialog
{
    Q_OBJECT
public:
    explicit zoneinfo_dialog(QWidget* parent = nullptr);

    // Read and check a capture; on failure the dialog shows the one-line error and returns false.
    bool open_file(const QString& path);
    // This computer: /proc/zoneinfo, with the CPUs per node from /sys (Linux). `proc_zoneinfo` and
    // `sys_root` are for tests.
    bool open_this_computer(const QString& proc_zoneinfo = QStringLiteral("/proc/zoneinfo"),
        const QString& sys_root = QStringLiteral("/sys"));

    QString report_text() const; // the check with the explanation, as shown
    bool has_machine() const { return m_preset.has_value(); }
    // Where "Boot this machine" writes presets (default: the application's data folder, machines/).
    void set_preset_dir(const QString& dir) { m_preset_dir = dir; }
    // Write the preset of the capture shown; its path, or an empty string with `error` set.
    QString write_preset(QString* error);

signals:
    void boot_requested(const QString& preset_path);

private:
    bool show_capture(const procfs::zoneinfo_result& parsed, const QString& name, const std::vector<int>& cpus);
    void boot_clicked();

    QLabel* m_title = nullptr;
    QPlainTextEdit* m_text = nullptr;
    QPushButton* m_boot = nullptr;
    QString m_name; // the capture's file name, for the preset's name
    QString m_preset_dir;
    std::optional<std::string> m_preset; // the preset's JSON text
};

} // namespace pcplab::ui
