// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

// What each view shows, how to read it and what to try, in words a teacher can say aloud: the
// fixed part of the Explanation pane (the pane adds the view's current numbers).
namespace ui {

struct ViewExplanation {
    QString title;
    QString shows;    // what is drawn, with the formula
    QString read;     // how to read it
    QString tryThis;  // experiments that teach something
};

// The explanation of a view by its export name ("schedule", "gamma", …); empty title when unknown.
ViewExplanation viewExplanation(const QString& viewName);

}  // namespace ui
