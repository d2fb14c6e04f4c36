// The start page of the stories: the five seed stories, each with what it shows and a button that plays it.
// Docked as a tab beside the controls; the Stories menu and Help > The five seeds offer the same.
#pragma once

#include <QWidget>

namespace pcplab::ui
{

class story_list : public QWidget
{
    Q_OBJECT
public:
    explicit story_list(QWidget* parent = nullptr);

signals:
    void story_requested(const QString& seed_id);
};

} // namespace pcplab::ui
