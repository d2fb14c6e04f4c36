// Presenter mode's large key numbers, in a strip above the views: B against A (or the one machine's values)
// for the headline figures of key_figures.hpp, coloured as the key-figures dock colours them, so that the back
// row can read them. Hidden outside presenter mode.
#pragma once

#include "sim/snapshot.hpp"

#include <QLabel>

namespace pcplab::ui
{

class key_strip : public QLabel
{
    Q_OBJECT
public:
    explicit key_strip(QWidget* parent = nullptr);
    void show_figures(const sim::snapshot& a, const sim::snapshot* b);
};

} // namespace pcplab::ui
