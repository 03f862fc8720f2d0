// SPDX-License-Identifier: MIT
// The schedule box's "diffusers config…": the project's schedule becomes diffusers:FILE, N the
// config's, the trajectory its timestep_spacing at the project's K, in one undo step, with the
// unused keys said on the status line; the project file stores it and reopens exactly.
#include <QComboBox>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include "tests/support/test_support.h"
#include "ui/document/project_document.h"
#include "ui/jobs/job_runner.h"
#include "ui/panels/gaussian_panel.h"

class tst_DiffusersConfigGui : public QObject {
    Q_OBJECT

private slots:
    void pickingAConfig();
    void aConfigANetworkWasNotTrainedUnderIsRefused();
};

void tst_DiffusersConfigGui::pickingAConfig() {
    QTemporaryDir dir;
    const QString config = dir.filePath("scheduler_config.json");
    {
        QFile file(config);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"_class_name": "DDIMScheduler", "num_train_timesteps": 500,
                       "beta_schedule": "scaled_linear", "beta_start": 0.00085,
                       "beta_end": 0.012, "timestep_spacing": "leading", "steps_offset": 1,
                       "clip_sample": false})");
    }
    ui::document::ProjectDocument document;
    ui::jobs::JobRunner files, checks;
    ui::panels::GaussianPanel panel(&document, &files, &checks);
    QSignalSpy notes(&panel, &ui::panels::GaussianPanel::statusNote);
    auto p = document.gaussian();
    p.numSteps = 100;
    p.pathSteps = 8;
    p.data = "toy:ring,n=300";
    DS_VERIFY_OK(document.setGaussian(p, "small"));
    const auto before = document.gaussian();
    const int undoBefore = document.undoStack()->count();

    QVERIFY2(panel.loadDiffusersConfig(config), qPrintable(panel.fieldError("process")));
    const auto& now = document.gaussian();
    QCOMPARE(QString::fromStdString(now.schedule), "diffusers:" + QFileInfo(config).absoluteFilePath());
    QCOMPARE(now.numSteps, 500);
    QCOMPARE(now.trajectorySpec(), std::string("leading:8,offset=1"));  // the project's K
    QCOMPARE(document.undoStack()->count(), undoBefore + 1);
    QCOMPARE(notes.count(), 1);
    QVERIFY2(notes.front().front().toString().contains("keys not used here: clip_sample"),
             qPrintable(notes.front().front().toString()));
    // The Process box says so too, for as long as the config is the schedule.
    bool shown = false;
    for (QLabel* label : panel.findChildren<QLabel*>()) {
        if (label->text() == "Keys of scheduler_config.json not used here: clip_sample") {
            shown = !label->isHidden();
        }
    }
    QVERIFY(shown);

    // Saved and reopened: the same params.
    const QString project = dir.filePath("p.json");
    DS_VERIFY_OK(document.saveAs(project));
    QFile saved(project);
    QVERIFY(saved.open(QIODevice::ReadOnly));
    QVERIFY(saved.readAll().contains("\"diffusers:scheduler_config.json\""));
    ui::document::ProjectDocument reopened;
    DS_VERIFY_OK(reopened.open(project));
    QVERIFY(reopened.gaussian() == document.gaussian());

    // One undo step back to before.
    document.undoStack()->undo();
    QVERIFY(document.gaussian() == before);

    // A config that is not one changes nothing and says why beside the field.
    const QString bad = dir.filePath("bad.json");
    {
        QFile file(bad);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"beta_schedule": "quadratic"})");
    }
    QVERIFY(!panel.loadDiffusersConfig(bad));
    QVERIFY2(panel.fieldError("process").contains("beta_schedule"),
             qPrintable(panel.fieldError("process")));
    QVERIFY(document.gaussian() == before);
}

// Under a network the window refuses a config whose ᾱ differs from the network's training schedule,
// with the command line's message, and keeps the project as it was (it used to go on with the
// exact oracle and a warning); a config of the network's own schedule is taken.
void tst_DiffusersConfigGui::aConfigANetworkWasNotTrainedUnderIsRefused() {
    QTemporaryDir dir;
    const auto write = [&](const QString& name, const char* text) {
        QFile file(dir.filePath(name));
        if (!file.open(QIODevice::WriteOnly) || file.write(text) < 0) return QString();
        return file.fileName();
    };
    ui::document::ProjectDocument document;
    document.loadExample(ui::document::examples().at(2).project);  // the moons and their network
    ui::jobs::JobRunner files, checks;
    ui::panels::GaussianPanel panel(&document, &files, &checks);
    const auto before = document.gaussian();
    QCOMPARE(before.model, std::string("bundled:moons-gaussian.safetensors"));
    QVERIFY2(panel.loadModel(QString::fromStdString(before.model)), qPrintable(panel.fieldError("model")));

    const QString sd = write("sd.json", R"({"num_train_timesteps": 1000,
        "beta_schedule": "scaled_linear", "beta_start": 0.00085, "beta_end": 0.012})");
    QVERIFY(!panel.loadDiffusersConfig(sd));
    const QString message = panel.fieldError("process");
    QVERIFY2(message.contains("bundled:moons-gaussian.safetensors") &&
                 message.contains("trained under the schedule linear") && message.contains(sd),
             qPrintable(message));
    QVERIFY(document.gaussian() == before);

    // The schedule it was trained under, spelt as diffusers spells it: taken.
    const QString linear = write("linear.json", R"({"num_train_timesteps": 1000,
        "beta_schedule": "linear", "beta_start": 0.0001, "beta_end": 0.02})");
    QVERIFY2(panel.loadDiffusersConfig(linear), qPrintable(panel.fieldError("process")));
    QCOMPARE(document.gaussian().model, before.model);
}

QTEST_MAIN(tst_DiffusersConfigGui)
#include "tst_diffusers_config_gui.moc"
