// SPDX-License-Identifier: MIT
// The architecture as a rule the sources keep: the command line reaches the engines only
// through core/project (besides the file formats of core/io and core/util's helpers), its
// subcommand files stay readable, and no function of the front ends grows past 100 lines.
#include <QTest>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

const fs::path kSource = DIFFUSCOPE_SOURCE_DIR;

std::string readText(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// The C++ sources under `dir` (relative to the source tree), sorted.
std::vector<fs::path> sourcesUnder(const std::string& dir, bool headers) {
    std::vector<fs::path> out;
    for (const auto& entry : fs::recursive_directory_iterator(kSource / dir)) {
        const std::string ext = entry.path().extension().string();
        if (entry.is_regular_file() && (ext == ".cpp" || (headers && ext == ".h"))) {
            out.push_back(entry.path());
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

// The text with comments, string and character literals blanked (newlines kept), so that
// braces and parentheses in them do not count.
std::string codeOnly(const std::string& text) {
    std::string out = text;
    enum { Code, Line, Block, String, Char } state = Code;
    for (size_t i = 0; i < out.size(); ++i) {
        const char c = text[i];
        const char next = i + 1 < text.size() ? text[i + 1] : '\0';
        switch (state) {
            case Code:
                if (c == 'R' && next == '"' &&
                    !(i > 0 && (std::isalnum(static_cast<unsigned char>(text[i - 1])) ||
                                text[i - 1] == '_'))) {
                    // A raw string R"d( … )d": blanked up to its end, newlines kept.
                    const size_t open = text.find('(', i + 2);
                    const std::string end = ")" + text.substr(i + 2, open - i - 2) + "\"";
                    const size_t close = text.find(end, open);
                    const size_t last =
                        close == std::string::npos ? text.size() : close + end.size();
                    for (size_t k = i; k < last; ++k) {
                        if (out[k] != '\n') out[k] = ' ';
                    }
                    i = last - 1;
                    continue;
                }
                if (c == '/' && next == '/')
                    state = Line;
                else if (c == '/' && next == '*')
                    state = Block;
                else if (c == '"')
                    state = String;
                else if (c == '\'' &&
                         !(i > 0 && std::isxdigit(static_cast<unsigned char>(text[i - 1]))))
                    state = Char;  // not a digit separator (1'000)
                else
                    continue;
                out[i] = ' ';
                break;
            case Line:
                if (c == '\n')
                    state = Code;
                else
                    out[i] = ' ';
                break;
            case Block:
                if (c == '*' && next == '/') {
                    out[i] = out[i + 1] = ' ';
                    ++i;
                    state = Code;
                } else if (c != '\n') {
                    out[i] = ' ';
                }
                break;
            case String:
            case Char:
                if (c == '\\') {
                    out[i] = ' ';
                    if (i + 1 < out.size() && text[i + 1] != '\n') out[++i] = ' ';
                } else {
                    if (c == (state == String ? '"' : '\'')) state = Code;
                    if (c != '\n') out[i] = ' ';
                }
                break;
        }
    }
    return out;
}

struct FunctionSpan {
    std::string signature;
    int firstLine = 0;
    int lines = 0;
};

// The functions defined at namespace scope of a .cpp file and their lengths in lines, from the
// first line of the signature to the closing brace. A statement at namespace scope that has a
// '(' before any '=' and opens a brace is a function; a constructor's member initialisers
// (`: a{x}, b(y) {`) belong to it.
std::vector<FunctionSpan> functionsOf(const std::string& text) {
    const std::string code = codeOnly(text);
    std::vector<FunctionSpan> out;
    std::vector<bool> namespaceBraces;  // one per open brace at namespace scope or above
    int line = 1;
    std::string statement;  // namespace-scope text since the last statement ended
    int statementLine = 1;
    int functionDepth = -1;  // brace depth of the function being measured (-1: none)
    int depth = 0;
    FunctionSpan current;
    const auto atNamespaceScope = [&] {
        return std::all_of(namespaceBraces.begin(), namespaceBraces.end(),
                           [](bool n) { return n; });
    };
    for (size_t i = 0; i < code.size(); ++i) {
        const char c = code[i];
        if (c == '\n') ++line;
        if (functionDepth >= 0) {
            if (c == '{') ++depth;
            if (c == '}' && --depth == functionDepth) {
                // Member initialisers continue the statement: `a{x}, b{y} {` or `a{x} {`.
                size_t j = i + 1;
                while (j < code.size() && std::isspace(static_cast<unsigned char>(code[j]))) ++j;
                if (j < code.size() && (code[j] == ',' || code[j] == '{')) continue;
                current.lines = line - current.firstLine + 1;
                out.push_back(current);
                functionDepth = -1;
                statement.clear();
            }
            continue;
        }
        if (c == '{') {
            const bool isNamespace = statement.find("namespace") != std::string::npos &&
                                     statement.find('(') == std::string::npos;
            const size_t paren = statement.find('(');
            const size_t equals = statement.find('=');
            const bool isFunction = !isNamespace && atNamespaceScope() &&
                                    paren != std::string::npos &&
                                    (equals == std::string::npos || paren < equals);
            if (isFunction) {
                current = {statement.substr(0, statement.find('(')), statementLine, 0};
                functionDepth = depth;
                ++depth;
                continue;
            }
            namespaceBraces.push_back(isNamespace);
            ++depth;
            statement.clear();
            continue;
        }
        if (c == '}') {
            if (!namespaceBraces.empty()) namespaceBraces.pop_back();
            --depth;
            statement.clear();
            continue;
        }
        if (c == ';') {
            statement.clear();
            continue;
        }
        if (statement.empty() && std::isspace(static_cast<unsigned char>(c))) continue;
        if (statement.empty()) statementLine = line;
        statement += c;
    }
    return out;
}

}  // namespace

class tst_SourceLayout : public QObject {
    Q_OBJECT

private slots:
    void theCommandLineGoesThroughTheProject();
    void subcommandFilesStayShort();
    void frontEndFunctionsStayShort();
    void theFunctionScannerMeasures();
};

// app/ includes from core only core/project (the one pipeline), core/io (file formats) and
// core/util (results, limits, threads).
void tst_SourceLayout::theCommandLineGoesThroughTheProject() {
    std::vector<fs::path> files = sourcesUnder("app", true);
    QVERIFY(files.size() > 10);
    QStringList below;
    for (const fs::path& file : files) {
        std::istringstream text(readText(file));
        std::string row;
        for (int line = 1; std::getline(text, row); ++line) {
            const size_t at = row.find("#include \"core/");
            if (at == std::string::npos) continue;
            const std::string target = row.substr(at + 10);
            if (target.rfind("core/project/", 0) == 0 || target.rfind("core/io/", 0) == 0 ||
                target.rfind("core/util/", 0) == 0) {
                continue;
            }
            below << QString::fromStdString(fs::relative(file, kSource).string() + ":" +
                                            std::to_string(line) + " " + row);
        }
    }
    QVERIFY2(below.isEmpty(), qPrintable("below core/project:\n" + below.join('\n')));
}

void tst_SourceLayout::subcommandFilesStayShort() {
    QStringList long_;
    int files = 0;
    for (const fs::path& file : sourcesUnder("app/cli", false)) {
        if (file.filename().string().rfind("cmd_", 0) != 0) continue;
        ++files;
        const std::string text = readText(file);
        const auto lines = std::count(text.begin(), text.end(), '\n');
        if (lines >= 500) {
            long_ << QString("%1: %2 lines")
                         .arg(QString::fromStdString(file.filename().string()))
                         .arg(lines);
        }
    }
    QVERIFY(files > 10);
    QVERIFY2(long_.isEmpty(), qPrintable(long_.join('\n')));
}

void tst_SourceLayout::frontEndFunctionsStayShort() {
    QStringList long_;
    int functions = 0;
    for (const std::string dir : {"app", "ui"}) {
        for (const fs::path& file : sourcesUnder(dir, false)) {
            for (const FunctionSpan& f : functionsOf(readText(file))) {
                ++functions;
                if (f.lines > 100) {
                    long_ << QString("%1:%2 %3 (%4 lines)")
                                 .arg(QString::fromStdString(fs::relative(file, kSource).string()))
                                 .arg(f.firstLine)
                                 .arg(QString::fromStdString(f.signature).simplified())
                                 .arg(f.lines);
                }
            }
        }
    }
    QVERIFY2(functions > 500, qPrintable(QString::number(functions)));
    QVERIFY2(long_.isEmpty(), qPrintable("over 100 lines:\n" + long_.join('\n')));
}

// The scanner against a hand-counted file: what it must find, and what it must not take for a
// function (tables, namespaces, braces in strings and comments).
void tst_SourceLayout::theFunctionScannerMeasures() {
    const std::string text =
        "namespace a {\n"                               // 1
        "namespace {\n"                                 // 2
        "const std::vector<int> kTable = {f(1), 2};\n"  // 3
        "struct S {\n"                                  // 4
        "    int g() { return 1; }\n"                   // 5
        "};\n"                                          // 6
        "}  // namespace {\n"                           // 7
        "int h(int x) {\n"                              // 8
        "    const char* s = \"}}{\";  // }\n"          // 9
        "    /* { */ return R\"x({)x\" ? x : 0;\n"      // 10
        "}\n"                                           // 11
        "Foo::Foo(int x)\n"                             // 12
        "    : m_a{x}, m_b(x) {\n"                      // 13
        "    auto l = [] { return '}'; };\n"            // 14
        "}\n"                                           // 15
        "}  // namespace a\n";                          // 16
    const std::vector<FunctionSpan> found = functionsOf(text);
    QCOMPARE(found.size(), size_t(2));
    QCOMPARE(found[0].firstLine, 8);
    QCOMPARE(found[0].lines, 4);
    QCOMPARE(QString::fromStdString(found[0].signature), QString("int h"));
    QCOMPARE(found[1].firstLine, 12);
    QCOMPARE(found[1].lines, 4);
}

QTEST_GUILESS_MAIN(tst_SourceLayout)
#include "tst_source_layout.moc"
