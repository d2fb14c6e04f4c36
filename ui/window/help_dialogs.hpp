// The Help menu's windows: the five seeds (from core/sim/seed_reference, the published numbers the simulation is
// checked against), a lesson rendered from its Markdown, the keyboard shortcuts, and About. All are modeless so
// the machine keeps running behind them.
#pragma once

#include <QString>

#include <functional>

class QWidget;

namespace pcplab::ui
{

// What each seed changed, on which machine and benchmark, its published figures, and a "Reproduce" link
// (story:ID) that plays its story.
QString seeds_html();
QString about_html();

// `play_story` is called with a seed id when a Reproduce link is followed.
void show_seeds(QWidget* parent, const std::function<void(const QString&)>& play_story);
// A lesson file; when it does not exist, the lessons folder and what it holds.
void show_lesson(QWidget* parent, const QString& path, const QString& missing_for = {});
void show_text(QWidget* parent, const QString& title, const QString& html, const QString& object_name);

} // namespace pcplab::ui
