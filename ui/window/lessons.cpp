// Finding the lesson files; the lesson panel itself belongs to the lessons issue.
#include "ui/window/lessons.hpp"

#include "lessons/lesson_parser.hpp"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTextStream>

namespace pcplab::ui
{

QString lessons_dir()
{
    return QString::fromStdString(lessons::default_lessons_dir());
}

QStringList lesson_files(const QString& dir)
{
    QStringList out;
    const QDir d(dir);
    for (const QString& name : d.entryList({QStringLiteral("*.md")}, QDir::Files, QDir::Name))
        if (name.compare(QLatin1String("README.md"), Qt::CaseInsensitive) != 0) out << d.filePath(name);
    return out;
}

QString lesson_for_patch(mm::patch p, const QString& dir)
{
    const auto& d = mm::patch_info(p);
    const QStringList files = lesson_files(dir);
    const QString stem = QString::fromUtf8(d.lesson.data(), static_cast<qsizetype>(d.lesson.size()));
    for (const QString& f : files)
        if (!stem.isEmpty() && QFileInfo(f).completeBaseName() == stem) return f;
    const QString id = QString::fromUtf8(d.scenario.data(), static_cast<qsizetype>(d.scenario.size()));
    const QRegularExpression names_it(
        QStringLiteral("(^|[^0-9])seed[-_ ]?%1([^0-9]|$)|^%1[-_]").arg(QRegularExpression::escape(id)),
        QRegularExpression::CaseInsensitiveOption);
    for (const QString& f : files)
        if (!id.isEmpty() && names_it.match(QFileInfo(f).completeBaseName()).hasMatch()) return f;
    return {};
}

QString lesson_title(const QString& path)
{
    QFile f(path);
    if (f.open(QIODevice::ReadOnly | QIODevice::Text)) {
        QTextStream in(&f);
        for (int i = 0; i < 40 && !in.atEnd(); ++i) {
            const QString line = in.readLine().trimmed();
            if (line.startsWith(QLatin1Char('#'))) return line.section(QLatin1Char(' '), 1).trimmed();
        }
    }
    return QFileInfo(path).completeBaseName();
}

int find_lesson(const lessons::lesson_set& set, const QString& id)
{
    const QString want = id.trimmed();
    if (want.isEmpty()) return -1;
    const QString want_file = QFileInfo(want).exists() ? QFileInfo(want).canonicalFilePath() : QString();
    for (int pass = 0; pass < 3; ++pass) {
        for (std::size_t i = 0; i < set.lessons.size(); ++i) {
            const auto& l = set.lessons[i];
            const QString lid = QString::fromStdString(l.id);
            bool hit = false;
            if (pass == 0) // the id, or the file itself
                hit = lid == want
                    || (!want_file.isEmpty()
                        && QFileInfo(QString::fromStdString(l.file)).canonicalFilePath() == want_file);
            else if (pass == 1) { // the number: "03" or "3"
                bool ok_a = false, ok_b = false;
                const int a = lid.section(QLatin1Char('-'), 0, 0).toInt(&ok_a), b = want.toInt(&ok_b);
                hit = ok_a && ok_b && a == b && want.size() < 3;
            } else // the seed
                hit = !l.seed.empty() && QString::fromStdString(l.seed) == want;
            if (hit) return static_cast<int>(i);
        }
    }
    return -1;
}

} // namespace pcplab::ui
