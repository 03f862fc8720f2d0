// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <string>
#include <vector>

#include "ui/document/project_model.h"

// Help ▸ Lessons: guided sequences for a lecture or a student alone. A step is an ordinary
// project (what the student sees, and can save and change) with the view to look at, a short
// text and one thing to try.
namespace ui::lessons {

struct LessonStep {
    QString title;
    QString text;     // HTML: what the view shows now and why
    QString tryThis;  // HTML: one change to make and what it will do
    QString view;     // the view to show, by export name ("trajectories", "gamma", …)
    document::Project project;
    // What Play shows in the Trajectories view: the forward process (data → π) for a step that
    // speaks of it, else the reverse (π → data).
    bool playsForward = false;
    // How far the Particles view zooms in about the origin (1: the whole ±range): a step about
    // where samples land shows the data, not the noise's ±3.
    double particlesZoom = 1.0;
};

struct Lesson {
    QString title;
    QString mathematics;  // the page of Help ▸ Mathematics that derives it ("gaussian.md#gamma")
    std::vector<LessonStep> steps;
};

// Every lesson, in teaching order; the bundled networks are the GUI's (Qt resources).
const std::vector<Lesson>& lessons();

// The table file of lesson 4's pairs, in the application's data folder: (re)written when what
// stands there is not a regular file holding the table (a FIFO, a link to a device, another
// file), without blocking or reading more than a few kB. Its path.
std::string pairsFile();

}  // namespace ui::lessons
