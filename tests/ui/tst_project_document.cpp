// SPDX-License-Identifier: MIT
// Tests of ui/document: undoable edits, validation, project files (round trip, corrupt,
// truncated, newer version), atomic saves and the recovery copy.
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "tests/support/project_choices.h"
#include "ui/document/project_document.h"

using ui::document::CategoricalParams;
using ui::document::CategoricalTrajectory;
using ui::document::ProjectDocument;

namespace {

// Parameters that differ from the example in every field, to catch a field the file forgets.
CategoricalParams everythingChanged() {
    CategoricalParams p = CategoricalParams::example().withNumClasses(5);
    p.pi = {0.1, 0.2, 0.3, 0.15, 0.25};
    p.schedule = test_support::categoricalSchedule("custom");
    p.powerExponent = 3.5;
    p.controlPoints = {{0.2, 0.05}, {0.5, 0.4}, {0.9, 0.95}};
    p.numSteps = 37;
    p.table = {{0.2, 0.2, 0.2, 0.2, 0.2}, {0.5, 0.1, 0.1, 0.1, 0.2}, {0.0, 0.0, 1.0, 0.0, 0.0}};
    p.conditionNames = {"first", "second", "third \"quoted\""};
    p.digitLevels = 8;
    p.condition = 2;
    p.trajectory = CategoricalTrajectory::List;
    p.pathSteps = 4;
    p.trajectoryList = {0, 3, 20, 37};
    p.kernel = core::categorical::KernelForm::D3pm;
    p.numChains = 123;
    p.dataSource = ui::document::CategoricalData::CsvFile;
    p.csvPath = "/some/where/table.csv";
    p.position = 1;
    p.seed = 18446744073709551557ULL;  // the largest 64-bit prime: needs all 64 bits
    return p;
}

}  // namespace

class tst_ProjectDocument : public QObject {
    Q_OBJECT

private slots:
    void exampleIsValid();
    void editsAreUndoable();
    void dragsMergeIntoOneUndoStep();
    void dragsEndAtRelease();
    void invalidParamsAreRefused_data();
    void invalidParamsAreRefused();
    void saveOpenRoundTrip();
    void badFilesChangeNothing_data();
    void badFilesChangeNothing();
    void saveIsAtomicAndMarksClean();
    void recoveryCopyReopens();
};

void tst_ProjectDocument::exampleIsValid() {
    const CategoricalParams p = CategoricalParams::example();
    QVERIFY(p.validate().ok());
    QCOMPARE(p.numClasses, 4);
    QCOMPARE(p.table.size(), size_t{2});
    QVERIFY(p.pi[0] != p.pi[1]);  // a non-uniform π
}

void tst_ProjectDocument::editsAreUndoable() {
    ProjectDocument document;
    QSignalSpy changed(&document, &ProjectDocument::categoricalChanged);
    const CategoricalParams before = document.categorical();
    CategoricalParams after = before;
    after.numSteps = 250;
    QVERIFY(document.setCategorical(after, "N").ok());
    QCOMPARE(document.categorical().numSteps, 250);
    QVERIFY(document.isModified());
    document.undoStack()->undo();
    QVERIFY(document.categorical() == before);
    document.undoStack()->redo();
    QVERIFY(document.categorical() == after);
    QCOMPARE(changed.count(), 3);
    // Setting the same parameters again pushes nothing.
    QVERIFY(document.setCategorical(after, "again").ok());
    QCOMPARE(document.undoStack()->count(), 1);
}

void tst_ProjectDocument::dragsMergeIntoOneUndoStep() {
    ProjectDocument document;
    const CategoricalParams before = document.categorical();
    for (int i = 1; i <= 10; ++i) {
        CategoricalParams p = document.categorical();
        p.pi = {0.4 - 0.01 * i, 0.3, 0.2, 0.1 + 0.01 * i};
        QVERIFY(document.setCategorical(p, "Drag π", 7).ok());
    }
    QCOMPARE(document.undoStack()->count(), 1);
    document.undoStack()->undo();
    QVERIFY(document.categorical() == before);
}

// A drag ends with endDrag: the next drag with the same id is its own step, also after an undo
// (when the step below it came from an earlier drag); a drag back to where it began is no step.
void tst_ProjectDocument::dragsEndAtRelease() {
    ProjectDocument document;
    auto drag = [&](double to) {
        for (int i = 1; i <= 3; ++i) {
            CategoricalParams p = document.categorical();
            const double x = p.pi[0] + (to - p.pi[0]) * i / 3.0;
            p.pi = {x, 0.3, 0.2, 0.5 - x};
            QVERIFY(document.setCategorical(p, "Drag π", 7).ok());
        }
        document.endDrag();
    };
    const CategoricalParams start = document.categorical();
    drag(0.35);
    const CategoricalParams afterFirst = document.categorical();
    drag(0.25);
    QCOMPARE(document.undoStack()->count(), 2);
    document.undoStack()->undo();
    QVERIFY(document.categorical() == afterFirst);
    drag(0.3);  // replaces the undone drag, does not join the first
    QCOMPARE(document.undoStack()->count(), 2);
    document.undoStack()->undo();
    QVERIFY(document.categorical() == afterFirst);
    document.undoStack()->undo();
    QVERIFY(document.categorical() == start);
    // There and back within one drag: nothing to undo.
    ProjectDocument fresh;
    const CategoricalParams origin = fresh.categorical();
    for (const std::vector<double>& pi :
         {std::vector<double>{0.35, 0.3, 0.2, 0.15}, std::vector<double>{0.3, 0.3, 0.2, 0.2}, origin.pi}) {
        CategoricalParams p = fresh.categorical();
        p.pi = pi;
        QVERIFY(fresh.setCategorical(p, "Drag π", 7).ok());
    }
    fresh.endDrag();
    QVERIFY(fresh.categorical() == origin);
    QCOMPARE(fresh.undoStack()->count(), 0);
}

void tst_ProjectDocument::invalidParamsAreRefused_data() {
    QTest::addColumn<QString>("what");
    QTest::addColumn<QString>("field");
    QTest::newRow("pi sums to 0.9") << "pi-sum" << "pi";
    QTest::newRow("pi negative") << "pi-negative" << "pi[1]";
    QTest::newRow("pi NaN") << "pi-nan" << "pi[2]";
    QTest::newRow("table column sums to 2") << "table" << "table[1]";
    QTest::newRow("non-monotone control points") << "schedule" << "points[1]";
    QTest::newRow("trajectory not increasing") << "list" << "trajectoryList[2]";
    QTest::newRow("K out of range") << "K" << "K";
}

void tst_ProjectDocument::invalidParamsAreRefused() {
    QFETCH(QString, what);
    QFETCH(QString, field);
    ProjectDocument document;
    const CategoricalParams before = document.categorical();
    CategoricalParams p = before;
    if (what == "pi-sum") p.pi = {0.3, 0.3, 0.2, 0.1};
    if (what == "pi-negative") p.pi = {0.5, -0.1, 0.4, 0.2};
    if (what == "pi-nan") p.pi = {0.5, 0.1, std::nan(""), 0.2};
    if (what == "table") p.table[1] = {1.0, 0.5, 0.25, 0.25};
    if (what == "schedule") {
        p.schedule = test_support::categoricalSchedule("custom");
        p.controlPoints = {{0.3, 0.5}, {0.6, 0.2}};
    }
    if (what == "list") {
        p.trajectory = CategoricalTrajectory::List;
        p.trajectoryList = {0, 50, 50, 100};
    }
    if (what == "K") p = p.withNumClasses(1);
    const core::Status status = document.setCategorical(p, "bad");
    QVERIFY(!status.ok());
    QVERIFY2(QString::fromStdString(status.error().field).startsWith(field),
             qPrintable(QString::fromStdString(status.error().toString())));
    QVERIFY(document.categorical() == before);
    QCOMPARE(document.undoStack()->count(), 0);
}

void tst_ProjectDocument::saveOpenRoundTrip() {
    QTemporaryDir dir;
    const QString path = dir.filePath("project.diffuscope.json");
    ProjectDocument document;
    QVERIFY(document.setCategorical(everythingChanged(), "everything").ok());
    QVERIFY(document.saveAs(path).ok());

    ProjectDocument reopened;
    QSignalSpy replaced(&reopened, &ProjectDocument::projectReplaced);
    QVERIFY(reopened.open(path).ok());
    QCOMPARE(replaced.count(), 1);
    QVERIFY(reopened.project() == document.project());
    QVERIFY(reopened.categorical().seed == 18446744073709551557ULL);
    // Saving again writes the same bytes: nothing drifts through a round trip.
    const QString second = dir.filePath("second.json");
    QVERIFY(reopened.saveAs(second).ok());
    QFile a(path), b(second);
    QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
    QCOMPARE(a.readAll(), b.readAll());
}

void tst_ProjectDocument::badFilesChangeNothing_data() {
    QTest::addColumn<QByteArray>("contents");
    QTest::addColumn<QString>("expected");
    const QByteArray good = ui::document::projectToJson({});
    QTest::newRow("truncated") << good.left(good.size() / 2) << "truncated";
    QTest::newRow("not json") << QByteArray("hello") << "not a valid project file";
    QTest::newRow("other json") << QByteArray("{\"a\": 1}") << "not a Diffuscope project";
    QByteArray newer = good;
    newer.replace("\"formatVersion\": 1", "\"formatVersion\": 99");
    QTest::newRow("newer version") << newer << "newer Diffuscope";
    QByteArray badPi = good;
    badPi.replace("0.4,", "\"x\",");
    QTest::newRow("pi entry not a number") << badPi << "categorical.pi[0]";
    QByteArray badSum = good;
    badSum.replace("0.4,", "0.9,");
    QTest::newRow("pi does not sum to 1") << badSum << "categorical.pi";
    QTest::newRow("empty") << QByteArray() << "not a valid project file";
}

void tst_ProjectDocument::badFilesChangeNothing() {
    QFETCH(QByteArray, contents);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    const QString path = dir.filePath("bad.json");
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(contents);
    file.close();

    ProjectDocument document;
    CategoricalParams edited = document.categorical();
    edited.numSteps = 42;
    QVERIFY(document.setCategorical(edited, "edit").ok());
    const auto before = document.project();
    const core::Status status = document.open(path);
    QVERIFY(!status.ok());
    const QString message = QString::fromStdString(status.error().toString());
    QVERIFY2(message.contains(expected), qPrintable(message));
    QVERIFY2(message.contains("bad.json"), qPrintable(message));  // says where
    QVERIFY(document.project() == before);
    QCOMPARE(document.undoStack()->count(), 1);  // the user's work is still undoable
}

void tst_ProjectDocument::saveIsAtomicAndMarksClean() {
    QTemporaryDir dir;
    ProjectDocument document;
    CategoricalParams p = document.categorical();
    p.numSteps = 7;
    p.pathSteps = 7;
    QVERIFY(document.setCategorical(p, "edit").ok());
    QVERIFY(document.isModified());
    QVERIFY(document.saveAs(dir.filePath("a.json")).ok());
    QVERIFY(!document.isModified());
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{"a.json"});  // no temp left
    QVERIFY(!document.saveAs(dir.filePath("no/such/folder/a.json")).ok());
}

void tst_ProjectDocument::recoveryCopyReopens() {
    QTemporaryDir dir;
    ProjectDocument document;
    QVERIFY(document.setCategorical(everythingChanged(), "everything").ok());
    QVERIFY(document.writeRecoveryCopy(dir.filePath("recovery.json")).ok());
    QVERIFY(document.isModified());  // a recovery copy is not a save
    ProjectDocument recovered;
    QVERIFY(recovered.open(dir.filePath("recovery.json")).ok());
    QVERIFY(recovered.project() == document.project());
}

QTEST_MAIN(tst_ProjectDocument)
#include "tst_project_document.moc"
