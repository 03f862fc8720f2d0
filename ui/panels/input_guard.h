// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>
#include <QPointer>
#include <QSet>
#include <QTimer>
#include <QWidget>
#include <functional>

// Keeps a parameter panel's spin boxes and combo boxes from changing by accident. The wheel and
// the navigation keys (arrows, Page Up/Down, Home, End) act only on a field the user has clicked
// since it got focus; over any other field the wheel scrolls the panel. The ticks of one wheel
// gesture form one undo step: while it lasts the field carries kWheelGesture, which ParamEdits
// turns into one merge id, and when it ends (a pause) the step is closed.
namespace ui::panels {

class InputGuard : public QObject {
public:
    // The dynamic property a field carries during a wheel gesture.
    static constexpr const char* kWheelGesture = "diffuscopeWheelGesture";
    // Pause that ends a wheel gesture.
    static constexpr int kGestureEndMs = 600;

    // Guards every spin box and combo box below root (created before this call); endGesture
    // closes the undo step of a wheel gesture (the document's endDrag).
    static InputGuard* install(QWidget* root, std::function<void()> endGesture);
    // The undo merge id of a wheel gesture on this field.
    static int wheelMergeId(const QObject* field);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    InputGuard(QWidget* root, std::function<void()> endGesture);
    void endGesture();

    std::function<void()> m_endGesture;
    QSet<QObject*> m_armed;            // clicked since they got focus
    QPointer<QWidget> m_gestureField;  // the field of the running wheel gesture
    QTimer m_gestureTimer;
};

}  // namespace ui::panels
