// SPDX-License-Identifier: MIT
// `diffuscope chain`: a Markov chain fitted on English text, the data of `decode --chain`
// (docs/categorical.md, "Decoding on a Markov chain").
#include <algorithm>
#include <iostream>
#include <sstream>

#include "app/cli/commands.h"
#include "core/project/chain_decoding.h"

namespace app::cli {

using core::Result;

namespace {

// A character as the summary names it: control characters escaped, the rest as they are.
std::string shown(const std::string& character) {
    if (character.size() == 1 && (static_cast<unsigned char>(character[0]) < 0x20 || character[0] == 0x7F)) {
        static constexpr char kHex[] = "0123456789abcdef";
        const auto byte = static_cast<unsigned char>(character[0]);
        return std::string("\\x") + kHex[byte >> 4] + kHex[byte & 15];
    }
    return character;
}

}  // namespace

const CommandSpec& chainSpec() {
    static const CommandSpec spec{
        "chain",
        "a Markov chain of letters fitted on an English text (the data of decode --chain)",
        "",
        {required("text", "FILE", "the text (UTF-8)"),
         required("out", "FILE", "the chain written as JSON"),
         valued("alpha", "α", "0.1", "add-α smoothing of the pair counts and the initial law"),
         valued("source", "TEXT", "", "where the text comes from, kept in the file's \"source\"")},
        "The alphabet is a–z, space and \".\" (K = 28): letters are lower-cased, . ! and ? end a\n"
        "sentence, any run of white space is one space; every other character is left out, and\n"
        "the summary names each with its count. T(a, b) = (n(a, b) + α)/(n(a) + Kα) over adjacent\n"
        "pairs, initial(a) = (n(a) + α)/(n + Kα) over the characters. The file reads back with\n"
        "decode --chain FILE.\n"};
    return spec;
}

int runChain(const Args& args) {
    Result<std::string> textPath = args.require("text");
    if (!textPath) return fail(textPath.error());
    Result<std::string> out = args.require("out");
    if (!out) return fail(out.error());
    Result<double> alpha = args.getDouble("alpha");
    if (!alpha) return fail(alpha.error());
    auto fit = core::project::fitChainFile(*textPath, *out, *alpha, args.get("source"));
    if (!fit) return fail(fit.error());
    std::vector<std::pair<std::string, int64_t>> left(fit->outside.begin(), fit->outside.end());
    std::stable_sort(left.begin(), left.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    int64_t leftOut = 0;
    for (const auto& [c, n] : left) leftOut += n;
    std::ostringstream summary;
    summary << *out << ": " << fit->chain.numStates() << " states fitted on " << fit->characters
            << " characters of the alphabet (α = " << core::shortestText(*alpha) << ")\n";
    summary << "left out " << leftOut << " characters of " << left.size() << " kinds outside it";
    for (size_t i = 0; i < left.size(); ++i) summary << (i == 0 ? ": " : ", ") << '"' << shown(left[i].first) << "\" " << left[i].second;
    summary << '\n';
    std::cout << summary.str();
    return 0;
}

}  // namespace app::cli
