// SPDX-License-Identifier: MIT
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "app/cli/options.h"
#include "core/util/limits.h"
#include "core/util/result.h"

// Command-line arguments of a subcommand, read against its table of options (app/cli/options.h):
// `--key value` or `--key=value` pairs, bare `--flag`s and positionals.
namespace app::cli {

class Args {
public:
    // argv[0] is the subcommand name. Fails, naming the option, on an option not in `spec`, a
    // repeated option, a valued option with an empty value, a flag with a value other than
    // 1/0/true/false, or a positional argument when `spec` takes none. With --help anywhere,
    // only repeats are checked and helpRequested() is true.
    static core::Result<Args> parse(const std::vector<std::string>& argv, const CommandSpec& spec);

    const std::string& command() const { return m_command; }
    bool helpRequested() const { return m_help; }
    // Whether --key was given on the command line (a default does not count).
    bool has(const std::string& key) const { return m_options.count(key) > 0; }
    // Whether the flag --key is on: given bare, or as =1 or =true.
    bool flag(const std::string& key) const;
    // The value of --key, or else the table's default ("" when it declares none).
    std::string get(const std::string& key) const;
    // Every value of a Repeated option, in command-line order (empty when absent).
    std::vector<std::string> getAll(const std::string& key) const;
    // For a default the command works out from other options (the table declares none): the
    // value of --key, or `fallback` when absent.
    std::string getOr(const std::string& key, const std::string& fallback) const;
    // The value of --key (or its default); an error naming the option when there is neither.
    core::Result<std::string> require(const std::string& key) const;
    // get(key) read as a number; an error naming the option when it is not one, or when the
    // option is absent and has no default.
    core::Result<int> getInt(const std::string& key) const;
    core::Result<long long> getInt64(const std::string& key) const;
    core::Result<double> getDouble(const std::string& key) const;
    // get(key) as a whole number refused, naming the option, the value and the range, unless
    // it lies in `range` (core/util/limits.h). The second form is for a computed default.
    core::Result<int> getBounded(const std::string& key, const core::limits::IntRange& range) const;
    core::Result<int> getBounded(const std::string& key,
                                 const core::limits::IntRange& range,
                                 int fallback) const;
    const std::vector<std::string>& positionals() const { return m_positionals; }
    // Every option given on the command line with its value (each value of a Repeated one),
    // in command-line order; flags with their text.
    std::vector<std::pair<std::string, std::string>> given() const;

private:
    core::Status check() const;

    const CommandSpec* m_spec = nullptr;
    std::string m_command;
    std::map<std::string, std::string> m_options;
    std::map<std::string, std::vector<std::string>> m_repeats;  // Repeated options: all values
    std::vector<std::string> m_order;  // the options in command-line order, for the errors
    std::vector<std::string> m_positionals;
    bool m_help = false;
};

// The option `key` as one of a Choice table's values (its default when absent); the error names
// --key, the text and the identifiers accepted.
template <typename Enum>
core::Result<Enum> getChoice(const Args& args,
                             const std::string& key,
                             const std::vector<core::project::Choice<Enum>>& choices) {
    return core::project::parseChoice(choices, args.get(key), "--" + key);
}

// --threads, or core::defaultThreads() (OMP_NUM_THREADS, else every core) when absent; errors
// name --threads and the value.
core::Result<int> threadCount(const Args& args);

// Strict number parsing shared by the subcommands: the whole text must be a finite number.
core::Result<double> parseDouble(const std::string& text, const std::string& field);
core::Result<long long> parseInt(const std::string& text, const std::string& field);
// `text` as a whole number within `range`; the error names `field`, the text and the range.
core::Result<int> parseBounded(const std::string& text,
                               const std::string& field,
                               const core::limits::IntRange& range);
// "1,2.5,3" → numbers; "a:b" style specs are split by the callers.
core::Result<std::vector<double>> parseDoubleList(const std::string& text,
                                                  const std::string& field);
core::Result<std::vector<int>> parseIntList(const std::string& text, const std::string& field);

// Prints the error as one line on stderr and returns the CLI's error exit code, 2.
int fail(const core::Error& error);
int fail(const std::string& message);

constexpr int kExitError = 2;
// A run stopped by Ctrl+C (128 + SIGINT, as shells report it), after saving what it reached.
constexpr int kExitInterrupted = 130;

}  // namespace app::cli
