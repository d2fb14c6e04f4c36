// The mouse wheel over a scrolled panel of controls scrolls the panel: a spin box or combo box under the pointer
// takes the wheel only once it has the keyboard focus (clicked or tabbed into). Qt's boxes otherwise take every
// wheel turn that passes over them, so scrolling the controls dock could change the intensity or the preset,
// which reboots the machine, in front of a class.
#pragma once

class QAbstractScrollArea;

namespace pcplab::ui
{

// Guards every spin box and combo box inside `area`'s widget as it is now.
void guard_wheel(QAbstractScrollArea* area);

} // namespace pcplab::ui
