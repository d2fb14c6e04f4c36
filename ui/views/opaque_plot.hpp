// A QCustomPlot that paints each frame once: all layers share one paint buffer, and that buffer is cleared
// with the plot's own (opaque) background instead of transparent. Stock QCustomPlot clears two full-size
// buffers to transparent per replot (the layers up to "legend", and "overlay"), then fills the widget with the
// background and alpha-blends both buffers over it: four full-window passes per frame where one copy does
// (pcplab_gui_bench, meta-1t-316 at 1280x720: about 0.5 ms per plot view and frame).
#pragma once

class QCustomPlot;
class QWidget;

namespace pcplab::ui
{

// A plot that looks and behaves like a stock QCustomPlot (including toPixmap / savePdf, which do not use the
// buffer), for views that replot every frame.
QCustomPlot* make_opaque_plot(QWidget* parent);

} // namespace pcplab::ui
