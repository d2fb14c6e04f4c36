#include "ui/window/zoneinfo_dialog.hpp"

#include "ui/window/qt_text.hpp"

#include "procfs/host_layout.hpp"
#include "sim/preset_from_zoneinfo.hpp"

#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSaveFile>
#include <QStandardPaths>
#include <QVBoxLayout>

namespace pcplab::ui
{

zoneinfo_dialog::zoneinfo_dialog(QWidget* parent)
    : QDialog(parent)
    , m_preset_dir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/machines"))
{
    setWindowTitle(tr("A real machine's /proc/zoneinfo"));
    resize(1000, 720);
    m_title = new QLabel(tr("Open a /proc/zoneinfo capture, or read this computer's."), this);
    m_title->setWordWrap(true);
    m_text = new QPlainTextEdit(this);
    m_text->setReadOnly(true);
    m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));

    auto* open = new QPushButton(tr("Open file..."), this);
    auto* here = new QPushButton(tr("This computer"), this);
    here->setToolTip(tr("Read /proc/zoneinfo and the CPUs of each node from /sys"));
    m_boot = new QPushButton(tr("Boot this machine"), this);
    m_boot->setToolTip(tr("Write a preset with this machine's nodes, zones, CPUs and era, and boot it"));
    m_boot->setEnabled(false);
    auto* close = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(close, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(open, &QPushButton::clicked, this, [this] {
        const QString f = QFileDialog::getOpenFileName(this, tr("Open /proc/zoneinfo"), QString(), tr("All files (*)"));
        if (!f.isEmpty()) open_file(f);
    });
    connect(here, &QPushButton::clicked, this, [this] { open_this_computer(); });
    connect(m_boot, &QPushButton::clicked, this, &zoneinfo_dialog::boot_clicked);

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(open);
    buttons->addWidget(here);
    buttons->addStretch(1);
    buttons->addWidget(m_boot);
    buttons->addWidget(close);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_title);
    layout->addWidget(m_text, 1);
    layout->addLayout(buttons);
}

bool zoneinfo_dialog::open_file(const QString& path)
{
    return show_capture(procfs::load_zoneinfo_file(path.toStdString()), QFileInfo(path).fileName(), {});
}

bool zoneinfo_dialog::open_this_computer(const QString& proc_zoneinfo, const QString& sys_root)
{
    return show_capture(procfs::load_zoneinfo_file(proc_zoneinfo.toStdString()), QStringLiteral("this-computer"),
        procfs::sysfs_cpus_per_node(sys_root.toStdString()));
}

bool zoneinfo_dialog::show_capture(
    const procfs::zoneinfo_result& parsed, const QString& name, const std::vector<int>& cpus)
{
    m_preset.reset();
    m_boot->setEnabled(false);
    if (const auto* err = std::get_if<pcplab::error>(&parsed)) {
        m_title->setText(tr("Cannot read it: %1").arg(qs(err->str())));
        m_text->clear();
        return false;
    }
    const auto& doc = std::get<procfs::zoneinfo_doc>(parsed);
    procfs::check_options opt;
    opt.explain = true;
    opt.cpus_per_node = cpus;
    const procfs::check_report rep = procfs::check_zoneinfo(doc, opt);
    const sim::zoneinfo_preset preset
        = sim::preset_from_zoneinfo(doc, rep, procfs::cpus_per_node_of(doc, cpus, nullptr), name.toStdString());
    m_name = name;
    m_preset = preset.json;
    m_title->setText(tr("%1: %2 of %3 pagesets match, %4 explained, %5 differ. Boots as era %6")
                         .arg(name)
                         .arg(rep.matched)
                         .arg(rep.total)
                         .arg(rep.explained)
                         .arg(rep.mismatched)
                         .arg(qs(preset.era)));
    QString text = qs(rep.text());
    for (const auto& n : preset.notes) text += tr("\npreset: not reproduced: %1").arg(qs(n));
    m_text->setPlainText(text);
    m_boot->setEnabled(true);
    return true;
}

QString zoneinfo_dialog::report_text() const
{
    return m_title->text() + QStringLiteral("\n") + m_text->toPlainText();
}

QString zoneinfo_dialog::write_preset(QString* error)
{
    if (!m_preset) {
        if (error) *error = tr("no capture is open");
        return {};
    }
    if (!QDir().mkpath(m_preset_dir)) {
        if (error) *error = tr("%1: cannot be created").arg(m_preset_dir);
        return {};
    }
    // One preset per capture name, replaced whole (QSaveFile writes beside it and renames).
    QString base = QFileInfo(m_name).completeBaseName();
    if (base.isEmpty()) base = QStringLiteral("machine");
    const QString path = QDir(m_preset_dir).filePath(base + QStringLiteral(".json"));
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(QByteArray::fromStdString(*m_preset)) < 0 || !f.commit()) {
        if (error) *error = tr("%1: cannot be written (%2)").arg(path, f.errorString());
        return {};
    }
    return path;
}

void zoneinfo_dialog::boot_clicked()
{
    QString error;
    const QString path = write_preset(&error);
    if (path.isEmpty()) {
        m_title->setText(tr("Cannot boot it: %1").arg(error));
        return;
    }
    emit boot_requested(path);
    accept();
}

} // namespace pcplab::ui
