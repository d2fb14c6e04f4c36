// Help windows: text browsers over HTML built from the seed reference and over lesson Markdown.
#include "ui/window/help_dialogs.hpp"

#include "ui/window/lessons.hpp"
#include "ui/window/qt_text.hpp"

#include "program/version.hpp"
#include "sim/seed_reference.hpp"

#include <QDesktopServices>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFile>
#include <QFileInfo>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

#include <cmath>

namespace pcplab::ui
{

namespace
{
QString esc(const std::string& s)
{
    return qs(s).toHtmlEscaped();
}

QString number(const std::optional<double>& v, const std::string& unit)
{
    if (!v) return QStringLiteral("-");
    const double x = *v;
    const QString n = std::abs(x - std::round(x)) < 1e-9 ? QString::number(static_cast<qlonglong>(std::llround(x)))
                                                         : QString::number(x, 'g', 6);
    return n + (unit.empty() ? QString() : QStringLiteral(" ") + esc(unit));
}
} // namespace

QString seeds_html()
{
    QString h = QStringLiteral("<h2>The seeds and later patches</h2><p>Each seed is a kernel patch discussion, and "
                               "005 on are later patches; pcplab has a switch for each. The numbers below are the "
                               "published ones the simulation is compared with (<code>pcplab-cli patches</code> runs "
                               "every scenario off and on).</p>");
    for (const auto& s : sim::seed_references()) {
        h += QStringLiteral("<h3>%1 &mdash; %2</h3>").arg(esc(s.id), esc(s.title));
        if (s.sw)
            h += QStringLiteral("<p><b>%1</b>. Switch <code>%2</code>: %3</p>")
                     .arg(esc(s.author), qs(mm::patch_name(*s.sw)), qs(mm::patch_summary(*s.sw)).toHtmlEscaped());
        else
            h += QObject::tr("<p><b>%1</b>. No switch: the two sides boot with <code>%2</code>.</p>")
                     .arg(esc(s.author), esc(sim::sides_label(s)));
        h += QStringLiteral("<p>Machine: %1<br>Benchmark: %2<br>In pcplab: preset <code>%3</code>, era "
                            "<code>%4</code>, workload <code>%5</code></p>")
                 .arg(esc(s.machine), esc(s.benchmark), esc(s.preset), esc(s.era), esc(s.workload));
        h += QObject::tr("<p><a href=\"story:%1\"><b>Reproduce</b></a>: play story %1, the seed's machine with "
                         "%2 side by side (A, B).</p>")
                 .arg(esc(s.id), esc(sim::sides_label(s)));
        // A sysctl scenario's sides are its two values, not a switch's off and on.
        const QString off_head = s.sysctl ? QObject::tr("at %1").arg(s.sysctl->off) : QObject::tr("off");
        const QString on_head = s.sysctl ? QObject::tr("at %1").arg(s.sysctl->on) : QObject::tr("on");
        h += QStringLiteral("<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\"><tr><th>figure</th><th>%1</th>"
                            "<th>%2</th><th>change</th><th>source</th></tr>")
                 .arg(off_head, on_head);
        for (const auto& f : s.figures) {
            QString change = QStringLiteral("-");
            if (f.change)
                change = f.form == sim::change_form::factor ? QStringLiteral("%1x").arg(*f.change, 0, 'g', 3)
                                                            : QStringLiteral("%1%").arg(*f.change, 0, 'f', 1);
            else
                change = QString::fromLatin1(sim::expected_change_name(f.expect));
            h += QStringLiteral("<tr><td>%1</td><td>%2%3</td><td>%4</td><td>%5</td><td>%6</td></tr>")
                     .arg(esc(f.label), f.off_is_lower_bound ? QStringLiteral("&ge; ") : QString(),
                         number(f.off, f.unit), number(f.on, f.unit), change, esc(f.source));
        }
        h += QStringLiteral("</table>");
    }
    return h;
}

QString about_html()
{
    return QStringLiteral(
        "<h2>pcplab %1</h2><p>A desktop lab for the Linux page allocator's per-CPU page lists: a model "
        "of mm/page_alloc.c (nodes, zones, buddy allocator, per-CPU pagesets, watermarks, deferred "
        "init) running a simulated machine in virtual time, with the five seed patches as "
        "switches.</p><p>Qt %2. The same preset, switches, workload and seed give the same run, bit "
        "for bit.</p><p>Command line: <code>pcplab --help</code>, <code>pcplab-cli help</code>.</p>")
        .arg(QString::fromStdString(program::version_line()).toHtmlEscaped(), QString::fromLatin1(qVersion()));
}

namespace
{
// A modeless window around a text browser, deleted when closed.
QTextBrowser* text_window(QWidget* parent, const QString& title, const QString& object_name)
{
    auto* d = new QDialog(parent);
    d->setObjectName(object_name);
    d->setAttribute(Qt::WA_DeleteOnClose);
    d->setWindowTitle(title);
    auto* lay = new QVBoxLayout(d);
    auto* tb = new QTextBrowser;
    tb->setOpenExternalLinks(true);
    lay->addWidget(tb);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    QObject::connect(buttons, &QDialogButtonBox::rejected, d, &QDialog::close);
    lay->addWidget(buttons);
    d->resize(760, 680);
    d->show();
    return tb;
}
} // namespace

void show_text(QWidget* parent, const QString& title, const QString& html, const QString& object_name)
{
    text_window(parent, title, object_name)->setHtml(html);
}

void show_seeds(QWidget* parent, const std::function<void(const QString&)>& play_story)
{
    QTextBrowser* tb = text_window(parent, QObject::tr("The seeds and later patches"), QStringLiteral("help-seeds"));
    tb->setOpenLinks(false); // story: links play a story; the rest open outside
    QObject::connect(tb, &QTextBrowser::anchorClicked, tb, [play_story](const QUrl& url) {
        if (url.scheme() == QLatin1String("story"))
            play_story(url.path());
        else
            QDesktopServices::openUrl(url);
    });
    tb->setHtml(seeds_html());
}

void show_lesson(QWidget* parent, const QString& path, const QString& missing_for)
{
    QFile f(path);
    if (!path.isEmpty() && f.open(QIODevice::ReadOnly | QIODevice::Text)) {
        QTextBrowser* tb = text_window(parent, lesson_title(path), QStringLiteral("help-lesson"));
        tb->setSearchPaths({QFileInfo(path).absolutePath()});
        tb->setMarkdown(QString::fromUtf8(f.readAll()));
        return;
    }
    const QString dir = lessons_dir();
    QString h = missing_for.isEmpty()
        ? QString()
        : QObject::tr("<p>The lesson on %1 is not written yet.</p>").arg(missing_for.toHtmlEscaped());
    h += QObject::tr("<p>Lessons live in <a href=\"%1\">%2</a>:</p><ul>")
             .arg(QUrl::fromLocalFile(dir).toString(), dir.toHtmlEscaped());
    const QStringList files = lesson_files(dir);
    for (const QString& file : files)
        h += QStringLiteral("<li>%1 (%2)</li>").arg(lesson_title(file).toHtmlEscaped(), QFileInfo(file).fileName());
    if (files.isEmpty()) h += QObject::tr("<li>none yet</li>");
    h += QStringLiteral("</ul>");
    show_text(parent, QObject::tr("Lessons"), h, QStringLiteral("help-lessons"));
}

} // namespace pcplab::ui
