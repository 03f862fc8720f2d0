// SPDX-License-Identifier: MIT
// TorchScript models (core/model/torch_model.h, model_file.h): modules written by hand from the
// contract (tests/torch/make_test_models.py) give exactly the numbers the contract implies —
// the exact ε of Gaussian data against the exact oracle, for every prediction type, conditional
// or not; softmaxed logits for the categorical process — and every file that breaks the contract
// is refused with the field and the reason. Without the plugin (a build without LibTorch, or the
// package diffuscope without diffuscope-torch) the model is refused naming the package.
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <dlfcn.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <chrono>
#include <thread>

#include <zlib.h>

#include "core/gaussian/gamma.h"
#include "core/io/zip_archive.h"
#include "core/model/gaussian_oracles.h"
#include "core/util/model_error.h"
#include "core/model/model_file.h"
#include "core/model/torch_model.h"
#include "core/schedule/gaussian_schedule.h"
#include "core/util/rng.h"
#include "tests/support/test_support.h"

using namespace core::model;

namespace {

const std::string kModels = DIFFUSCOPE_TORCH_TEST_MODELS;

std::string modelPath(const std::string& name) { return kModels + "/" + name; }

std::string readBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// Standard normal points, d×B, from a fixed seed.
core::Matrix normalPoints(int d, int count, uint64_t seed) {
    core::Matrix x(d, count);
    for (int j = 0; j < count; ++j) {
        core::CounterRng rng(seed, 0, static_cast<uint64_t>(j));
        for (int i = 0; i < d; ++i) x(i, j) = 1.5 * rng.normal();
    }
    return x;
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

void putLe(std::string& out, uint64_t value, int bytes) {
    for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

// `inflated` zero bytes as a raw deflate stream (a few KB per MB).
std::string deflatedZeros(uint64_t inflated) {
    z_stream z{};
    deflateInit2(&z, 9, Z_DEFLATED, -MAX_WBITS, 9, Z_DEFAULT_STRATEGY);
    const std::string zeros(1 << 20, '\0');
    std::string out;
    std::string piece(1 << 16, '\0');
    for (uint64_t left = inflated;;) {
        const uint64_t feed = std::min<uint64_t>(left, zeros.size());
        z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(zeros.data()));
        z.avail_in = static_cast<uInt>(feed);
        left -= feed;
        int status;
        do {
            z.next_out = reinterpret_cast<Bytef*>(piece.data());
            z.avail_out = static_cast<uInt>(piece.size());
            status = deflate(&z, left == 0 ? Z_FINISH : Z_NO_FLUSH);
            out.append(piece.data(), piece.size() - z.avail_out);
        } while (z.avail_out == 0 || (left == 0 && status != Z_STREAM_END));
        if (left == 0) break;
    }
    deflateEnd(&z);
    return out;
}

uint32_t zerosCrc(uint64_t count) {
    const std::string zeros(1 << 20, '\0');
    uLong crc = crc32(0, nullptr, 0);
    for (uint64_t left = count; left > 0;) {
        const uint64_t n = std::min<uint64_t>(left, zeros.size());
        crc = crc32(crc, reinterpret_cast<const Bytef*>(zeros.data()), static_cast<uInt>(n));
        left -= n;
    }
    return static_cast<uint32_t>(crc);
}

// A ZIP archive of `count` deflated entries of `inflated` zeros each, declaring `declared`
// bytes. `shared`: one local header and stream that every directory entry points at (the
// "bomb"); else each entry has its own copy.
std::string zerosArchive(int count, uint64_t inflated, uint64_t declared, bool shared) {
    const std::string stream = deflatedZeros(inflated);
    const uint32_t crc = zerosCrc(inflated);
    std::string out;
    std::vector<uint64_t> offsets;
    for (int i = 0; i < (shared ? 1 : count); ++i) {
        const std::string name = "archive/data/" + std::to_string(i);
        offsets.push_back(out.size());
        putLe(out, 0x04034b50, 4);
        putLe(out, 20, 2);   // version
        putLe(out, 0, 2);    // flags
        putLe(out, 8, 2);    // deflated
        putLe(out, 0, 4);    // time, date
        putLe(out, crc, 4);
        putLe(out, stream.size(), 4);
        putLe(out, declared, 4);
        putLe(out, name.size(), 2);
        putLe(out, 0, 2);
        out += name;
        out += stream;
    }
    const uint64_t directory = out.size();
    for (int i = 0; i < count; ++i) {
        const std::string name = "archive/data/" + std::to_string(i);
        putLe(out, 0x02014b50, 4);
        putLe(out, 20, 2);
        putLe(out, 20, 2);
        putLe(out, 0, 2);
        putLe(out, 8, 2);
        putLe(out, 0, 4);
        putLe(out, crc, 4);
        putLe(out, stream.size(), 4);
        putLe(out, declared, 4);
        putLe(out, name.size(), 2);
        putLe(out, 0, 2);  // extra
        putLe(out, 0, 2);  // comment
        putLe(out, 0, 2);  // disk
        putLe(out, 0, 2);  // internal attributes
        putLe(out, 0, 4);  // external attributes
        putLe(out, offsets[shared ? 0 : i], 4);
        out += name;
    }
    const uint64_t directorySize = out.size() - directory;
    putLe(out, 0x06054b50, 4);
    putLe(out, 0, 4);
    putLe(out, count, 2);
    putLe(out, count, 2);
    putLe(out, directorySize, 4);
    putLe(out, directory, 4);
    putLe(out, 0, 2);
    return out;
}

// A ZIP archive of stored entries (name, bytes); `badCrc` names one whose CRC is wrong.
std::string storedArchive(const std::vector<std::pair<std::string, std::string>>& entries,
                          const std::string& badCrc = "") {
    std::string out;
    std::vector<uint64_t> offsets;
    std::vector<uint32_t> crcs;
    for (const auto& [name, data] : entries) {
        uint32_t crc = static_cast<uint32_t>(
            crc32(0, reinterpret_cast<const Bytef*>(data.data()), static_cast<uInt>(data.size())));
        if (name == badCrc) crc ^= 1;
        crcs.push_back(crc);
        offsets.push_back(out.size());
        putLe(out, 0x04034b50, 4);
        putLe(out, 20, 2);
        putLe(out, 0, 2);
        putLe(out, 0, 2);  // stored
        putLe(out, 0, 4);
        putLe(out, crc, 4);
        putLe(out, data.size(), 4);
        putLe(out, data.size(), 4);
        putLe(out, name.size(), 2);
        putLe(out, 0, 2);
        out += name;
        out += data;
    }
    const uint64_t directory = out.size();
    for (size_t i = 0; i < entries.size(); ++i) {
        const auto& [name, data] = entries[i];
        putLe(out, 0x02014b50, 4);
        putLe(out, 20, 2);
        putLe(out, 20, 2);
        putLe(out, 0, 2);
        putLe(out, 0, 2);
        putLe(out, 0, 4);
        putLe(out, crcs[i], 4);
        putLe(out, data.size(), 4);
        putLe(out, data.size(), 4);
        putLe(out, name.size(), 2);
        putLe(out, 0, 2);
        putLe(out, 0, 2);
        putLe(out, 0, 2);
        putLe(out, 0, 2);
        putLe(out, 0, 4);
        putLe(out, offsets[i], 4);
        out += name;
    }
    const uint64_t directorySize = out.size() - directory;
    putLe(out, 0x06054b50, 4);
    putLe(out, 0, 4);
    putLe(out, entries.size(), 2);
    putLe(out, entries.size(), 2);
    putLe(out, directorySize, 4);
    putLe(out, directory, 4);
    putLe(out, 0, 2);
    return out;
}

// A one-line message of valid UTF-8 without control characters.
bool printableLine(const std::string& message) {
    for (const char c : message) {
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) return false;
    }
    return QString::fromUtf8(message).toStdString() == message;
}

}  // namespace

class tst_TorchModel : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void gaussianPredictionsAreTheExactEps_data();
    void gaussianPredictionsAreTheExactEps();
    void gammaEqualsTheOraclesOnTheSameDraws();
    void pointsAreLaidOutRowMajor();
    void categoricalGivesTheSoftmaxOfTheLogits();
    void brokenContractsAreRefusedWithTheField_data();
    void brokenContractsAreRefusedWithTheField();
    void hostileContractsNameTheBrokenRule_data();
    void hostileContractsNameTheBrokenRule();
    void archiveEntryNamesReachMessagesPrintable();
    void aNetworkThatFailsLaterRaisesAModelError();
    void nonFiniteLogitsAtAnyTAreErrors_data();
    void nonFiniteLogitsAtAnyTAreErrors();
    void nonFinitePredictionsAtAnyNAreErrors_data();
    void nonFinitePredictionsAtAnyNAreErrors();
    void aNetworksPrintsDoNotReachStdout();
    void fitChecksNameWhatDiffers();
    void concurrentCallsAgreeWithSerialOnes();
    void damagedArchivesNeverCrash();
    void zipBombsAreRefusedAtOnce();
    void aLoadChecksItsMemoryFirst();
    void withoutLibTorchTheReasonIsGiven();
    void aMissingPluginIsToldApartFromAMissingLibrary();
};

void tst_TorchModel::initTestCase() {
    if (kModels.empty()) {
        QSKIP("the test models need python3 with torch (python3-torch) at configure time");
    }
}

void tst_TorchModel::gaussianPredictionsAreTheExactEps_data() {
    QTest::addColumn<QString>("file");
    for (const char* prediction : {"epsilon", "sample", "v_prediction"}) {
        QTest::newRow(prediction) << QString("exact-%1.pt").arg(prediction);
        const QString conditional = QString("exact-%1-conditional.pt").arg(prediction);
        QTest::newRow(qPrintable(conditional)) << conditional;
    }
}

void tst_TorchModel::gaussianPredictionsAreTheExactEps() {
    if (!torchModelsAvailable()) QSKIP("this build has no LibTorch");
    QFETCH(QString, file);
    auto loaded = loadModelFile(modelPath(file.toStdString()));
    DS_VERIFY_OK(loaded);
    QVERIFY(loaded->gaussian != nullptr);
    QCOMPARE(loaded->info.schedule, std::string("linear,N=1000"));
    auto oracle = IsotropicGaussianOracle::create(core::Vector::Zero(2), 0.5);
    DS_VERIFY_OK(oracle);
    auto schedule = core::schedule::linearSchedule(1000);
    DS_VERIFY_OK(schedule);
    // 300 points: more than one batch of the adapter's 256.
    const core::Matrix x = normalPoints(2, 300, 7);
    for (int n : {1, 2, 10, 500, 999, 1000}) {
        const NoiseLevel level{n, schedule->alphaBar(n), schedule->betaBar(n)};
        core::Matrix got(2, 300), want(2, 300);
        loaded->gaussian->predictEps(x, level, got);
        (*oracle)->predictEps(x, level, want);
        // float32 in and out: ε to a few 1e-7; x₀ and v pass through ε = (x − √ᾱx̂₀)/√β̄ or
        // √ᾱv + √β̄x, which multiplies their rounding (≈ 6e-8·|x|) by up to 1/√β̄.
        const double tolerance = 2e-6 / std::sqrt(level.betaBar);
        for (int j = 0; j < 300; ++j) {
            for (int i = 0; i < 2; ++i) DS_COMPARE_ABS(got(i, j), want(i, j), tolerance);
        }
    }
}

void tst_TorchModel::gammaEqualsTheOraclesOnTheSameDraws() {
    if (!torchModelsAvailable()) QSKIP("this build has no LibTorch");
    auto loaded = loadModelFile(modelPath("exact-epsilon.pt"));
    DS_VERIFY_OK(loaded);
    auto oracle = IsotropicGaussianOracle::create(core::Vector::Zero(2), 0.5);
    auto schedule = core::schedule::linearSchedule(1000);
    core::gaussian::GammaParams params;
    params.numSamples = 50;
    params.seed = 3;
    params.timesteps = {1, 100, 400, 1000};
    params.parallel.numThreads = 2;
    auto network = core::gaussian::estimateGamma(*loaded->gaussian, **oracle, *schedule, params);
    auto exact = core::gaussian::estimateGamma(**oracle, **oracle, *schedule, params);
    DS_VERIFY_OK(network);
    DS_VERIFY_OK(exact);
    for (size_t k = 0; k < params.timesteps.size(); ++k) {
        DS_COMPARE_REL(network->gamma[k], exact->gamma[k], 1e-5);
        // and both are near the closed form 1/(ᾱs² + β̄), within their Monte Carlo error
        const int n = params.timesteps[k];
        const double closed = (*oracle)->exactGamma(schedule->alphaBar(n), schedule->betaBar(n));
        DS_COMPARE_ABS(network->gamma[k], closed, 5 * network->standardError[k] + 1e-9);
    }
}

void tst_TorchModel::pointsAreLaidOutRowMajor() {
    if (!torchModelsAvailable()) QSKIP("this build has no LibTorch");
    auto loaded = loadModelFile(modelPath("scale-image.pt"));
    DS_VERIFY_OK(loaded);
    QCOMPARE(loaded->shape, (std::vector<int>{1, 2, 3}));
    QCOMPARE(loaded->info.numPositions, 6);
    QCOMPARE(loaded->gaussian->dimension(), 6);
    // ε = w ⊙ x with w[i] = 0.1·(i + 1), i the row-major index of the [1, 2, 3] point.
    const core::Matrix x = normalPoints(6, 5, 1);
    core::Matrix eps(6, 5);
    loaded->gaussian->predictEps(x, NoiseLevel{3, 0.9, 0.1}, eps);
    for (int j = 0; j < 5; ++j) {
        for (int i = 0; i < 6; ++i) {
            DS_COMPARE_ABS(eps(i, j), static_cast<float>(0.1f * (i + 1)) *
                                          static_cast<float>(x(i, j)), 1e-6);
        }
    }
    QCOMPARE(loaded->parameters.size(), size_t{0});  // w is a buffer, not a parameter
}

void tst_TorchModel::categoricalGivesTheSoftmaxOfTheLogits() {
    if (!torchModelsAvailable()) QSKIP("this build has no LibTorch");
    for (const bool conditional : {false, true}) {
        auto loaded = loadModelFile(modelPath(conditional ? "categorical-conditional.pt"
                                                          : "categorical.pt"));
        DS_VERIFY_OK(loaded);
        QVERIFY(loaded->categorical != nullptr);
        const CategoricalDenoiser& f = *loaded->categorical;
        QCOMPARE(f.numClasses(), 4);
        QCOMPARE(f.numPositions(), 3);
        QCOMPARE(f.numConditions(), conditional ? 5 : 1);
        const std::vector<int> xt{3, 0, 2};
        std::vector<double> out(12);
        const double t = 0.37;
        const int condition = conditional ? 2 : 0;
        f.predict(xt, condition, DenoiserTime{t, 0.0}, out);
        // logits[d, k] = 2·[x_d = k] + t·k (+ 0.7·k·c), computed here in double.
        for (int d = 0; d < 3; ++d) {
            double logits[4], total = 0;
            for (int k = 0; k < 4; ++k) {
                logits[k] = 2.0 * (xt[d] == k) + t * k + (conditional ? 0.7 * k * condition : 0);
                total += std::exp(logits[k]);
            }
            for (int k = 0; k < 4; ++k) DS_COMPARE_ABS(out[d * 4 + k], std::exp(logits[k]) / total, 1e-6);
        }
    }
}

void tst_TorchModel::brokenContractsAreRefusedWithTheField_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QStringList>("parts");  // what the one-line message must say
    QTest::addColumn<bool>("needsTorch");    // a refusal only LibTorch can find
    const auto row = [](const char* file, QStringList parts, bool needsTorch) {
        QTest::newRow(file) << QString(file) << parts << needsTorch;
    };
    row("bad-prediction.pt", {"diffuscope.json: prediction", "x0", "epsilon, sample or v_prediction"}, false);
    row("bad-process.pt", {"diffuscope.json: process", "poisson"}, false);
    row("bad-shape.pt", {"diffuscope.json: shape[0] = 0: a size must be at least 1"}, false);
    row("shape-negative.pt", {"diffuscope.json: shape[1] = -3: a size must be at least 1"}, false);
    row("shape-too-big.pt", {"diffuscope.json: shape[0] = 65537: a size must be at most 65536, "
                             "the limit of the data dimension d"}, false);
    row("categorical-too-long.pt", {"diffuscope.json: shape[0] = 4097: a size must be at most "
                                    "4096, the limit of the number of positions D"}, false);
    row("steps-too-big.pt", {"diffuscope.json: num_steps = 1000000000000: the number of steps N "
                             "must be at most 100000"}, false);
    row("conditions-fraction.pt", {"diffuscope.json: num_conditions = 2.5: a whole number is "
                                   "expected"}, false);
    row("categorical-uniform.pt", {"diffuscope.json: schedule = uniform", "unknown schedule"},
        false);
    row("contract-control.pt", {"diffuscope.json: process = gau\\nss\\x1bian\\u009b: must be"},
        false);
    row("contract-invalid-utf8.pt",
        {"diffuscope.json", "not valid JSON", "\\xff", "a string is not UTF-8 text"}, false);
    row("bad-steps.pt", {"diffuscope.json: num_steps", "-5"}, false);
    row("schedule-with-n.pt", {"diffuscope.json: schedule", "linear,N=1000", "num_steps"}, false);
    row("schedule-dev-zero.pt", {"diffuscope.json: schedule = csv:/dev/zero"}, false);
    row("schedule-folder.pt", {"diffuscope.json: schedule = csv:/tmp"}, false);
    row("schedule-huge.pt", {"diffuscope.json: schedule = linearxxx", "(500006 bytes)",
                             "longer than 4096 bytes"}, false);
    row("schedule-unknown.pt", {"diffuscope.json: schedule = quadratic", "expected linear, cosine"}, false);
    row("contract-not-json.pt", {"diffuscope.json", "not valid JSON"}, false);
    row("no-contract.pt", {"without diffuscope.json", "_extra_files"}, false);
    row("plain.zip.pt", {"not a TorchScript archive", "data.pkl"}, false);
    row("wrong-shape.pt", {"forward returned shape [2, 1]", "[2, 2]"}, true);
    row("integer-output.pt", {"tensor of Long", "not floats"}, true);
    row("not-finite.pt", {"not finite"}, true);
    row("returns-tuple.pt", {"returned a Tuple"}, true);
    row("missing-label.pt", {"forward takes 2 arguments", "num_conditions = 3", "(x, t, y)"}, true);
    row("categorical-wrong-k.pt", {"[2, 3, 4]", "[2, 3, 5]"}, true);
    row("weights-with-contract.pt", {"LibTorch cannot use it", "constants.pkl"}, true);
}

void tst_TorchModel::brokenContractsAreRefusedWithTheField() {
    QFETCH(QString, file);
    QFETCH(QStringList, parts);
    QFETCH(bool, needsTorch);
    if (needsTorch && !torchModelsAvailable()) QSKIP("this build has no LibTorch");
    const std::string path = modelPath(file.toStdString());
    auto loaded = loadModelFile(path);
    QVERIFY(!loaded);
    const std::string message = loaded.error().toString();
    QVERIFY2(contains(message, path), message.c_str());
    QVERIFY2(message.find('\n') == std::string::npos, message.c_str());
    for (const QString& part : parts) {
        QVERIFY2(contains(message, part.toStdString()), message.c_str());
    }
    QVERIFY2(message.size() < 1000, message.substr(0, 1000).c_str());
    QVERIFY2(QString::fromUtf8(message).toStdString() == message, "not valid UTF-8");
}

void tst_TorchModel::hostileContractsNameTheBrokenRule_data() {
    QTest::addColumn<QString>("json");
    QTest::addColumn<QStringList>("parts");
    const std::string noSteps = R"("process": "gaussian", "schedule": "cosine")";
    const std::string gaussian = noSteps + R"(, "num_steps": 10)";
    const std::string categorical =
        R"("process": "categorical", "schedule": "linear", "num_steps": 10, "shape": [3])";
    const auto row = [](const char* name, const std::string& json, QStringList parts) {
        QTest::newRow(name) << QString::fromStdString(json) << parts;
    };
    row("product over 64 bits", "{" + gaussian + R"(, "shape": [65536, 65536, 65536, 65536]})",
        {"shape = [65536,65536,65536,65536]: the data dimension d, the product of the sizes "
         "(18446744073709551616), must be at most 65536"});
    row("product", "{" + gaussian + R"(, "shape": [256, 256, 2]})",
        {"shape = [256,256,2]: the data dimension d, the product of the sizes (131072), must be "
         "at most 65536"});
    std::string longShape = "[1";
    for (int i = 0; i < 100000; ++i) longShape += ",1";
    longShape += "]";
    row("100001 sizes", "{" + gaussian + R"(, "shape": )" + longShape + "}",
        {"shape = [1,1,1,", "… (200003 bytes): must be a list of 1 to 4 sizes"});
    row("steps 1e300", "{" + noSteps + R"(, "shape": [2], "num_steps": 1e300})",
        {"num_steps = 1", "300: the number of steps N must be at most 100000"});
    row("steps 2^64", "{" + noSteps + R"(, "shape": [2], "num_steps": 18446744073709551616})",
        {"num_steps = ", ": the number of steps N must be at most 100000"});
    row("steps text", "{" + noSteps + R"(, "shape": [2], "num_steps": "10"})",
        {"num_steps = \"10\": a number is expected"});
    row("shape of text", "{" + gaussian + R"(, "shape": ["2"]})",
        {"shape[0] = \"2\": a number is expected"});
    row("shape of fractions", "{" + gaussian + R"(, "shape": [2, 0.5]})",
        {"shape[1] = 0.5: a whole number is expected"});
    row("one class", "{" + categorical + R"(, "num_classes": 1})",
        {"num_classes = 1: the number of classes K must be at least 2"});
    row("classes 1e9", "{" + categorical + R"(, "num_classes": 1e9})",
        {"num_classes = 1", ": the number of classes K must be at most 256"});
    row("negative conditions", "{" + gaussian + R"(, "shape": [2], "num_conditions": -1})",
        {"num_conditions = -1: the number of condition labels must be at least 0"});
    row("categorical [D, 1]",
        R"({"process": "categorical", "schedule": "linear", "num_steps": 10, "shape": [3, 1]})",
        {"shape = [3,1]: a categorical model's data point is [D]"});
    row("schedule with a line break", R"({"process": "gaussian", "schedule": "linear\nx", "num_steps": 10})",
        {"schedule = linear\\nx"});
    row("prediction with C1 control",
        R"({"process": "gaussian", "prediction": "e\u009b[2J", "schedule": "linear"})",
        {"prediction = e\\u009b[2J: must be epsilon"});
    row("process of 100 kB", R"({"process": ")" + std::string(100000, 'p') + R"("})",
        {"process = ppp", "… (100000 bytes): must be gaussian or categorical"});
    row("lone surrogate", R"({"process": "\ud800"})",
        {"not valid JSON", "a string is not UTF-8 text"});
    row("nested 70 deep", "{" + gaussian + R"(, "shape": [2], "x": )" + std::string(70, '[') +
                              std::string(70, ']') + "}",
        {"nesting is too deep"});
    row("key twice", "{" + gaussian + R"(, "shape": [2], "shape": [2]})", {"appears twice"});
}

void tst_TorchModel::hostileContractsNameTheBrokenRule() {
    QFETCH(QString, json);
    QFETCH(QStringList, parts);
    auto contract = parseTorchContract(json.toStdString(), "m.pt");
    QVERIFY(!contract);
    const std::string message = contract.error().toString();
    QVERIFY2(contains(message, "m.pt: diffuscope.json"), message.c_str());
    for (const QString& part : parts) {
        QVERIFY2(contains(message, part.toStdString()), message.c_str());
    }
    QVERIFY2(printableLine(message), message.c_str());
    QVERIFY2(message.size() < 500, message.substr(0, 500).c_str());
}

void tst_TorchModel::archiveEntryNamesReachMessagesPrintable() {
    const std::string contract =
        R"({"process": "gaussian", "schedule": "cosine", "num_steps": 10, "shape": [2]})";
    const std::string damaged = "archive/x\xff\n\x1b[2J" + std::string(5000, 'y');
    const std::string bytes = storedArchive({{"archive/data.pkl", "pickle"},
                                             {"archive/extra/diffuscope.json", contract},
                                             {damaged, "damaged"}},
                                            damaged);
    auto read = readTorchContract(bytes, "m.pt");
    QVERIFY(!read);
    const std::string message = read.error().toString();
    QVERIFY2(contains(message, "zip entry 'archive/x\\xff\\n\\x1b[2Jyyy"), message.c_str());
    QVERIFY2(contains(message, "CRC-32"), message.c_str());
    QVERIFY2(printableLine(message), message.c_str());
    QVERIFY2(message.size() < 500, message.substr(0, 500).c_str());
    // The same archive without the damage is read.
    DS_VERIFY_OK(readTorchContract(storedArchive({{"archive/data.pkl", "pickle"},
                                                  {"archive/extra/diffuscope.json", contract},
                                                  {damaged, "intact"}}),
                                   "m.pt"));
}

void tst_TorchModel::aNetworkThatFailsLaterRaisesAModelError() {
    if (!torchModelsAvailable()) QSKIP("this build has no LibTorch");
    auto loaded = loadModelFile(modelPath("fails-later.pt"));
    DS_VERIFY_OK(loaded);  // the loader's batch of two passes
    const core::Matrix x = normalPoints(2, 10, 0);
    core::Matrix eps(2, 10);
    try {
        loaded->gaussian->predictEps(x, NoiseLevel{7, 0.9, 0.1}, eps);
        QFAIL("no exception");
    } catch (const ModelError& e) {
        const std::string message = e.what();
        QVERIFY2(contains(message, "fails-later.pt: the network failed at n = 7"), e.what());
        QVERIFY2(contains(message, "refuses batches larger than 2"), e.what());
        QVERIFY2(message.find('\n') == std::string::npos, e.what());
    }
    // Inside a parallel engine the error reaches the caller as well.
    auto oracle = IsotropicGaussianOracle::create(core::Vector::Zero(2), 0.5);
    auto schedule = core::schedule::linearSchedule(1000);
    core::gaussian::GammaParams params;
    params.numSamples = 20;
    params.parallel.numThreads = 2;
    QVERIFY_THROWS_EXCEPTION(ModelError, (void)core::gaussian::estimateGamma(
                                             *loaded->gaussian, **oracle, *schedule, params));
}

void tst_TorchModel::nonFiniteLogitsAtAnyTAreErrors_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("value");
    QTest::newRow("nan") << "categorical-nan-early.pt" << "nan";
    QTest::newRow("inf") << "categorical-inf-early.pt" << "inf";
    QTest::newRow("-inf") << "categorical-neginf-early.pt" << "-inf";
}

void tst_TorchModel::nonFiniteLogitsAtAnyTAreErrors() {
    // The load check tries t = 0.5 and 1; these networks fail for t < 0.3, on every call.
    if (!torchModelsAvailable()) QSKIP("this build has no LibTorch");
    QFETCH(QString, file);
    QFETCH(QString, value);
    const std::string path = modelPath(file.toStdString());
    auto loaded = loadModelFile(path);
    DS_VERIFY_OK(loaded);
    const std::vector<int> xt{3, 0, 2};
    std::vector<double> out(12);
    loaded->categorical->predict(xt, 0, DenoiserTime{0.5, 0.0}, out);
    for (double p : out) QVERIFY(std::isfinite(p));
    for (int repeat = 0; repeat < 2; ++repeat) {
        try {
            loaded->categorical->predict(xt, 0, DenoiserTime{0.125, 0.0}, out);
            QFAIL("no exception");
        } catch (const ModelError& e) {
            const std::string message = e.what();
            QVERIFY2(contains(message, path + ": the network's logits at t = 0.125 are not finite: " +
                                           value.toStdString() + " "),
                     e.what());
            QVERIFY2(message.find('\n') == std::string::npos, e.what());
        }
    }
}

void tst_TorchModel::nonFinitePredictionsAtAnyNAreErrors_data() {
    QTest::addColumn<QString>("prediction");
    for (const char* prediction : {"epsilon", "sample", "v_prediction"}) {
        QTest::newRow(prediction) << prediction;
    }
}

void tst_TorchModel::nonFinitePredictionsAtAnyNAreErrors() {
    // NaN at n = 500 only (the load check tries n = 1 and N): an error at every call there,
    // whatever the prediction type, and Γ never comes back with a NaN in it.
    if (!torchModelsAvailable()) QSKIP("this build has no LibTorch");
    QFETCH(QString, prediction);
    const std::string path = modelPath("nan-at-500-" + prediction.toStdString() + ".pt");
    auto loaded = loadModelFile(path);
    DS_VERIFY_OK(loaded);
    auto schedule = core::schedule::linearSchedule(1000);
    DS_VERIFY_OK(schedule);
    // 300 points: two batches of the adapter's 256.
    const core::Matrix x = normalPoints(2, 300, 3);
    core::Matrix eps(2, 300);
    loaded->gaussian->predictEps(x, NoiseLevel{499, schedule->alphaBar(499), schedule->betaBar(499)}, eps);
    QVERIFY(eps.allFinite());
    try {
        loaded->gaussian->predictEps(x, NoiseLevel{500, schedule->alphaBar(500), schedule->betaBar(500)},
                                     eps);
        QFAIL("no exception");
    } catch (const ModelError& e) {
        const std::string message = e.what();
        QVERIFY2(contains(message, path + ": the network's prediction (" + prediction.toStdString() +
                                       ") at n = 500 is not finite: nan"),
                 e.what());
        QVERIFY2(message.find('\n') == std::string::npos, e.what());
    }
    auto oracle = IsotropicGaussianOracle::create(core::Vector::Zero(2), 0.5);
    core::gaussian::GammaParams params;
    params.numSamples = 20;
    params.parallel.numThreads = 2;
    QVERIFY_THROWS_EXCEPTION(ModelError, (void)core::gaussian::estimateGamma(
                                             *loaded->gaussian, **oracle, *schedule, params));
}

void tst_TorchModel::aNetworksPrintsDoNotReachStdout() {
    // TorchScript's print() goes to stderr: stdout carries the commands' results (JSON).
    if (!torchModelsAvailable()) QSKIP("this build has no LibTorch");
    auto categorical = loadModelFile(modelPath("categorical-prints.pt"));
    DS_VERIFY_OK(categorical);
    auto gaussian = loadModelFile(modelPath("prints.pt"));
    DS_VERIFY_OK(gaussian);
    std::fflush(stdout);
    std::FILE* capture = std::tmpfile();
    QVERIFY(capture != nullptr);
    const int saved = ::dup(1);
    ::dup2(::fileno(capture), 1);
    std::vector<double> out(12);
    categorical->categorical->predict(std::vector<int>{1, 2, 3}, 0, DenoiserTime{0.25, 0.0}, out);
    const core::Matrix x = normalPoints(2, 4, 1);
    core::Matrix eps(2, 4);
    gaussian->gaussian->predictEps(x, NoiseLevel{10, 0.9, 0.1}, eps);
    std::cout.flush();
    std::fflush(stdout);
    ::dup2(saved, 1);
    ::close(saved);
    const long written = std::ftell(capture) >= 0 ? (std::fseek(capture, 0, SEEK_END), std::ftell(capture)) : -1;
    std::fclose(capture);
    QCOMPARE(written, 0L);
}

void tst_TorchModel::fitChecksNameWhatDiffers() {
    if (!torchModelsAvailable()) QSKIP("this build has no LibTorch");
    const std::string path = modelPath("exact-epsilon.pt");
    auto loaded = loadModelFile(path);
    DS_VERIFY_OK(loaded);
    DS_VERIFY_OK(checkGaussianFit(*loaded, path, 1000, 2));
    auto steps = checkGaussianFit(*loaded, path, 500, 2);
    QVERIFY(!steps);
    QVERIFY2(contains(steps.error().toString(), "N = 1000") &&
                 contains(steps.error().toString(), "N = 500"), steps.error().toString().c_str());
    auto dimension = checkGaussianFit(*loaded, path, 1000, 64);
    QVERIFY(!dimension);
    QVERIFY2(contains(dimension.error().toString(), "dimension 2") &&
                 contains(dimension.error().toString(), "64"), dimension.error().toString().c_str());
    auto process = checkCategoricalFit(*loaded, path, 4, 3, 1);
    QVERIFY(!process);
    QVERIFY(contains(process.error().toString(), "categorical"));

    const std::string catPath = modelPath("categorical-conditional.pt");
    auto cat = loadModelFile(catPath);
    DS_VERIFY_OK(cat);
    DS_VERIFY_OK(checkCategoricalFit(*cat, catPath, 4, 3, 5));
    DS_VERIFY_OK(checkCategoricalFit(*cat, catPath, 4, 3, 1));  // unlabelled data: the null label
    auto classes = checkCategoricalFit(*cat, catPath, 8, 3, 5);
    QVERIFY(!classes);
    QVERIFY(contains(classes.error().toString(), "K = 4"));
    auto labels = checkCategoricalFit(*cat, catPath, 4, 3, 10);
    QVERIFY(!labels);
    QVERIFY(contains(labels.error().toString(), "5 conditions"));

    // The contract's schedule against the set-up's: the same kind, or refused naming both.
    DS_VERIFY_OK(checkGaussianFit(*loaded, path, 1000, 2, "linear"));
    const std::string snrPath = modelPath("cosine-zero-snr.pt");
    auto snr = loadModelFile(snrPath);
    DS_VERIFY_OK(snr);
    DS_VERIFY_OK(checkGaussianFit(*snr, snrPath, 1000, 2, "cosine,zero-snr"));
    for (const char* other : {"linear", "cosine", "linear,zero-snr"}) {
        auto refused = checkGaussianFit(*snr, snrPath, 1000, 2, other);
        QVERIFY(!refused);
        const std::string message = refused.error().toString();
        QVERIFY2(contains(message, snrPath + ": the network was trained under the schedule "
                                             "cosine,zero-snr (diffuscope.json) but the schedule "
                                             "here is " + other),
                 message.c_str());
    }
    const std::string cosinePath = modelPath("categorical-cosine.pt");
    auto cosine = loadModelFile(cosinePath);
    DS_VERIFY_OK(cosine);
    DS_VERIFY_OK(checkCategoricalFit(*cosine, cosinePath, 4, 3, 1, "cosine"));
    auto linear = checkCategoricalFit(*cosine, cosinePath, 4, 3, 1, "linear");
    QVERIFY(!linear);
    QVERIFY2(contains(linear.error().toString(), "schedule cosine") &&
                 contains(linear.error().toString(), "here is linear"),
             linear.error().toString().c_str());
}

void tst_TorchModel::concurrentCallsAgreeWithSerialOnes() {
    if (!torchModelsAvailable()) QSKIP("this build has no LibTorch");
    auto loaded = loadModelFile(modelPath("exact-v_prediction.pt"));
    DS_VERIFY_OK(loaded);
    const core::Matrix x = normalPoints(2, 64, 11);
    core::Matrix serial(2, 64);
    const NoiseLevel level{250, 0.5, 0.5};
    loaded->gaussian->predictEps(x, level, serial);
    std::vector<core::Matrix> results(4, core::Matrix(2, 64));
    std::vector<std::thread> threads;
    for (int k = 0; k < 4; ++k) {
        threads.emplace_back([&, k] {
            for (int repeat = 0; repeat < 50; ++repeat) loaded->gaussian->predictEps(x, level, results[k]);
        });
    }
    for (auto& t : threads) t.join();
    for (const auto& r : results) QVERIFY(r == serial);
}

void tst_TorchModel::damagedArchivesNeverCrash() {
    // Every prefix (the ZIP reader) and every byte inverted (the ZIP reader, the contract, and
    // LibTorch's reader and interpreter behind them): an error or a model that still keeps the
    // contract, never a crash.
    const std::string path = modelPath("scale-image.pt");
    const std::string bytes = readBytes(path);
    QVERIFY(bytes.size() > 1000);
    for (size_t length = 0; length < bytes.size(); ++length) {
        QVERIFY(!parseModelFile(std::string_view(bytes).substr(0, length), path));
    }
    int loadedCount = 0;
    const core::Matrix x = normalPoints(6, 3, 2);
    for (size_t at = 0; at < bytes.size(); ++at) {
        std::string damaged = bytes;
        damaged[at] = static_cast<char>(~damaged[at]);
        auto loaded = parseModelFile(damaged, path);
        if (!loaded) {
            QVERIFY(!loaded.error().toString().empty());
            continue;
        }
        ++loadedCount;  // e.g. a byte of the debug information or a ZIP comment
        core::Matrix eps(6, 3);
        try {
            loaded->gaussian->predictEps(x, NoiseLevel{3, 0.9, 0.1}, eps);
        } catch (const ModelError&) {
        }
    }
    qInfo("%d of %zu single-byte damages still loaded", loadedCount, bytes.size());
}

void tst_TorchModel::zipBombsAreRefusedAtOnce() {
    using Clock = std::chrono::steady_clock;
    const std::string path = "/models/bomb.pt";
    constexpr uint64_t kMB = 1 << 20;
    // The builder is right: disjoint entries, declared sizes within the limit, pass every check.
    {
        const std::string bytes = zerosArchive(2, 3 * kMB, 3 * kMB, false);
        auto entries = core::io::listZip(bytes, path);
        DS_VERIFY_OK(entries);
        QCOMPARE(entries->size(), size_t{2});
        for (const auto& e : *entries) DS_VERIFY_OK(core::io::checkZipEntry(bytes, e, path));
    }
    // 50 directory entries pointing at one stream: refused from the directory, before inflating.
    {
        const std::string bytes = zerosArchive(50, 3 * kMB, 3 * kMB, true);
        QVERIFY(bytes.size() < 100'000);
        const auto start = Clock::now();
        auto entries = core::io::listZip(bytes, path);
        QVERIFY(!entries);
        const std::string message = entries.error().toString();
        QVERIFY2(contains(message, path + ": zip entry 'archive/data/") &&
                     contains(message, "overlap those of entry 'archive/data/"),
                 message.c_str());
        auto model = parseModelFile(bytes, path);
        QVERIFY(!model);
        QCOMPARE(model.error().toString(), message);
        QVERIFY(Clock::now() - start < std::chrono::milliseconds(500));
    }
    // Disjoint entries whose declared sizes sum past the limit (lowered here to 5 MB).
    {
        const std::string bytes = zerosArchive(2, 3 * kMB, 3 * kMB, false);
        auto entries = core::io::listZip(bytes, path, 5 * kMB);
        QVERIFY(!entries);
        QVERIFY2(contains(entries.error().toString(),
                          path + ": zip directory: its entries declare more than 5.2 MB "
                                 "uncompressed (entry 'archive/data/1' declares 3.1 MB)"),
                 entries.error().toString().c_str());
    }
    // One entry declaring 3 GB, beyond the model file limit itself.
    {
        const std::string bytes = zerosArchive(1, kMB, 3'000'000'000ull, false);
        auto model = parseModelFile(bytes, path);
        QVERIFY(!model);
        QVERIFY2(contains(model.error().toString(), "declares 3.0 GB"), model.error().toString().c_str());
    }
    // An entry declaring 1 KB whose stream inflates to 64 MB: its CRC check stops past 1 KB.
    {
        const std::string bytes = zerosArchive(1, 64 * kMB, 1024, false);
        auto entries = core::io::listZip(bytes, path);
        DS_VERIFY_OK(entries);
        const auto start = Clock::now();
        auto checked = core::io::checkZipEntry(bytes, entries->front(), path);
        QVERIFY(!checked);
        QVERIFY2(contains(checked.error().toString(), "its compressed data are damaged"),
                 checked.error().toString().c_str());
        QVERIFY(Clock::now() - start < std::chrono::milliseconds(200));
    }
}

void tst_TorchModel::aLoadChecksItsMemoryFirst() {
    // A 1.5 GB archive (sparse: no disk, and no byte of it is read) would take 4.5 GB to open.
    QTemporaryDir dir;
    const QString path = dir.filePath("large.pt");
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("PK\3\4", 4);
        QVERIFY(file.resize(1'500'000'000));
    }
    const auto start = std::chrono::steady_clock::now();
    auto loaded = loadModelFile(path.toStdString());
    QVERIFY(!loaded);
    const std::string message = loaded.error().toString();
    QVERIFY2(contains(message, path.toStdString() + ": needs 3 × the file's 1.5 GB (the file, "
                                                    "LibTorch's copy of it and its tensors) = "
                                                    "4.5 GB of memory, more than the 4.0 GB"),
             message.c_str());
    QVERIFY(std::chrono::steady_clock::now() - start < std::chrono::milliseconds(500));
}

void tst_TorchModel::withoutLibTorchTheReasonIsGiven() {
    if (torchModelsAvailable()) {
        QSKIP("the plugin loads (tested without it by tst_torch_model_without_plugin)");
    }
    const std::string path = modelPath("exact-epsilon.pt");
    auto loaded = loadModelFile(path);
    QVERIFY(!loaded);
    const std::string message = loaded.error().toString();
    QVERIFY2(contains(message, "the TorchScript plugin is not installed"), message.c_str());
    QVERIFY2(contains(message, "install the package diffuscope-torch"), message.c_str());
    QVERIFY2(contains(message, "built without LibTorch"), message.c_str());
    QVERIFY(contains(message, path));
}

// dlopen's own reasons: the plugin's file missing (the package diffuscope-torch not installed)
// and a library the plugin needs missing (LibTorch), which is named as dlopen names it.
void tst_TorchModel::aMissingPluginIsToldApartFromAMissingLibrary() {
    QTemporaryDir dir;
    const std::string missing = dir.filePath("libdiffuscope_torch.so").toStdString();
    QVERIFY(dlopen(missing.c_str(), RTLD_NOW | RTLD_LOCAL) == nullptr);
    const std::string noPlugin = torchPluginOpenError(missing, dlerror());
    QVERIFY2(contains(noPlugin, "the TorchScript plugin is not installed (no " + missing + ")"),
             noPlugin.c_str());
    QVERIFY2(contains(noPlugin, "install the package diffuscope-torch"), noPlugin.c_str());

    const std::string plugin = DIFFUSCOPE_TEST_NEEDS_ABSENT;
    QVERIFY(dlopen(plugin.c_str(), RTLD_NOW | RTLD_LOCAL) == nullptr);
    const std::string why = dlerror();
    QVERIFY2(contains(why, "libdiffuscope_test_absent.so"), why.c_str());
    const std::string noLibrary = torchPluginOpenError(plugin, why);
    QCOMPARE(noLibrary, "LibTorch could not be loaded (" + plugin + ": " + why + ")");
    QVERIFY(!contains(noLibrary, "diffuscope-torch"));
}

QTEST_GUILESS_MAIN(tst_TorchModel)
#include "tst_torch_model.moc"
