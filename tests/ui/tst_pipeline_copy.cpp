// SPDX-License-Identifier: MIT
// "Copy for diffusers" and "Copy for k-diffusion" in the Trajectory view put exactly the JSON of
// `diffuscope timesteps --as diffusers|k-diffusion` on the clipboard (the CLI's text for the
// same trajectory is checked against the same literal in tst_cli_timesteps).
#include <QApplication>
#include <QClipboard>
#include <QPushButton>
#include <QTableWidget>
#include <QTest>

#include <nlohmann/json.hpp>

#include <cmath>
#include <memory>

#include "core/schedule/diffusers_config.h"
#include "core/schedule/gaussian_schedule.h"
#include "tests/support/test_support.h"
#include "ui/views/gaussian_trajectory_view.h"

class tst_PipelineCopy : public QObject {
    Q_OBJECT

private slots:
    void trajectoryViewCopiesTheCliText();
};

void tst_PipelineCopy::trajectoryViewCopiesTheCliText() {
    ui::views::GaussianTrajectoryView view;
    auto push = [&](const char* name) {
        auto* button = view.findChild<QPushButton*>(name);
        QVERIFY(button != nullptr);
        QApplication::clipboard()->clear();
        button->click();
    };
    // Before a run: nothing to copy.
    QCOMPARE(view.pipelineText(core::schedule::TimestepConvention::Diffusers), QString());

    auto schedule = core::schedule::gaussianScheduleFromSpec("linear", 1000);
    DS_VERIFY_OK(schedule);
    ui::views::GaussianTrajectoryView::Rows rows;
    rows.typed = {1, 500, 1000};
    rows.typedLabel = "list";
    rows.inUse = rows.typed;
    rows.schedule = std::make_shared<const core::schedule::GaussianSchedule>(*schedule);
    auto cost = std::make_shared<const core::Matrix>(core::Matrix::Zero(1000, 1000));
    view.setTrajectories(cost, rows);

    push("copyForDiffusers");
    // What `diffuscope timesteps --trajectory list:1,500,1000 --as diffusers` prints.
    QCOMPARE(QApplication::clipboard()->text(),
             QString("{\"timesteps\":[999,499,0],\"previous\":[666,166,-333]}\n"));

    push("copyForKDiffusion");
    const QString text = QApplication::clipboard()->text();
    QCOMPARE(text, QString::fromStdString(
                       core::schedule::pipelineTimesteps(rows.inUse, *schedule,
                                                         core::schedule::TimestepConvention::KDiffusion)
                           .text));
    // σ = √((1 − ᾱ)/ᾱ) with ᾱ multiplied out from DDPM's linear β, descending, then 0.
    const auto json = nlohmann::json::parse(text.toStdString());
    for (size_t j = 0; j < 3; ++j) {
        const int n = rows.inUse[2 - j];
        double alphaBar = 1.0;
        for (int i = 1; i <= n; ++i) alphaBar *= 1.0 - (1e-4 + (0.02 - 1e-4) * (i - 1) / 999.0);
        DS_COMPARE_REL(json["sigmas"][j].get<double>(), std::sqrt((1.0 - alphaBar) / alphaBar), 1e-9);
    }
    QCOMPARE(json["sigmas"][3].get<double>(), 0.0);
    // With rows of their own (dp, even), the selected row is what is copied, as "Copy" does.
    rows.dp = {1, 10, 1000};
    rows.even = {1, 250, 500, 750, 1000};
    view.setTrajectories(cost, rows);
    view.listing()->setCurrentCell(1, 0);  // even
    push("copyForDiffusers");
    QCOMPARE(QApplication::clipboard()->text(),
             QString("{\"timesteps\":[999,749,499,249,0],\"previous\":[799,549,299,49,-200]}\n"));
    view.listing()->setCurrentCell(0, 0);  // DP
    push("copyForDiffusers");
    QCOMPARE(QApplication::clipboard()->text(),
             QString("{\"timesteps\":[999,9,0],\"previous\":[666,-324,-333]}\n"));
}

QTEST_MAIN(tst_PipelineCopy)
#include "tst_pipeline_copy.moc"
