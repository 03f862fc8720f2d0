// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

#include "core/project/choice.h"

// What a subcommand accepts, declared once: the table drives the parser (unknown options, flags,
// empty values), the defaults that Args::get returns and the text of `diffuscope help CMD`.
//
// Whether an option was typed is Args::has, whatever its default: an option that fills its value
// from elsewhere when absent (a project file, say) asks has() first and get() after. For the same
// reason required options are checked when the command asks for them (Args::require), not by the
// parser: another source may provide them.
namespace app::cli {

enum class OptionKind {
    Valued,    // --name VALUE or --name=VALUE
    Required,  // valued, and the command refuses to run without it
    Flag,      // --name alone; --name=1/0 (or true/false) says it explicitly
    Repeated,  // valued, and may be given more than once (Args::getAll)
};

struct Option {
    std::string name;          // without the leading "--"
    std::string placeholder;   // the value in the help ("N", "FILE"); empty for a flag
    std::string defaultValue;  // Args::get's value when absent, shown in the help; "" for none
    std::string description;   // one line; a default the command works out is said here
    OptionKind kind = OptionKind::Valued;
    std::string field;  // the project field the option sets ("gaussian.estimator"), if any
};

// Shorthands that keep the tables one line per option.
inline Option required(std::string name, std::string placeholder, std::string description) {
    return {std::move(name), std::move(placeholder), "", std::move(description),
            OptionKind::Required};
}
inline Option valued(std::string name,
                     std::string placeholder,
                     std::string defaultValue,
                     std::string description) {
    return {std::move(name), std::move(placeholder), std::move(defaultValue),
            std::move(description), OptionKind::Valued};
}
inline Option repeated(std::string name, std::string placeholder, std::string description) {
    return {std::move(name), std::move(placeholder), "", std::move(description),
            OptionKind::Repeated};
}
inline Option flag(std::string name, std::string description) {
    return {std::move(name), "", "", std::move(description), OptionKind::Flag};
}

// An option whose values are the identifiers of a project's Choice table: its help lists exactly
// what its parser accepts (Args::getChoice reads it with the same table, and the project file
// with readChoice), and names the project field it sets.
template <typename Enum>
Option choiceOption(std::string name,
                    const std::vector<core::project::Choice<Enum>>& choices,
                    std::string defaultValue,
                    std::string description,
                    std::string field = {}) {
    std::string ids;
    for (const auto& choice : choices) ids += (ids.empty() ? "" : "|") + std::string(choice.id);
    Option option = valued(std::move(name), ids, std::move(defaultValue), std::move(description));
    option.field = std::move(field);
    return option;
}

// The options many subcommands share, declared here once: the same name, placeholder and words
// everywhere (a command's own default and wording of what the seed or format is for aside).
inline Option threadsOption() {
    return valued("threads", "T", "", "worker threads (default: all cores, or OMP_NUM_THREADS)");
}
inline Option seedOption(std::string defaultValue, std::string description) {
    return valued("seed", "X", std::move(defaultValue), std::move(description));
}
inline Option formatOption(std::string choices,
                           std::string defaultValue,
                           std::string description = "the output format") {
    return valued("format", std::move(choices), std::move(defaultValue), std::move(description));
}

struct CommandSpec {
    std::string name;
    std::string summary;   // one line in `diffuscope help`
    std::string operands;  // positional arguments in the usage line; empty: none are accepted
    std::vector<Option> options;
    std::string notes;  // more text after the options in `diffuscope help CMD` (spec grammars)

    // The option called `name` (without "--"), or null.
    const Option* find(const std::string& name) const;
};

// `diffuscope help CMD`: the usage line, every option with its placeholder, default and
// description, then the notes.
std::string commandHelp(const CommandSpec& spec);

// The tables of the subcommands (cmd_*.cpp), in the order `diffuscope help` lists them.
const CommandSpec& kernelSpec();
const CommandSpec& categoricalSpec();
const CommandSpec& decodeSpec();
const CommandSpec& chainSpec();
const CommandSpec& gammaSpec();
const CommandSpec& varianceSpec();
const CommandSpec& nllSpec();
const CommandSpec& sampleSpec();
const CommandSpec& qualitySpec();
const CommandSpec& trainSpec();
const CommandSpec& infoSpec();
const CommandSpec& evaluateSpec();
const CommandSpec& projectSpec();
const CommandSpec& labSpec();
const CommandSpec& timestepsSpec();
const CommandSpec& planSpec();
// `export` runs in the GUI library, which app/cli does not link; its table is here all the same
// so that it is parsed and documented like the others (main.cpp runs it).
const CommandSpec& exportSpec();

}  // namespace app::cli
