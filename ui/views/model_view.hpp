// Model assumptions: the cost model the engine charges (every parameter with what it prices and its source,
// then the rates derived from them, with their formulas), as `pcplab-cli costs` prints it. The model is the
// snapshot's (run_info::costs): the engine's own, overrides included, or in a replay the one its run recorded.
#pragma once

#include "ui/views/view.hpp"

#include <memory>

class QTextBrowser;

namespace pcplab::ui
{

class model_view : public view
{
    Q_OBJECT
public:
    explicit model_view(QWidget* parent = nullptr);
    ~model_view() override;
    QString view_id() const override { return QStringLiteral("model"); }
    QString title() const override { return tr("Model assumptions"); }
    void show_frame(const frame& f) override;
    void reset() override;
    QSize sizeHint() const override { return {720, 420}; }
    QString text() const; // plain text of what is shown; for the tests

private:
    QTextBrowser* m_text;
    QString m_key; // preset + era + switches + model the text was made for
};

} // namespace pcplab::ui
