// Reading lesson files: the front block, the "## " step headings, the ```step blocks and their keys.
// Every problem is reported with the file and line; a file with problems does not load, the others do.
#pragma once

#include "base/error.hpp"
#include "lessons/lesson.hpp"

#include <string>
#include <variant>
#include <vector>

namespace pcplab::lessons
{

using lesson_result = std::variant<lesson, std::vector<pcplab::error>>;

// Parse lesson text (`file` names it in messages and becomes lesson::file).
lesson_result parse_lesson(const std::string& text, const std::string& file);
lesson_result load_lesson_file(const std::string& path);

// Every *.md file of `dir` except README.md, in file-name order (a *.md entry that is not a regular file, a
// FIFO say, is reported as its file's error); or, when `dir` is a file, that one lesson. A folder that cannot be
// read is an error of the set.
lesson_set load_lessons(const std::string& dir);

// The lessons folder (program/data_dirs.hpp: $PCPLAB_LESSONS, else beside $PCPLAB_RESOURCES, else the installed
// share/pcplab/lessons, else the source tree's lessons/).
std::string default_lessons_dir();

} // namespace pcplab::lessons
