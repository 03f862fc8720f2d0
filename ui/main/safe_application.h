// SPDX-License-Identifier: MIT
#pragma once

#include <QApplication>

namespace ui {

// The GUI's QApplication with a safety net: an exception that escapes an event handler or a
// slot (std::bad_alloc from a huge allocation, any std::exception) is reported in a message
// box and the event is dropped, instead of ending the program with the user's unsaved work.
class SafeApplication : public QApplication {
    Q_OBJECT
public:
    using QApplication::QApplication;
    bool notify(QObject* receiver, QEvent* event) override;

    // The number of exceptions caught so far (for tests).
    int caughtCount() const { return m_caught; }

private:
    void report(const QString& message);

    int m_caught = 0;
    bool m_reporting = false;  // one dialog at a time; later errors go to the log
};

}  // namespace ui
