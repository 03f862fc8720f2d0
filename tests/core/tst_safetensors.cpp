// SPDX-License-Identifier: MIT
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "core/io/checkpoint_metadata.h"
#include "core/io/csv.h"
#include "core/io/safetensors.h"
#include "tests/support/test_support.h"

using core::io::Checkpoint;
using core::io::DType;
using core::io::Tensor;

namespace {

// The 8-byte little-endian length, then the header as given (no padding added), then data.
std::string rawFile(const std::string& header, const std::string& data, uint64_t length = ~0ull) {
    const uint64_t n = length == ~0ull ? header.size() : length;
    std::string out(8, '\0');
    for (int i = 0; i < 8; ++i) {
        out[i] = static_cast<char>((n >> (8 * i)) & 0xFF);
    }
    return out + header + data;
}

std::string floatBytes(std::initializer_list<float> values) {
    std::string out;
    for (const float v : values) {
        out.append(reinterpret_cast<const char*>(&v), 4);
    }
    return out;
}

std::string doubleBytes(std::initializer_list<double> values) {
    std::string out;
    for (const double v : values) {
        out.append(reinterpret_cast<const char*>(&v), 8);
    }
    return out;
}

std::string u16Bytes(uint16_t v) {
    return std::string{static_cast<char>(v & 0xFF), static_cast<char>(v >> 8)};
}

QString errorText(const core::Error& e) { return QString::fromStdString(e.toString()); }

}  // namespace

class tst_Safetensors : public QObject {
    Q_OBJECT

private slots:
    void roundTrip_data();
    void roundTrip();
    void halfPrecision_data();
    void halfPrecision();
    void pytorchLayout();
    void corrupt_data();
    void corrupt();
    void writeRejects_data();
    void writeRejects();
    void atomicWrite();
    void requireTensor();
    void metadataRoundTrip();
    void metadataErrors_data();
    void metadataErrors();

private:
    QTemporaryDir m_dir;
};

void tst_Safetensors::roundTrip_data() {
    QTest::addColumn<int>("variant");
    QTest::newRow("f32-matrix-with-metadata") << 0;
    QTest::newRow("f64-vector") << 1;
    QTest::newRow("mixed-scalar-zero-size") << 2;
    QTest::newRow("non-finite-values") << 3;
    QTest::newRow("odd-names-and-metadata") << 4;
    QTest::newRow("empty-checkpoint") << 5;
}

// Written and read back bit for bit; the header is padded to a multiple of 8.
void tst_Safetensors::roundTrip() {
    QFETCH(int, variant);
    Checkpoint c;
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    switch (variant) {
        case 0:
            c.set("net.0.weight", core::io::makeF32Tensor({2, 3}, {1, -2.5f, 3e-39f, 7, 1e30f,
                                                                   -0.0f}));
            c.set("net.0.bias", core::io::makeF32Tensor({3}, {0.1f, 0.2f, 0.3f}));
            c.metadata = {{"process", "categorical"}, {"pi", "[0.25,0.75]"}};
            break;
        case 1:
            c.set("pi", core::io::makeF64Tensor({4}, {0.1, 1.0 / 3.0, 1e-300, 4.9e-324}));
            break;
        case 2:
            c.set("scale", core::io::makeF64Tensor({}, {M_PI}));
            c.set("empty", core::io::makeF32Tensor({0, 5}, {}));
            c.set("w", core::io::makeF32Tensor({1, 1, 2}, {5, 6}));
            break;
        case 3:
            c.set("bad", core::io::makeF32Tensor({3}, {nan, inf, -inf}));
            c.set("bad64", core::io::makeF64Tensor({2}, {std::nan(""), -HUGE_VAL}));
            break;
        case 4:
            c.set("a \"quoted\"\\name\n", core::io::makeF32Tensor({1}, {1}));
            c.set("ünïcode.π", core::io::makeF32Tensor({1}, {2}));
            c.metadata = {{"note", "tab\there, newline\nthere, \"quotes\""}, {"empty", ""}};
            break;
        default: break;
    }
    const std::string path = (m_dir.path() + "/round" + QString::number(variant) +
                              ".safetensors").toStdString();
    DS_VERIFY_OK(core::io::writeSafetensors(path, c));
    auto bytes = core::io::readTextFile(path);
    DS_VERIFY_OK(bytes);
    uint64_t headerSize = 0;
    std::memcpy(&headerSize, bytes->data(), 8);
    QCOMPARE(headerSize % 8, uint64_t{0});
    if (!c.metadata.empty()) {
        QVERIFY(bytes->compare(8, 17, "{\"__metadata__\":{") == 0);
    }

    auto read = core::io::readSafetensors(path);
    DS_VERIFY_OK(read);
    QCOMPARE(read->metadata, c.metadata);
    QCOMPARE(read->tensors.size(), c.tensors.size());
    for (size_t i = 0; i < c.tensors.size(); ++i) {
        const auto& [name, expected] = c.tensors[i];
        const auto& [readName, actual] = read->tensors[i];
        QCOMPARE(readName, name);  // header order kept
        QCOMPARE(actual.dtype, expected.dtype);
        QCOMPARE(actual.shape, expected.shape);
        QCOMPARE(actual.data.size(), expected.data.size());
        for (size_t k = 0; k < expected.data.size(); ++k) {
            QCOMPARE(std::bit_cast<uint32_t>(actual.data[k]),
                     std::bit_cast<uint32_t>(expected.data[k]));
        }
        QCOMPARE(actual.data64.size(), expected.data64.size());
        for (size_t k = 0; k < expected.data64.size(); ++k) {
            QCOMPARE(std::bit_cast<uint64_t>(actual.data64[k]),
                     std::bit_cast<uint64_t>(expected.data64[k]));
        }
    }
    // Non-finite weights load (the file is read faithfully) but are reported.
    const core::Status finite = core::io::checkFinite(*read, path);
    QCOMPARE(finite.ok(), variant != 3);
    if (variant == 3) {
        QVERIFY2(errorText(finite.error()).contains("tensor 'bad' element 0"),
                 qPrintable(errorText(finite.error())));
        QCOMPARE(core::io::countNonFinite(*read->find("bad")), int64_t{3});
        QCOMPARE(core::io::countNonFinite(*read->find("bad64")), int64_t{2});
    }
}

void tst_Safetensors::halfPrecision_data() {
    QTest::addColumn<QString>("dtype");
    QTest::addColumn<int>("bits");
    QTest::addColumn<double>("expected");  // NaN: expect a NaN
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    QTest::newRow("f16-one") << "F16" << 0x3C00 << 1.0;
    QTest::newRow("f16-minus-2.5") << "F16" << 0xC100 << -2.5;
    QTest::newRow("f16-max-65504") << "F16" << 0x7BFF << 65504.0;
    QTest::newRow("f16-smallest-subnormal") << "F16" << 0x0001 << std::ldexp(1.0, -24);
    QTest::newRow("f16-largest-subnormal") << "F16" << 0x03FF << 1023 * std::ldexp(1.0, -24);
    QTest::newRow("f16-smallest-normal") << "F16" << 0x0400 << std::ldexp(1.0, -14);
    QTest::newRow("f16-minus-zero") << "F16" << 0x8000 << -0.0;
    QTest::newRow("f16-third") << "F16" << 0x3555 << 0.333251953125;
    QTest::newRow("f16-inf") << "F16" << 0x7C00 << inf;
    QTest::newRow("f16-minus-inf") << "F16" << 0xFC00 << -inf;
    QTest::newRow("f16-nan") << "F16" << 0x7E00 << nan;
    QTest::newRow("bf16-one") << "BF16" << 0x3F80 << 1.0;
    QTest::newRow("bf16-minus-2.5") << "BF16" << 0xC020 << -2.5;
    QTest::newRow("bf16-65280") << "BF16" << 0x477F << 65280.0;  // 65504 is not a bfloat16
    QTest::newRow("bf16-max") << "BF16" << 0x7F7F << 3.3895313892515355e38;
    QTest::newRow("bf16-subnormal") << "BF16" << 0x0001 << std::ldexp(1.0, -133);
    QTest::newRow("bf16-inf") << "BF16" << 0x7F80 << inf;
    QTest::newRow("bf16-nan") << "BF16" << 0x7FC0 << nan;
}

// F16/BF16 files built by hand: one known element beside a 1.0 (so offsets are non-trivial).
void tst_Safetensors::halfPrecision() {
    QFETCH(QString, dtype);
    QFETCH(int, bits);
    QFETCH(double, expected);
    const bool f16 = dtype == "F16";
    const std::string header = "{\"one\":{\"dtype\":\"" + dtype.toStdString() +
                               "\",\"shape\":[1],\"data_offsets\":[0,2]},\"x\":{\"dtype\":\"" +
                               dtype.toStdString() + "\",\"shape\":[1,1],\"data_offsets\":[2,4]}}";
    const std::string file =
        rawFile(header, u16Bytes(f16 ? 0x3C00 : 0x3F80) + u16Bytes(static_cast<uint16_t>(bits)));
    auto read = core::io::parseSafetensors(file, "half");
    DS_VERIFY_OK(read);
    QCOMPARE(read->find("one")->data[0], 1.0f);
    const Tensor& x = *read->find("x");
    QCOMPARE(x.dtype, f16 ? DType::F16 : DType::BF16);
    const float v = x.data[0];
    if (std::isnan(expected)) {
        QVERIFY(std::isnan(v));
        QVERIFY(!core::io::checkFinite(*read).ok());
    } else {
        QCOMPARE(std::bit_cast<uint32_t>(v), std::bit_cast<uint32_t>(static_cast<float>(expected)));
        QCOMPARE(core::io::checkFinite(*read).ok(), std::isfinite(expected));
    }
}

// Byte for byte what `safetensors.torch.save_file({"b": torch.tensor([1., 2., 3.]),
// "a.weight": torch.tensor([[0.5, -1.], [2., 1e-3]], dtype=torch.float64)},
// metadata={"format": "pt"})` writes: compact JSON, "__metadata__" first, tensors sorted by
// dtype size (largest first) then name, the header padded with spaces to a multiple of 8.
void tst_Safetensors::pytorchLayout() {
    const std::string json =
        R"({"__metadata__":{"format":"pt"},"a.weight":{"dtype":"F64","shape":[2,2],)"
        R"("data_offsets":[0,32]},"b":{"dtype":"F32","shape":[3],"data_offsets":[32,44]}})";
    QCOMPARE(json.size(), size_t{150});
    const std::string header = json + std::string(2, ' ');  // 150 → 152 = 19 · 8
    std::string file("\x98\x00\x00\x00\x00\x00\x00\x00", 8);  // N = 152, little-endian
    file += header;
    file += doubleBytes({0.5, -1.0, 2.0, 1e-3}) + floatBytes({1.0f, 2.0f, 3.0f});
    QCOMPARE(file.size(), size_t{8 + 152 + 44});
    const std::string path = (m_dir.path() + "/torch.safetensors").toStdString();
    DS_VERIFY_OK(core::io::writeFileAtomically(path, file));

    auto read = core::io::readSafetensors(path);
    DS_VERIFY_OK(read);
    QCOMPARE(read->metadata.at("format"), std::string("pt"));
    QCOMPARE(read->tensors.size(), size_t{2});
    QCOMPARE(read->tensors[0].first, std::string("a.weight"));
    auto w = core::io::requireTensor(*read, "a.weight", {2, 2});
    DS_VERIFY_OK(w);
    QCOMPARE((*w)->data64, (std::vector<double>{0.5, -1.0, 2.0, 1e-3}));
    QCOMPARE((*w)->data[3], 1e-3f);
    auto b = core::io::requireTensor(*read, "b", {3});
    DS_VERIFY_OK(b);
    QCOMPARE((*b)->data, (std::vector<float>{1, 2, 3}));

    // Our writer produces exactly these bytes for the same checkpoint (same order given).
    Checkpoint c;
    c.set("a.weight", core::io::makeF64Tensor({2, 2}, {0.5, -1.0, 2.0, 1e-3}));
    c.set("b", core::io::makeF32Tensor({3}, {1, 2, 3}));
    c.metadata = {{"format", "pt"}};
    auto ours = core::io::serializeSafetensors(c);
    DS_VERIFY_OK(ours);
    QVERIFY(*ours == file);

    // Other writers: header order unlike the data order, no padding, spaces in the JSON.
    const std::string reordered =
        R"({ "b" : {"shape":[3],"dtype":"F32","data_offsets":[32,44]},)"
        R"( "a.weight": {"dtype":"F64","data_offsets":[0,32],"shape":[2,2]} })";
    auto other = core::io::parseSafetensors(
        rawFile(reordered, doubleBytes({0.5, -1.0, 2.0, 1e-3}) + floatBytes({1, 2, 3})), "x");
    DS_VERIFY_OK(other);
    QCOMPARE(other->tensors[0].first, std::string("b"));
    QCOMPARE(other->find("b")->data, (std::vector<float>{1, 2, 3}));
    QCOMPARE(other->find("a.weight")->data64[1], -1.0);
}

void tst_Safetensors::corrupt_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("problem");  // a phrase the message must contain
    QTest::addColumn<QString>("names");    // the tensor or field it must name (may be empty)
    const auto row = [](const char* tag, const std::string& bytes, const char* problem,
                        const char* names) {
        QTest::newRow(tag) << QByteArray::fromStdString(bytes) << problem << names;
    };
    const std::string f32x2 = floatBytes({1, 2});
    const auto one = [](const std::string& name, const std::string& body) {
        return "{\"" + name + "\":" + body + "}";
    };
    row("empty-file", "", "shorter than the 8-byte header length", "");
    row("five-bytes", std::string(5, '\x10'), "shorter than the 8-byte", "");
    row("header-length-absurd", rawFile("{}", "", 1ull << 40), "100 MB limit", "header length");
    row("header-length-past-eof", rawFile("{}", "", 100), "runs past the end of the file",
        "header length = 100");
    row("header-length-huge-u64", rawFile("{}", "", ~0ull - 1), "100 MB limit", "header length");
    row("not-json", rawFile("GGUF", ""), "does not start with '{'", "header");
    // Files of another kind are named by their kind once their header is refused.
    row("zip-archive", std::string("PK\3\4\x14\0\0\0\x08\0", 10) + std::string(40, '\0'),
        "not a safetensors file: the file is a ZIP archive, as a TorchScript .pt model is", "");
    row("npy-array", std::string("\x93NUMPY\x01\0v\0{'descr'", 18),
        "not a safetensors file: the file is a NumPy .npy array", "");
    row("gzip", std::string("\x1f\x8b\x08\0\0\0\0\0\0\x03", 10),
        "not a safetensors file: the file is gzip-compressed", "");
    row("pickle", std::string("\x80\x02}q\0(X\x01\0\0\0", 12),
        "not a safetensors file: the file is a Python pickle", "");
    row("json-file", std::string("{\"w\": [1, 2, 3]}\n"), "the file is JSON text", "");
    // A valid header length may begin with those bytes: 0x7B ('{') here is 123 bytes.
    row("length-starting-like-json", rawFile(std::string(123, 'x'), ""), "does not start with '{'",
        "header");
    row("json-truncated", rawFile("{\"w\":{\"dtype\":", ""), "unexpected end", "(header)");
    row("json-trailing-garbage", rawFile("{}x", ""), "after the JSON value", "(header)");
    row("control-character", rawFile("{\"w\x01\":{}}", ""), "control character", "header");
    row("invalid-utf8", rawFile("{\"w\xff\":{}}", ""), "not valid UTF-8", "header");
    row("unknown-dtype", rawFile(one("w", R"({"dtype":"I32","shape":[2],"data_offsets":[0,8]})"),
                                 f32x2),
        "unsupported dtype", "tensor 'w' dtype = I32");
    row("dtype-not-string", rawFile(one("w", R"({"dtype":4,"shape":[2],"data_offsets":[0,8]})"),
                                    f32x2),
        "must be a string", "tensor 'w' dtype");
    row("shape-overflow",
        rawFile(one("w", R"({"dtype":"F32","shape":[4294967296,4294967296,2],)"
                         R"("data_offsets":[0,8]})"),
                f32x2),
        "overflows 64 bits", "tensor 'w' shape");
    row("shape-bytes-overflow",
        rawFile(one("w", R"({"dtype":"F64","shape":[4611686018427387904],"data_offsets":[0,8]})"),
                f32x2),
        "not a non-negative integer", "tensor 'w' shape");
    row("shape-negative",
        rawFile(one("w", R"({"dtype":"F32","shape":[-2],"data_offsets":[0,8]})"), f32x2),
        "not a non-negative integer", "tensor 'w' shape = -2");
    row("shape-fraction",
        rawFile(one("w", R"({"dtype":"F32","shape":[1.5],"data_offsets":[0,8]})"), f32x2),
        "not a non-negative integer", "tensor 'w' shape = 1.5");
    row("shape-not-array",
        rawFile(one("w", R"({"dtype":"F32","shape":"2","data_offsets":[0,8]})"), f32x2),
        "array of non-negative integers", "tensor 'w' shape");
    row("offsets-reversed",
        rawFile(one("w", R"({"dtype":"F32","shape":[2],"data_offsets":[8,0]})"), f32x2),
        "reversed", "tensor 'w' data_offsets = [8, 0]");
    row("offsets-past-data",
        rawFile(one("w", R"({"dtype":"F32","shape":[4],"data_offsets":[0,16]})"), f32x2),
        "past the end of the data section", "tensor 'w' data_offsets = [0, 16]");
    row("offsets-one-value",
        rawFile(one("w", R"({"dtype":"F32","shape":[2],"data_offsets":[8]})"), f32x2),
        "two non-negative integers", "tensor 'w' data_offsets");
    row("offsets-size-mismatch",
        rawFile(one("w", R"({"dtype":"F32","shape":[3],"data_offsets":[0,8]})"), f32x2),
        "needs 12", "tensor 'w' data_offsets");
    row("offsets-overlap",
        rawFile(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                R"("b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}})",
                floatBytes({1, 2, 3})),
        "overlaps tensor 'a'", "tensor 'b'");
    row("offsets-gap",
        rawFile(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},)"
                R"("b":{"dtype":"F32","shape":[1],"data_offsets":[8,12]}})",
                floatBytes({1, 2, 3})),
        "gap of 4 bytes", "tensor 'b'");
    row("gap-at-start",
        rawFile(one("w", R"({"dtype":"F32","shape":[1],"data_offsets":[4,8]})"), f32x2),
        "at the start of the data", "tensor 'w'");
    row("trailing-bytes",
        rawFile(one("w", R"({"dtype":"F32","shape":[1],"data_offsets":[0,4]})"), f32x2),
        "trailing bytes", "4 bytes");
    const std::string whole = one("w", R"({"dtype":"F32","shape":[2],"data_offsets":[0,8]})");
    row("truncated-data", rawFile(whole, f32x2).substr(0, 8 + whole.size() + 5),
        "past the end of the data section", "tensor 'w'");
    row("duplicate-name",
        rawFile(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},)"
                R"("a":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})",
                f32x2),
        "appears twice", "(header):1:55 = \"a\"");  // refused by the JSON reader
    row("empty-name",
        rawFile(one("", R"({"dtype":"F32","shape":[2],"data_offsets":[0,8]})"), f32x2),
        "empty name", "tensor ''");
    row("missing-shape", rawFile(one("w", R"({"dtype":"F32","data_offsets":[0,8]})"), f32x2),
        "has no shape", "tensor 'w'");
    row("unknown-key",
        rawFile(one("w", R"({"dtype":"F32","shape":[2],"data_offsets":[0,8],"x":1})"), f32x2),
        "unknown key", "tensor 'w' = x");
    row("entry-not-object", rawFile(one("w", "[1,2]"), ""), "must be an object", "tensor 'w'");
    row("metadata-number", rawFile(R"({"__metadata__":{"steps":100}})", ""), "not a string",
        "__metadata__ 'steps' = 100");
    row("metadata-not-object", rawFile(R"({"__metadata__":"x"})", ""),
        "must be an object of strings", "__metadata__");
    row("metadata-twice", rawFile(R"({"__metadata__":{},"__metadata__":{}})", ""),
        "appears twice", "(header):1:20 = \"__metadata__\"");
    row("deep-nesting", rawFile("{\"a\":" + std::string(100, '[') + std::string(100, ']') + "}", ""),
        "too deep", "(header)");
    row("top-level-array-after-brace", rawFile("{\"a\":1}", ""), "must be an object", "tensor 'a'");
}

void tst_Safetensors::corrupt() {
    QFETCH(QByteArray, bytes);
    QFETCH(QString, problem);
    QFETCH(QString, names);
    auto read = core::io::parseSafetensors(bytes.toStdString(), "bad.safetensors");
    QVERIFY(!read.ok());
    const QString message = errorText(read.error());
    QVERIFY2(message.startsWith("bad.safetensors"), qPrintable(message));
    QVERIFY2(message.contains(problem), qPrintable(message));
    QVERIFY2(message.contains(names), qPrintable(message));
}

void tst_Safetensors::writeRejects_data() {
    QTest::addColumn<int>("variant");
    QTest::addColumn<QString>("expected");
    QTest::newRow("value-count") << 0 << "tensor 'w' = 5 values: shape [2, 3] needs 6 values";
    QTest::newRow("f16-not-written") << 1 << "only F32 and F64";
    QTest::newRow("negative-dimension") << 2 << "negative dimension";
    QTest::newRow("reserved-name") << 3 << "not __metadata__";
    QTest::newRow("duplicate-name") << 4 << "appears twice";
}

void tst_Safetensors::writeRejects() {
    QFETCH(int, variant);
    QFETCH(QString, expected);
    Checkpoint c;
    switch (variant) {
        case 0: c.set("w", core::io::makeF32Tensor({2, 3}, {1, 2, 3, 4, 5})); break;
        case 1: {
            Tensor t = core::io::makeF32Tensor({1}, {1});
            t.dtype = DType::F16;
            c.set("w", t);
            break;
        }
        case 2: c.set("w", core::io::makeF32Tensor({-1}, {})); break;
        case 3: c.set("__metadata__", core::io::makeF32Tensor({1}, {1})); break;
        default:
            c.tensors.emplace_back("w", core::io::makeF32Tensor({1}, {1}));
            c.tensors.emplace_back("w", core::io::makeF32Tensor({1}, {1}));
            break;
    }
    const core::Status s = core::io::writeSafetensors((m_dir.path() + "/rejected").toStdString(), c);
    QVERIFY(!s.ok());
    QVERIFY2(errorText(s.error()).contains(expected), qPrintable(errorText(s.error())));
    QVERIFY(!QFile::exists(m_dir.path() + "/rejected"));
}

// The write goes through a temporary file: success leaves exactly the file, a failure leaves
// the old file (or whatever was there) and no temporary.
void tst_Safetensors::atomicWrite() {
    QTemporaryDir dir;
    const std::string path = (dir.path() + "/model.safetensors").toStdString();
    Checkpoint first;
    first.set("w", core::io::makeF32Tensor({2}, {1, 2}));
    DS_VERIFY_OK(core::io::writeSafetensors(path, first));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden),
             QStringList{"model.safetensors"});
    const auto before = core::io::readTextFile(path);
    DS_VERIFY_OK(before);

    Checkpoint invalid;
    invalid.set("w", core::io::makeF32Tensor({3}, {1, 2}));
    QVERIFY(!core::io::writeSafetensors(path, invalid).ok());
    QCOMPARE(*core::io::readTextFile(path), *before);

    // Replacing a directory fails at the rename: the directory stays, the temporary goes.
    QVERIFY(QDir(dir.path()).mkdir("taken"));
    const core::Status s =
        core::io::writeSafetensors((dir.path() + "/taken").toStdString(), first);
    QVERIFY(!s.ok());
    QVERIFY(QFileInfo(dir.path() + "/taken").isDir());
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden),
             QStringList{"model.safetensors"});
    // A missing directory: an IoError naming the path.
    const core::Status missing =
        core::io::writeSafetensors((dir.path() + "/no/such/dir.safetensors").toStdString(), first);
    QVERIFY(!missing.ok());
    QCOMPARE(missing.error().code, core::ErrorCode::IoError);
    QVERIFY(errorText(missing.error()).contains("dir.safetensors"));

    // Overwriting with a new checkpoint replaces the contents.
    Checkpoint second;
    second.set("v", core::io::makeF64Tensor({1}, {2.0}));
    DS_VERIFY_OK(core::io::writeSafetensors(path, second));
    auto read = core::io::readSafetensors(path);
    DS_VERIFY_OK(read);
    QVERIFY(read->find("w") == nullptr && read->find("v") != nullptr);
}

void tst_Safetensors::requireTensor() {
    Checkpoint c;
    c.set("net.0.weight", core::io::makeF32Tensor({4, 3}, std::vector<float>(12, 0.f)));
    DS_VERIFY_OK(core::io::requireTensor(c, "net.0.weight", {4, 3}));
    auto wrong = core::io::requireTensor(c, "net.0.weight", {3, 4}, "m.safetensors");
    QVERIFY(!wrong.ok());
    QCOMPARE(errorText(wrong.error()),
             QString("m.safetensors: tensor 'net.0.weight' shape = [4, 3]: expected shape [3, 4]"));
    auto missing = core::io::requireTensor(c, "net.1.bias", {3});
    QVERIFY(!missing.ok());
    QCOMPARE(errorText(missing.error()),
             QString("tensor 'net.1.bias': the checkpoint has no such tensor (expected shape [3])"));
    auto io = core::io::readSafetensors((m_dir.path() + "/absent.safetensors").toStdString());
    QVERIFY(!io.ok());
    QCOMPARE(io.error().code, core::ErrorCode::IoError);
}

void tst_Safetensors::metadataRoundTrip() {
    core::io::CheckpointInfo info;
    info.process = "categorical";
    info.architecture = R"({"kind":"mlp","width":512,"depth":3})";
    info.numClasses = 4;
    info.numPositions = 64;
    info.numConditions = 10;
    info.pi = {0.1, 0.2, 0.3, 0.4};
    info.schedule = "cosine";
    info.dataSet = "digits:levels=4";
    info.trainingSteps = 20000;
    info.trainLoss = 0.123456789012345678;
    info.seed = 18446744073709551615ull;  // the full 64-bit range survives
    Checkpoint c;
    c.metadata = core::io::toMetadata(info);
    c.set("w", core::io::makeF32Tensor({1}, {1}));
    const std::string path = (m_dir.path() + "/meta.safetensors").toStdString();
    DS_VERIFY_OK(core::io::writeSafetensors(path, c));
    auto read = core::io::readSafetensors(path);
    DS_VERIFY_OK(read);
    QCOMPARE(read->metadata.at("held_out_loss"), std::string("null"));
    auto back = core::io::checkpointInfoFromMetadata(read->metadata, path);
    DS_VERIFY_OK(back);
    QCOMPARE(back->formatVersion, core::io::kCheckpointFormatVersion);
    QCOMPARE(back->process, info.process);
    QCOMPARE(back->architecture, info.architecture);
    QCOMPARE(back->numClasses, 4);
    QCOMPARE(back->numPositions, 64);
    QCOMPARE(back->numConditions, 10);
    QCOMPARE(back->pi, info.pi);
    QCOMPARE(back->schedule, info.schedule);
    QCOMPARE(back->dataSet, info.dataSet);
    QCOMPARE(back->trainingSteps, 20000LL);
    QCOMPARE(back->trainLoss, info.trainLoss);
    QVERIFY(std::isnan(back->heldOutLoss));
    QCOMPARE(back->seed, info.seed);
    // A PyTorch export without our keys reads with defaults.
    auto bare = core::io::checkpointInfoFromMetadata({{"format", "pt"}});
    DS_VERIFY_OK(bare);
    QCOMPARE(bare->formatVersion, 0);
    QVERIFY(!bare->maskState);
    // mask_state is written only when true, and reads back.
    QVERIFY(!core::io::toMetadata(info).contains("mask_state"));
    core::io::CheckpointInfo masked = info;
    masked.maskState = true;
    const auto metadata = core::io::toMetadata(masked);
    QCOMPARE(metadata.at("mask_state"), std::string("true"));
    auto maskedBack = core::io::checkpointInfoFromMetadata(metadata);
    DS_VERIFY_OK(maskedBack);
    QVERIFY(maskedBack->maskState);
}

void tst_Safetensors::metadataErrors_data() {
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("expected");
    QTest::newRow("classes-text") << "num_classes" << "four" << "'num_classes' = four: expected an integer";
    QTest::newRow("classes-negative") << "num_classes" << "-3" << "expected an integer";
    QTest::newRow("classes-huge") << "num_classes" << "99999999999" << "expected an integer";
    QTest::newRow("seed-overflow") << "seed" << "18446744073709551616" << "'seed'";
    QTest::newRow("steps-float") << "training_steps" << "1.5" << "'training_steps'";
    QTest::newRow("newer-format") << "format_version" << "99" << "newer than this build";
    QTest::newRow("process") << "process" << "ddpm" << "categorical or gaussian";
    QTest::newRow("loss-inf") << "train_loss" << "inf" << "finite number or null";
    QTest::newRow("pi-negative") << "pi" << "[0.5,-0.5]" << "non-negative numbers";
    QTest::newRow("pi-not-json") << "pi" << "0.5 0.5" << "'pi'";
    QTest::newRow("architecture-array") << "architecture" << "[1]" << "JSON object";
    QTest::newRow("mask-state") << "mask_state" << "yes" << "'mask_state' = yes: expected true or false";
}

void tst_Safetensors::metadataErrors() {
    QFETCH(QString, key);
    QFETCH(QString, value);
    QFETCH(QString, expected);
    auto info = core::io::checkpointInfoFromMetadata({{key.toStdString(), value.toStdString()}},
                                                     "m.safetensors");
    QVERIFY(!info.ok());
    const QString message = errorText(info.error());
    QVERIFY2(message.contains(expected) && message.contains("m.safetensors"), qPrintable(message));
}

QTEST_GUILESS_MAIN(tst_Safetensors)
#include "tst_safetensors.moc"
