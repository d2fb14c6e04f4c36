// A read-only monospace text pane that paints only the lines in view, so replacing thousands of lines (the
// zoneinfo of 316 CPUs) costs one pass to find the line starts instead of a text document layout. Copy all
// from the context menu or with Ctrl+C.
#pragma once

#include <QAbstractScrollArea>

#include <memory>
#include <string>
#include <vector>

namespace pcplab::ui
{

class text_pane : public QAbstractScrollArea
{
    Q_OBJECT
public:
    explicit text_pane(QWidget* parent = nullptr);
    // Shares the string (snapshots hand out immutable texts); the scroll position is kept.
    void set_text(std::shared_ptr<const std::string> text);
    void set_text(std::string text) { set_text(std::make_shared<const std::string>(std::move(text))); }
    void clear() { set_text(std::shared_ptr<const std::string>{}); }
    QString text() const;
    const std::string* raw() const { return m_text.get(); }
    int line_count() const { return static_cast<int>(m_lines.size()); }

protected:
    void paintEvent(QPaintEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;
    void keyPressEvent(QKeyEvent* e) override;
    void contextMenuEvent(QContextMenuEvent* e) override;

private:
    void update_scrollbars();
    void copy_all() const;

    std::shared_ptr<const std::string> m_text;
    std::vector<std::size_t> m_lines; // offset of each line's start
    int m_longest = 0; // characters of the longest line
};

} // namespace pcplab::ui
