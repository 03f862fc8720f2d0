// SPDX-License-Identifier: MIT
// Tests of core/util: the counter-based RNG, the parallel funnel, Progress and Result.
#include <QTest>

#include <atomic>
#include <chrono>
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "core/util/limits.h"
#include "core/util/number_text.h"
#include "core/util/parallel.h"
#include "core/util/parallel_wavefront.h"
#include "core/util/progress.h"
#include "core/util/result.h"
#include "core/util/rng.h"
#include "tests/support/test_support.h"

class tst_Util : public QObject {
    Q_OBJECT

private slots:
    void errorsAreOneLine();
    void philoxKnownAnswers_data();
    void philoxKnownAnswers();
    void rngIsAPureFunctionOfItsKey();
    void uniformMoments();
    void normalMoments();
    void categoricalFrequencies();
    void parallelSumSameForAnyThreadCount_data();
    void parallelSumSameForAnyThreadCount();
    void parallelForVisitsEveryIndexOnce();
    void parallelForRethrowsTheFirstBlockError();
    void parallelLoopsUseSeveralThreads();
    void shortWorkStaysOnTheCaller();
    void nestedAndConcurrentLoopsFinish();
    void blocksAreTheSameForOneTwoThreeThreads();
    void blocksStartInIncreasingOrder();
    void lowestBlockErrorAfterEveryBlock();
    void cancelSkipsTheRemainingBlocks();
    void defaultThreadsFollowOmpNumThreads();
    void wavefrontRunsEveryCellAfterItsPredecessors();
    void wavefrontErrorsAndCancel();
    void progressCancelIsSticky();
    void resultCarriesValueOrError();
    void readableNumbers();
};

// What a field shows: the fewest digits that read back to the value up to rounding noise, and
// four significant digits for a value with no short form; each form reads back within that.
void tst_Util::readableNumbers() {
    QCOMPARE(core::readableText(0.1 + 0.2), std::string("0.3"));  // 0.30000000000000004
    QCOMPARE(core::readableText(0.9 * 0.25), std::string("0.225"));
    QCOMPARE(core::readableText(0.05 * 3.0), std::string("0.15"));  // 0.15000000000000002
    QCOMPARE(core::readableText(1.0 / 3.0), std::string("0.3333"));
    QCOMPARE(core::readableText(2.0 / 3.0), std::string("0.6667"));
    QCOMPARE(core::readableText(0.12345), std::string("0.12345"));  // typed so: kept
    QCOMPARE(core::readableText(1e-7), std::string("1e-07"));
    QCOMPARE(core::readableText(1234.5), std::string("1234.5"));
    QCOMPARE(core::readableText(0.0), std::string("0"));
    QCOMPARE(core::readableText(-0.25), std::string("-0.25"));
    for (double v : {0.1 + 0.2, 0.05 * 3.0, 0.12345, 1e-7}) {
        const double back = std::stod(core::readableText(v));
        QVERIFY(std::abs(back - v) <= 4e-16 * std::abs(v));
    }
}

// Known-answer vectors of Philox4x32-10 from the Random123 distribution (kat_vectors).
// Whatever an error's parts hold, its text is one line: a line break typed into a spec, a tab
// or another control byte in a file's field are written as escapes (found by fuzz_specs: a
// sampler spec with line breaks printed them raw).
void tst_Util::errorsAreOneLine() {
    const core::Error error{.field = "sampler", .value = "x,y\n0.1\t2\r", .message = "bad\x01\x7f"};
    QCOMPARE(QString::fromStdString(error.toString()), QString("sampler = x,y\\n0.1\\t2\\r: bad\\x01\\x7f"));
    // Text without control bytes (UTF-8 included) is left as it is.
    const core::Error plain{.field = "σ²", .value = "1e-3", .message = "too small"};
    QCOMPARE(plain.toString(), std::string("σ² = 1e-3: too small"));
}

void tst_Util::philoxKnownAnswers_data() {
    QTest::addColumn<QList<uint>>("counter");
    QTest::addColumn<QList<uint>>("key");
    QTest::addColumn<QList<uint>>("expected");
    QTest::newRow("zeros") << QList<uint>{0, 0, 0, 0} << QList<uint>{0, 0}
                           << QList<uint>{0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u};
    QTest::newRow("ones") << QList<uint>{0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu}
                          << QList<uint>{0xffffffffu, 0xffffffffu}
                          << QList<uint>{0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu};
    QTest::newRow("pi") << QList<uint>{0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u}
                        << QList<uint>{0xa4093822u, 0x299f31d0u}
                        << QList<uint>{0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u};
}

void tst_Util::philoxKnownAnswers() {
    QFETCH(QList<uint>, counter);
    QFETCH(QList<uint>, key);
    QFETCH(QList<uint>, expected);
    const auto out = core::CounterRng::philox({counter[0], counter[1], counter[2], counter[3]},
                                              {key[0], key[1]});
    for (int i = 0; i < 4; ++i) {
        QCOMPARE(out[i], expected[i]);
    }
}

void tst_Util::rngIsAPureFunctionOfItsKey() {
    core::CounterRng a(42, 7, 3);
    core::CounterRng b(42, 7, 3);
    core::CounterRng otherStream(42, 8, 3);
    core::CounterRng otherStep(42, 7, 4);
    core::CounterRng otherSeed(43, 7, 3);
    for (int i = 0; i < 16; ++i) {
        const uint64_t x = a.nextU64();
        QCOMPARE(x, b.nextU64());
        QVERIFY(x != otherStream.nextU64());
        QVERIFY(x != otherStep.nextU64());
        QVERIFY(x != otherSeed.nextU64());
    }
}

// Mean 1/2 and variance 1/12; with n = 200000 the standard error of the mean is
// sqrt(1/12/n) ≈ 6.5e−4, so 5 standard errors is 3.2e−3 (fails by chance with p < 1e−6).
void tst_Util::uniformMoments() {
    const int n = 200000;
    double sum = 0.0;
    double sumSq = 0.0;
    for (int i = 0; i < n; ++i) {
        core::CounterRng rng(1, static_cast<uint64_t>(i), 0);
        const double u = rng.uniform();
        QVERIFY(u > 0.0 && u < 1.0);
        sum += u;
        sumSq += u * u;
    }
    const double mean = sum / n;
    DS_COMPARE_ABS(mean, 0.5, 5 * std::sqrt(1.0 / 12.0 / n));
    DS_COMPARE_ABS(sumSq / n - mean * mean, 1.0 / 12.0, 5 * std::sqrt(1.0 / 180.0 / n));
}

// Mean 0, variance 1, fourth moment 3; standard errors sqrt(1/n), sqrt(2/n), sqrt(96/n).
void tst_Util::normalMoments() {
    const int n = 200000;
    double m1 = 0.0;
    double m2 = 0.0;
    double m4 = 0.0;
    core::CounterRng rng(5, 0, 0);
    for (int i = 0; i < n; ++i) {
        const double z = rng.normal();
        m1 += z;
        m2 += z * z;
        m4 += z * z * z * z;
    }
    DS_COMPARE_ABS(m1 / n, 0.0, 5 * std::sqrt(1.0 / n));
    DS_COMPARE_ABS(m2 / n, 1.0, 5 * std::sqrt(2.0 / n));
    DS_COMPARE_ABS(m4 / n, 3.0, 5 * std::sqrt(96.0 / n));
}

// Pearson chi-square with 3 degrees of freedom: P(χ² > 21.1) = 1e−4.
void tst_Util::categoricalFrequencies() {
    const std::vector<double> p = {0.1, 0.0, 0.2, 0.3, 0.4};
    std::vector<int> counts(p.size(), 0);
    const int n = 100000;
    for (int i = 0; i < n; ++i) {
        core::CounterRng rng(9, static_cast<uint64_t>(i), 1);
        ++counts[static_cast<size_t>(rng.categorical(p))];
    }
    QCOMPARE(counts[1], 0);
    double chiSquare = 0.0;
    for (size_t k = 0; k < p.size(); ++k) {
        if (p[k] > 0) {
            const double expected = p[k] * n;
            chiSquare += (counts[k] - expected) * (counts[k] - expected) / expected;
        }
    }
    QVERIFY2(chiSquare < 21.1, qPrintable(QString("chi-square %1").arg(chiSquare)));
}

void tst_Util::parallelSumSameForAnyThreadCount_data() {
    QTest::addColumn<int>("n");
    QTest::addColumn<int>("blockSize");
    QTest::newRow("empty") << 0 << 16;
    QTest::newRow("one block") << 10 << 16;
    QTest::newRow("ragged") << 1001 << 16;
    QTest::newRow("many") << 100000 << 7;
}

// Summands of very different magnitudes make the result depend on the order of addition, so
// equality across thread counts shows the fixed block order.
void tst_Util::parallelSumSameForAnyThreadCount() {
    QFETCH(int, n);
    QFETCH(int, blockSize);
    auto partial = [](int64_t begin, int64_t end) {
        double s = 0.0;
        for (int64_t i = begin; i < end; ++i) {
            s += (i % 3 == 0 ? 1e16 : 1.0) * std::sin(static_cast<double>(i));
        }
        return s;
    };
    const double one = core::parallelSum(n, blockSize, {.numThreads = 1}, partial);
    const double two = core::parallelSum(n, blockSize, {.numThreads = 2}, partial);
    const double four = core::parallelSum(n, blockSize, {.numThreads = 4}, partial);
    QCOMPARE(two, one);
    QCOMPARE(four, one);
    if (n == 0) {
        QCOMPARE(one, 0.0);
    }
}

void tst_Util::parallelForVisitsEveryIndexOnce() {
    const int n = 10007;
    std::vector<std::atomic<int>> visits(n);
    core::parallelFor(n, {.numThreads = 2}, [&](int64_t i) { visits[i].fetch_add(1); }, 13);
    for (int i = 0; i < n; ++i) {
        QCOMPARE(visits[i].load(), 1);
    }
}

void tst_Util::parallelForRethrowsTheFirstBlockError() {
    bool caught = false;
    try {
        core::parallelForBlocks(100, 10, {.numThreads = 2}, [](int64_t block, int64_t, int64_t) {
            if (block == 3 || block == 7) {
                throw std::runtime_error("block " + std::to_string(block));
            }
        });
    } catch (const std::runtime_error& e) {
        caught = true;
        QCOMPARE(QString(e.what()), QString("block 3"));
    }
    QVERIFY(caught);
}

// Two threads really run blocks once the work is worth a team: the first block takes 40 ms
// on the caller, so the rest (estimated at 40 ms each) goes to the team, and a later block
// waits (bounded) until another block has started, which only a second thread can do.
namespace {
// Work the funnel measures: it times a loop's first blocks by the caller's CPU time, in which
// a sleep does not count.
void spinFor(std::chrono::microseconds time) {
    const auto end = std::chrono::steady_clock::now() + time;
    while (std::chrono::steady_clock::now() < end) {
    }
}
}  // namespace

void tst_Util::parallelLoopsUseSeveralThreads() {
    std::atomic<int> started{0};
    std::atomic<bool> sawOther{false};
    core::parallelForBlocks(3, 1, {.numThreads = 2}, [&](int64_t block, int64_t, int64_t) {
        if (block == 0) {
            spinFor(std::chrono::milliseconds(40));
            return;
        }
        started.fetch_add(1);
        for (int i = 0; i < 2000 && started.load() < 2; ++i) {
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        sawOther = sawOther || started.load() == 2;
    });
    QVERIFY(sawOther.load());
    QCOMPARE(core::hardwareThreads() >= 1, true);
}

// Work that the caller measures to be short runs on the caller alone, for a loop and for a
// wavefront: a second thread would save at most half of it and, beside other programs, cost a
// time slice when the scheduler keeps it off its core.
void tst_Util::shortWorkStaysOnTheCaller() {
    const auto caller = std::this_thread::get_id();
    std::atomic<int> elsewhere{0};
    core::parallelForBlocks(100, 1, {.numThreads = 3}, [&](int64_t, int64_t, int64_t) {
        spinFor(std::chrono::microseconds(20));
        if (std::this_thread::get_id() != caller) elsewhere.fetch_add(1);
    });
    QCOMPARE(elsewhere.load(), 0);
    core::parallelWavefront(4, 50, {.numThreads = 3}, [&](int, int) {
        if (std::this_thread::get_id() != caller) elsewhere.fetch_add(1);
    });
    QCOMPARE(elsewhere.load(), 0);
    // Long work (80 blocks of 2 ms; a wavefront of 160 cells of 1 ms, whose team must win more)
    // does go to a team.
    core::parallelForBlocks(80, 1, {.numThreads = 2}, [&](int64_t, int64_t, int64_t) {
        spinFor(std::chrono::milliseconds(2));
        if (std::this_thread::get_id() != caller) elsewhere.fetch_add(1);
    });
    QVERIFY(elsewhere.load() > 0);
    elsewhere = 0;
    core::parallelWavefront(2, 80, {.numThreads = 2}, [&](int, int) {
        spinFor(std::chrono::milliseconds(1));
        if (std::this_thread::get_id() != caller) elsewhere.fetch_add(1);
    });
    QVERIFY(elsewhere.load() > 0);
}

// A loop inside a loop runs inline; loops started at once from several threads all finish
// with every index visited once (each caller gets an OpenMP team of its own).
void tst_Util::nestedAndConcurrentLoopsFinish() {
    const int outer = 37;
    const int inner = 101;
    std::vector<std::atomic<int>> visits(outer * inner);
    core::parallelFor(outer, {.numThreads = 2}, [&](int64_t i) {
        core::parallelFor(inner, {.numThreads = 2},
                          [&](int64_t j) { visits[i * inner + j].fetch_add(1); }, 7);
    }, 3);
    for (auto& v : visits) {
        QCOMPARE(v.load(), 1);
    }
    std::vector<double> sums(4);
    std::vector<std::thread> callers;
    for (int c = 0; c < 4; ++c) {
        callers.emplace_back([&, c] {
            for (int repeat = 0; repeat < 50; ++repeat) {
                sums[c] = core::parallelSum(10000, 97, {.numThreads = 2},
                                            [](int64_t begin, int64_t end) {
                                                double s = 0.0;
                                                for (int64_t i = begin; i < end; ++i) {
                                                    s += 1.0 / (1.0 + i);
                                                }
                                                return s;
                                            });
            }
        });
    }
    for (auto& t : callers) {
        t.join();
    }
    const double one = core::parallelSum(10000, 97, {.numThreads = 1}, [](int64_t b, int64_t e) {
        double s = 0.0;
        for (int64_t i = b; i < e; ++i) {
            s += 1.0 / (1.0 + i);
        }
        return s;
    });
    for (double s : sums) {
        QCOMPARE(s, one);  // bit-identical, whichever thread ran which block
    }
}

// Every block gets the same boundaries and computes the same bits whatever the thread count:
// a running sum inside each block, in its own order, against a serial loop.
void tst_Util::blocksAreTheSameForOneTwoThreeThreads() {
    const int64_t n = 10007;
    const int64_t blockSize = 97;
    std::vector<double> serial(static_cast<size_t>(core::numBlocks(n, blockSize)), 0.0);
    for (int64_t i = 0; i < n; ++i) {
        serial[static_cast<size_t>(i / blockSize)] += std::sin(0.001 * static_cast<double>(i));
    }
    for (int threads : {1, 2, 3}) {
        std::vector<double> blocks(serial.size(), -1.0);
        std::vector<std::pair<int64_t, int64_t>> bounds(serial.size());
        core::parallelForBlocks(n, blockSize, {.numThreads = threads},
                                [&](int64_t block, int64_t begin, int64_t end) {
                                    double sum = 0.0;
                                    for (int64_t i = begin; i < end; ++i) {
                                        sum += std::sin(0.001 * static_cast<double>(i));
                                    }
                                    blocks[static_cast<size_t>(block)] = sum;
                                    bounds[static_cast<size_t>(block)] = {begin, end};
                                });
        for (size_t b = 0; b < serial.size(); ++b) {
            QCOMPARE(blocks[b], serial[b]);
            QCOMPARE(bounds[b].first, static_cast<int64_t>(b) * blockSize);
            const int64_t end = std::min<int64_t>(n, (static_cast<int64_t>(b) + 1) * blockSize);
            QCOMPARE(bounds[b].second, end);
        }
    }
}

// A pipeline: block b waits for block b − 1 to start, and does not finish before block b + 1
// has started. Only blocks handed out in increasing order, each to a thread of its own while
// its neighbour runs, get through without a wait running out. Block 0 takes 40 ms, which the
// caller measures alone: the rest goes to the team.
void tst_Util::blocksStartInIncreasingOrder() {
    for (int threads : {2, 3}) {
        const int blocks = 40;
        std::vector<std::atomic<bool>> started(blocks + 1);
        std::atomic<int> timeouts{0};
        const auto waitFor = [&](int b) {
            const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
            while (!started[b].load()) {
                if (std::chrono::steady_clock::now() > deadline) {
                    timeouts.fetch_add(1);
                    return;
                }
                std::this_thread::sleep_for(std::chrono::microseconds(100));
            }
        };
        started[blocks] = true;  // no block after the last
        core::parallelForBlocks(blocks, 1, {.numThreads = threads},
                                [&](int64_t block, int64_t, int64_t) {
                                    const int b = static_cast<int>(block);
                                    started[b] = true;
                                    if (b == 0) {
                                        spinFor(std::chrono::milliseconds(40));
                                        return;
                                    }
                                    waitFor(b - 1);
                                    waitFor(b + 1);
                                });
        QCOMPARE(timeouts.load(), 0);
    }
}

// The error of the lowest block comes back even when a later block threw first, and only
// after every block ran.
void tst_Util::lowestBlockErrorAfterEveryBlock() {
    for (int threads : {1, 2, 3}) {
        std::atomic<int> ran{0};
        QString message;
        try {
            const auto body = [&](int64_t block, int64_t, int64_t) {
                if (block == 4) {
                    std::this_thread::sleep_for(std::chrono::milliseconds(30));
                }
                ran.fetch_add(1);
                if (block == 4 || block == 5 || block == 17) {
                    throw std::runtime_error("block " + std::to_string(block));
                }
            };
            core::parallelForBlocks(20, 1, {.numThreads = threads}, body);
        } catch (const std::runtime_error& e) {
            message = e.what();
        }
        QCOMPARE(message, QString("block 4"));
        QCOMPARE(ran.load(), 20);
    }
}

// Once the progress is cancelled, no block starts any more. With one thread: every block up to
// the cancelling one ran, none after it. With T threads, a block is handed out and then checks
// the progress; a thread can be preempted between the two (ctest runs tests side by side), so
// up to T − 1 blocks handed out before the cancel may still start after it, and as many handed
// out before the cancelling one may see the cancel and be skipped.
void tst_Util::cancelSkipsTheRemainingBlocks() {
    for (int threads : {1, 2, 3}) {
        core::Progress progress;
        const int blocks = 200;
        std::vector<std::atomic<bool>> ran(blocks);
        std::atomic<bool> cancelled{false};
        std::atomic<int> startedAfter{0};
        core::parallelForBlocks(
            blocks, 1, {.numThreads = threads},
            [&](int64_t block, int64_t, int64_t) {
                if (cancelled.load()) ++startedAfter;
                ran[block] = true;
                if (block == 50) {
                    progress.cancel();
                    cancelled = true;
                }
            },
            &progress);
        QVERIFY(progress.cancelled());
        QVERIFY(ran[50].load());
        int skippedBefore = 0;
        int ranAfter = 0;
        for (int b = 0; b < 50; ++b) skippedBefore += ran[b].load() ? 0 : 1;
        for (int b = 51; b < blocks; ++b) ranAfter += ran[b].load() ? 1 : 0;
        const QString counts = QString("%1 threads: %2 skipped before block 50, %3 ran after it, %4 started after the cancel")
                                   .arg(threads).arg(skippedBefore).arg(ranAfter).arg(startedAfter.load());
        QVERIFY2(skippedBefore <= threads - 1, qPrintable(counts));
        QVERIFY2(startedAfter.load() <= threads - 1, qPrintable(counts));
        // Blocks start in order: those after 50 that ran were handed out before the cancel or
        // raced it, at most T − 1 of them plus those run while block 50 ran on another thread.
        QVERIFY2(ranAfter < blocks - 51, qPrintable(counts));
        if (threads == 1) QCOMPARE(ranAfter, 0);
    }
}

// Run a second time by ctest with OMP_NUM_THREADS=3.
void tst_Util::defaultThreadsFollowOmpNumThreads() {
    const char* given = std::getenv("OMP_NUM_THREADS");
    if (given == nullptr) {
        const long long cores = core::hardwareThreads();
        QCOMPARE(core::defaultThreads(),
                 static_cast<int>(std::min<long long>(cores, core::limits::kThreads.max)));
    } else {
        QCOMPARE(core::defaultThreads(), std::atoi(given));
    }
}

// Each cell combines its left and upper neighbours (order-sensitive arithmetic), so a cell that
// ran early would read a value not yet written; against a plain double loop, and every cell
// checks that both predecessors had finished.
void tst_Util::wavefrontRunsEveryCellAfterItsPredecessors() {
    const int rows = 9;
    const int cols = 31;
    std::vector<double> serial(static_cast<size_t>(rows) * cols);
    const auto at = [&](std::vector<double>& v, int r, int c) -> double& {
        return v[static_cast<size_t>(r) * cols + c];
    };
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < cols; ++c) {
            const double left = c > 0 ? at(serial, r, c - 1) : 1.0;
            const double above = r > 0 ? at(serial, r - 1, c) : 2.0;
            at(serial, r, c) = std::sin(left) * 3.0 + above / 7.0 + 0.001 * (r * cols + c);
        }
    }
    for (int threads : {1, 2, 3}) {
        std::vector<double> grid(serial.size(), std::nan(""));
        std::vector<std::atomic<bool>> done(serial.size());
        std::atomic<int> early{0};
        std::atomic<int> runs{0};
        core::parallelWavefront(rows, cols, {.numThreads = threads}, [&](int r, int c) {
            runs.fetch_add(1);
            if ((c > 0 && !done[static_cast<size_t>(r) * cols + c - 1].load()) ||
                (r > 0 && !done[static_cast<size_t>(r - 1) * cols + c].load())) {
                early.fetch_add(1);
            }
            std::this_thread::sleep_for(std::chrono::microseconds((r * 7 + c) % 5 * 50));
            const double left = c > 0 ? at(grid, r, c - 1) : 1.0;
            const double above = r > 0 ? at(grid, r - 1, c) : 2.0;
            at(grid, r, c) = std::sin(left) * 3.0 + above / 7.0 + 0.001 * (r * cols + c);
            done[static_cast<size_t>(r) * cols + c] = true;
        });
        QCOMPARE(early.load(), 0);
        QCOMPARE(runs.load(), rows * cols);
        for (size_t i = 0; i < serial.size(); ++i) {
            QCOMPARE(grid[i], serial[i]);
        }
    }
}

// The first error in row-major order comes back after every cell ran; a cancelled progress
// skips the cells not yet started.
void tst_Util::wavefrontErrorsAndCancel() {
    for (int threads : {1, 2, 3}) {
        std::atomic<int> runs{0};
        QString message;
        try {
            core::parallelWavefront(4, 10, {.numThreads = threads}, [&](int r, int c) {
                runs.fetch_add(1);
                if ((r == 1 && c == 8) || (r == 2 && c == 0) || (r == 3 && c == 9)) {
                    throw std::runtime_error(std::to_string(r) + "," + std::to_string(c));
                }
            });
        } catch (const std::runtime_error& e) {
            message = e.what();
        }
        QCOMPARE(message, QString("1,8"));
        QCOMPARE(runs.load(), 40);

        core::Progress progress;
        std::atomic<int> after{0};
        std::atomic<bool> cancelled{false};
        core::parallelWavefront(4, 50, {.numThreads = threads}, [&](int r, int c) {
            if (cancelled.load()) {
                after.fetch_add(1);
            }
            if (r == 0 && c == 10) {
                progress.cancel();
                cancelled = true;
            }
        }, &progress);
        // Only cells already started on the other threads may still run.
        QVERIFY2(after.load() <= threads - 1, qPrintable(QString::number(after.load())));
    }
}

namespace {
class AbortAfter : public core::ProgressObserver {
public:
    explicit AbortAfter(int calls) : m_calls(calls) {}
    core::Control onProgress(double fraction, const std::string&) override {
        lastFraction = fraction;
        return --m_calls > 0 ? core::Control::Continue : core::Control::Abort;
    }
    double lastFraction = -1.0;

private:
    int m_calls;
};
}  // namespace

void tst_Util::progressCancelIsSticky() {
    AbortAfter observer(1);
    core::Progress progress(&observer, "test");
    progress.setTotal(4);
    progress.advance(2);
    QVERIFY(!progress.poll(true));
    QCOMPARE(observer.lastFraction, 0.5);
    QVERIFY(progress.cancelled());
    QVERIFY(!progress.advance());

    core::Progress silent;
    QVERIFY(silent.advance());
    silent.cancel();
    QVERIFY(!silent.advance());
}

void tst_Util::resultCarriesValueOrError() {
    core::Result<int> good = 3;
    QVERIFY(good.ok());
    QCOMPARE(*good, 3);
    core::Result<int> bad = core::invalidArgument("pi[2]", "-0.1", "must not be negative");
    QVERIFY(!bad.ok());
    QCOMPARE(QString::fromStdString(bad.error().toString()),
             QString("pi[2] = -0.1: must not be negative"));
    core::Status fine;
    QVERIFY(fine.ok());
}

QTEST_GUILESS_MAIN(tst_Util)
#include "tst_util.moc"
