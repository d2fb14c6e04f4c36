// Where the lessons are (lessons::default_lessons_dir) and which one teaches which seed.
#pragma once

#include "lessons/lesson.hpp"

#include "mm/patch_switches.hpp"

#include <QString>
#include <QStringList>

namespace pcplab::ui
{

QString lessons_dir();
// The lesson files (*.md except README.md), sorted by name.
QStringList lesson_files(const QString& dir = lessons_dir());
// The lesson on switch `p`: the file its table entry names (mm::patch_decl::lesson), else a file whose name
// names its scenario ("seed-000", "seed000", "000-"). Empty when there is none yet.
QString lesson_for_patch(mm::patch p, const QString& dir = lessons_dir());
// A lesson's title: its first Markdown heading, else the file name.
QString lesson_title(const QString& path);
// The index in `set` of the lesson `id` names: its id ("03-seed-000-limits-after-deferred-init"), the number
// before its first dash ("03", "3"), its seed ("000"), or its file; -1 when none does.
int find_lesson(const lessons::lesson_set& set, const QString& id);

} // namespace pcplab::ui
