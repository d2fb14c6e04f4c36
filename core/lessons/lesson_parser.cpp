// The shape of a lesson file: a front block between "---" lines, prose, "## " headings that start steps,
// and one ```step fence per step holding "key: value" lines.
#include "lessons/lesson_parser.hpp"

#include "lessons/step_block.hpp"

#include "io/text_file.hpp"
#include "program/data_dirs.hpp"

#include "sim/seed_reference.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>

namespace pcplab::lessons
{

namespace
{

std::vector<std::string> split_lines(const std::string& text)
{
    std::vector<std::string> lines;
    std::string cur;
    for (char c : text) {
        if (c == '\n') {
            if (!cur.empty() && cur.back() == '\r') cur.pop_back();
            lines.push_back(std::move(cur));
            cur.clear();
        } else {
            cur += c;
        }
    }
    if (!cur.empty()) lines.push_back(std::move(cur));
    return lines;
}

bool is_fence(const std::string& line)
{
    return line.rfind("```", 0) == 0;
}

// "key: value" with a lowercase key; false when the line is not of that shape.
bool split_key(const std::string& line, std::string& key, std::string& value, int& value_column)
{
    std::size_t colon = line.find(':');
    if (colon == std::string::npos || colon == 0) return false;
    for (std::size_t i = 0; i < colon; ++i) {
        char c = line[i];
        if (!(std::islower(static_cast<unsigned char>(c)) || c == '_')) return false;
    }
    key = line.substr(0, colon);
    std::size_t v = colon + 1;
    while (v < line.size() && std::isspace(static_cast<unsigned char>(line[v]))) ++v;
    value = trim(line.substr(v));
    value_column = static_cast<int>(v) + 1;
    return true;
}

struct reader {
    std::string file;
    std::vector<std::string> lines;
    std::vector<pcplab::error> errors;

    void error(int line, int column, std::string message)
    {
        errors.push_back(pcplab::error::in(file, std::move(message)).at(line, column));
    }

    // Lines [from, to) as block entries: "key: value", continuation lines indented, '#' comments.
    std::vector<block_entry> entries(std::size_t from, std::size_t to)
    {
        std::vector<block_entry> out;
        for (std::size_t i = from; i < to; ++i) {
            const std::string& raw = lines[i];
            const int line_no = static_cast<int>(i) + 1;
            const std::string t = trim(raw);
            if (t.empty() || t[0] == '#') continue;
            if (std::isspace(static_cast<unsigned char>(raw[0]))) {
                if (out.empty()) {
                    error(line_no, 1, "an indented line continues the previous key, but there is none");
                    continue;
                }
                out.back().more.emplace_back(t, line_no);
                continue;
            }
            block_entry e;
            if (!split_key(raw, e.key, e.value, e.value_column)) {
                error(line_no, 1, "expected 'key: value' (indent a line to continue the previous value)");
                continue;
            }
            e.line = line_no;
            out.push_back(std::move(e));
        }
        return out;
    }

    // The front block: lines 1.. between "---" markers. Returns the index of the first body line.
    std::size_t front(lesson& l)
    {
        std::size_t i = 0;
        while (i < lines.size() && trim(lines[i]).empty()) ++i;
        if (i == lines.size() || trim(lines[i]) != "---") {
            error(static_cast<int>(std::min(i, lines.size())) + 1, 1,
                "a lesson starts with a front block: a line '---', then title:, summary: (and seed:), then '---'");
            return i;
        }
        const std::size_t open = i++;
        std::size_t close = i;
        while (close < lines.size() && trim(lines[close]) != "---") ++close;
        if (close == lines.size()) {
            error(static_cast<int>(open) + 1, 1, "the front block opened here is never closed with '---'");
            return lines.size();
        }
        int title_line = 0, summary_line = 0;
        for (const auto& e : entries(open + 1, close)) {
            auto text = e.value;
            for (const auto& [more, ln] : e.more) text += " " + more;
            if (e.key == "title") {
                l.title = text;
                title_line = e.line;
            } else if (e.key == "summary") {
                l.summary = text;
                summary_line = e.line;
            } else if (e.key == "seed") {
                if (!sim::find_seed_reference(text)) {
                    std::string ids; // from the table, so a new scenario is listed without an edit here
                    for (const auto& r : sim::seed_references()) ids += (ids.empty() ? "" : ", ") + r.id;
                    error(e.line, e.value_column, "seed: '" + text + "' is not a scenario (" + ids + ")");
                } else
                    l.seed = sim::find_seed_reference(text)->id;
            } else {
                error(e.line, 1, "unknown front-block key '" + e.key + "' (title, summary, seed)");
            }
        }
        if (!title_line || l.title.empty()) error(static_cast<int>(open) + 1, 1, "the front block has no title:");
        if (!summary_line || l.summary.empty()) error(static_cast<int>(open) + 1, 1, "the front block has no summary:");
        return close + 1;
    }
};

std::string append_prose(const std::string& prose, const std::string& line)
{
    return prose.empty() && trim(line).empty() ? prose : prose + line + "\n";
}

} // namespace

lesson_result parse_lesson(const std::string& text, const std::string& file)
{
    reader r{file, split_lines(text), {}};
    lesson l;
    l.file = file;
    l.id = std::filesystem::path(file).stem().string();
    std::size_t i = r.front(l);

    lesson_state st;
    st.file = file;
    st.errors = &r.errors;
    step* cur = nullptr;
    bool in_other_fence = false; // inside ``` that is not a step block (example code: no headings there)
    while (i < r.lines.size()) {
        const std::string& line = r.lines[i];
        const int line_no = static_cast<int>(i) + 1;
        if (in_other_fence) {
            if (is_fence(line)) in_other_fence = false;
            if (cur)
                cur->prose += line + "\n";
            else
                l.intro += line + "\n";
            ++i;
            continue;
        }
        if (line.rfind("## ", 0) == 0) {
            l.steps.emplace_back();
            cur = &l.steps.back();
            cur->title = trim(line.substr(3));
            cur->line = line_no;
            ++i;
            continue;
        }
        if (trim(line) == "```step") {
            std::size_t close = i + 1;
            while (close < r.lines.size() && !is_fence(r.lines[close]) && r.lines[close].rfind("## ", 0) != 0) ++close;
            if (close == r.lines.size() || !is_fence(r.lines[close])) {
                r.error(line_no, 1, "truncated block: the ```step opened here is never closed with ```");
                i = close;
                continue;
            }
            if (!cur) {
                r.error(line_no, 1, "a ```step block before the first '## ' step heading");
            } else if (cur->has_block) {
                r.error(line_no, 1,
                    "a second ```step block in step '" + cur->title + "' (line " + std::to_string(cur->line)
                        + "): one per step");
            } else {
                cur->has_block = true;
                cur->block_line = line_no;
                apply_step_block(r.entries(i + 1, close), *cur, st);
            }
            i = close + 1;
            continue;
        }
        if (is_fence(line)) in_other_fence = true;
        if (cur)
            cur->prose = append_prose(cur->prose, line);
        else
            l.intro = append_prose(l.intro, line);
        ++i;
    }
    if (l.steps.empty() && r.errors.empty())
        r.error(static_cast<int>(r.lines.size()), 1, "the lesson has no '## ' steps");
    if (!r.errors.empty()) return r.errors;
    return l;
}

lesson_result load_lesson_file(const std::string& path)
{
    // A lesson is a page of markdown; 4 MiB is far beyond any, and stops /dev/zero or a wrong file early.
    auto text = io::read_text_file(path, 4u << 20);
    if (auto* err = std::get_if<pcplab::error>(&text))
        return std::vector<pcplab::error>{pcplab::error::in(path, err->message)};
    return parse_lesson(std::get<std::string>(text), path);
}

lesson_set load_lessons(const std::string& dir)
{
    lesson_set set;
    set.dir = dir;
    std::vector<std::string> files;
    std::error_code ec;
    if (std::filesystem::exists(dir, ec) && !std::filesystem::is_directory(dir, ec)) {
        files.push_back(dir);
    } else {
        for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
            std::error_code type_ec;
            if (!entry.is_directory(type_ec) && entry.path().extension() == ".md"
                && entry.path().filename() != "README.md")
                files.push_back(entry.path().string());
        }
        if (ec) set.errors.push_back(pcplab::error::in(dir, "cannot read the lessons folder: " + ec.message()));
    }
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
        auto r = load_lesson_file(f);
        if (auto* l = std::get_if<lesson>(&r)) {
            set.lessons.push_back(std::move(*l));
        } else {
            auto& errs = std::get<std::vector<pcplab::error>>(r);
            set.errors.insert(set.errors.end(), errs.begin(), errs.end());
            set.failed_files.push_back(f);
        }
    }
    return set;
}

std::string default_lessons_dir()
{
    return program::find_data_dirs().lessons.string();
}

} // namespace pcplab::lessons
