// SPDX-License-Identifier: MIT
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/util/limits.h"
#include "core/util/result.h"

// Command-line arguments of a subcommand: `--key value` pairs, bare `--flag`s and positionals.
namespace app::cli {

class Args {
public:
    // argv[0] is the subcommand name. Fails on a repeated option.
    static core::Result<Args> parse(const std::vector<std::string>& argv);

    const std::string& command() const { return m_command; }
    bool has(const std::string& key) const { return m_options.count(key) > 0; }
    // The value of --key, or `fallback` when absent.
    std::string get(const std::string& key, const std::string& fallback = {}) const;
    // The value of --key; an error naming the option when absent.
    core::Result<std::string> require(const std::string& key) const;
    core::Result<int> getInt(const std::string& key, int fallback) const;
    core::Result<long long> getInt64(const std::string& key, long long fallback) const;
    core::Result<double> getDouble(const std::string& key, double fallback) const;
    // The value of --key (or `fallback`), read as a 64-bit integer and refused, naming the
    // option, the value and the range, unless it lies in `range` (core/util/limits.h).
    core::Result<int> getBounded(const std::string& key, int fallback,
                                 const core::limits::IntRange& range) const;
    const std::vector<std::string>& positionals() const { return m_positionals; }
    // An error naming the first option not in `known` (catches typos such as --step for --steps).
    core::Status checkKnown(const std::vector<std::string>& known) const;

private:
    std::string m_command;
    std::map<std::string, std::string> m_options;
    std::vector<std::string> m_positionals;
};

// Strict number parsing shared by the subcommands: the whole text must be a finite number.
core::Result<double> parseDouble(const std::string& text, const std::string& field);
core::Result<long long> parseInt(const std::string& text, const std::string& field);
// `text` as a whole number within `range`; the error names `field`, the text and the range.
core::Result<int> parseBounded(const std::string& text, const std::string& field,
                               const core::limits::IntRange& range);
// "1,2.5,3" → numbers; "a:b" style specs are split by the callers.
core::Result<std::vector<double>> parseDoubleList(const std::string& text, const std::string& field);
core::Result<std::vector<int>> parseIntList(const std::string& text, const std::string& field);

// Prints the error as one line on stderr and returns the CLI's error exit code, 2.
int fail(const core::Error& error);
int fail(const std::string& message);

constexpr int kExitError = 2;
// A run stopped by Ctrl+C (128 + SIGINT, as shells report it), after saving what it reached.
constexpr int kExitInterrupted = 130;

}  // namespace app::cli
