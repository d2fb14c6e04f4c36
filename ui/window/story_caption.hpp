// The caption of a story's checkpoint, under the view it points at: a title, what to say, the figures of A and
// B side by side, and Continue. The window puts it in a row of its own below the view area (over the view it
// hid the lower part of the plots); its fonts follow the application's (presenter mode enlarges them).
#pragma once

#include <QFrame>
#include <QString>

#include <array>
#include <vector>

class QGridLayout;
class QLabel;
class QPushButton;

namespace pcplab::ui
{

class story_caption : public QFrame
{
    Q_OBJECT
public:
    explicit story_caption(QWidget* parent = nullptr);

    // label, A's value, B's value
    using figure_row = std::array<QString, 3>;
    // `sides`: the heads of A's and B's columns ("A: without the patch", or a sysctl's value on each).
    void show_text(const QString& step, const QString& title, const QString& caption,
        const std::array<QString, 2>& sides, const std::vector<figure_row>& figures, bool last);
    QString caption_text() const;
    QString figure_text(int row, int column) const;
    QPushButton* continue_button() const { return m_continue; }

signals:
    void continue_clicked();
    void stop_clicked();

private:
    QLabel* m_step = nullptr;
    QLabel* m_title = nullptr;
    QLabel* m_caption = nullptr;
    QGridLayout* m_figures = nullptr;
    QPushButton* m_continue = nullptr;
    QPushButton* m_stop = nullptr;
};

} // namespace pcplab::ui
