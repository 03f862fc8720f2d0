// SPDX-License-Identifier: MIT
// Tests of core/data/toys: each 2-D toy has its shape, is deterministic per seed, prefix-stable,
// and reachable through the `toy:` data spec.
#include <QTest>

#include <cmath>

#include "core/data/gaussian_data.h"
#include "core/model/oracle_specs.h"
#include "core/data/toys.h"
#include "tests/support/test_support.h"

using core::data::Toy;

class tst_Toys : public QObject {
    Q_OBJECT

private slots:
    void shapes_data();
    void shapes();
    void deterministicAndPrefixStable();
    void specs_data();
    void specs();
};

void tst_Toys::shapes_data() {
    QTest::addColumn<QString>("name");
    for (const char* name : {"moons", "checkerboard", "swissroll", "ring"}) {
        QTest::newRow(name) << name;
    }
}

// Properties each toy must have, checked on 4000 points.
void tst_Toys::shapes() {
    QFETCH(QString, name);
    const auto toy = core::data::parseToy(name.toStdString());
    DS_VERIFY_OK(toy);
    const core::Matrix points = core::data::makeToy(*toy, 4000, 7);
    QCOMPARE(points.rows(), 2);
    QCOMPARE(points.cols(), 4000);
    QVERIFY(points.allFinite());
    QVERIFY2(points.cwiseAbs().maxCoeff() < 1.3, "a toy leaves [−1.3, 1.3]²");
    if (*toy == Toy::Checkerboard) {
        for (int i = 0; i < points.cols(); ++i) {
            const int column = static_cast<int>(std::floor((points(0, i) + 1.0) * 2.0));
            const int row = static_cast<int>(std::floor((points(1, i) + 1.0) * 2.0));
            QVERIFY2((column + row) % 2 == 0, "a point on a light square");
        }
    }
    if (*toy == Toy::Ring) {
        // Radii 0.7 ± 0.03: the mean within 5 standard errors (0.03/√4000 ≈ 4.7e−4).
        double sum = 0.0;
        for (int i = 0; i < points.cols(); ++i) {
            sum += points.col(i).norm();
        }
        DS_COMPARE_ABS(sum / points.cols(), 0.7, 5 * 0.03 / std::sqrt(4000.0));
    }
    if (*toy == Toy::Moons) {
        // Both moons are present: points above and below the line between them.
        const int upper = static_cast<int>((points.row(1).array() > 0.0).count());
        QVERIFY(upper > 1000 && upper < 3000);
    }
    if (*toy == Toy::SwissRoll) {
        // Radius grows with the angle: from 1.5π/4.5π = 1/3 to 1.
        const double smallest = points.colwise().norm().minCoeff();
        QVERIFY2(smallest > 0.25, qPrintable(QString("inner radius %1").arg(smallest)));
    }
}

void tst_Toys::deterministicAndPrefixStable() {
    const core::Matrix a = core::data::makeToy(Toy::Moons, 500, 3);
    const core::Matrix b = core::data::makeToy(Toy::Moons, 1000, 3);
    const core::Matrix c = core::data::makeToy(Toy::Moons, 500, 4);
    QVERIFY(a == b.leftCols(500));
    QVERIFY(a != c);
}

void tst_Toys::specs_data() {
    QTest::addColumn<QString>("spec");
    QTest::addColumn<bool>("ok");
    QTest::newRow("plain") << "toy:ring" << true;
    QTest::newRow("count and seed") << "toy:checkerboard,n=300,seed=9" << true;
    QTest::newRow("unknown toy") << "toy:spiral" << false;
    QTest::newRow("bad count") << "toy:moons,n=abc" << false;
    QTest::newRow("negative count") << "toy:moons,n=-5" << false;
    QTest::newRow("unknown key") << "toy:moons,k=5" << false;
}

void tst_Toys::specs() {
    QFETCH(QString, spec);
    QFETCH(bool, ok);
    const auto oracle = core::model::gaussianOracleFromSpec(spec.toStdString());
    QCOMPARE(oracle.ok(), ok);
    if (ok) {
        const core::model::GaussianEpsModel& model = **oracle;
        QCOMPARE(model.dimension(), 2);
    } else {
        QVERIFY(!oracle.error().message.empty());
    }
}

QTEST_GUILESS_MAIN(tst_Toys)
#include "tst_toys.moc"
