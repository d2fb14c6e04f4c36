// Where the lessons are (lessons::default_lessons_dir) and which one teaches which seed.
#pragma once

#include "lessons/lesson.hpp"

#include <QString>
#include <QStringList>

namespace pcplab::ui
{

QString lessons_dir();
// The lesson files (*.md except README.md), sorted by name.
QStringList lesson_files(const QString& dir = lessons_dir());
// The lesson on seed `seed` (0..4): a file whose name names the seed ("seed-000", "seed000", "000-"), else the
// lesson numbered as in the lessons issue (seed 000 is lesson 3, ..., seed 004 lesson 7: "3-*.md", "03-*.md").
// Empty when there is none yet.
QString lesson_for_seed(int seed, const QString& dir = lessons_dir());
// A lesson's title: its first Markdown heading, else the file name.
QString lesson_title(const QString& path);
// The index in `set` of the lesson `id` names: its id ("03-seed-000-limits-after-deferred-init"), the number
// before its first dash ("03", "3"), its seed ("000"), or its file; -1 when none does.
int find_lesson(const lessons::lesson_set& set, const QString& id);

} // namespace pcplab::ui
