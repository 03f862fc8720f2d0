// SPDX-License-Identifier: MIT
#include "app/cli/options.h"

#include <algorithm>

namespace app::cli {

const Option* CommandSpec::find(const std::string& optionName) const {
    for (const Option& option : options) {
        if (option.name == optionName) {
            return &option;
        }
    }
    return nullptr;
}

namespace {

std::string optionWithPlaceholder(const Option& option) {
    return "--" + option.name + (option.placeholder.empty() ? "" : " " + option.placeholder);
}

}  // namespace

std::string commandHelp(const CommandSpec& spec) {
    std::string usage = "diffuscope " + spec.name;
    size_t width = std::string("--help").size();
    for (const Option& option : spec.options) {
        if (option.kind == OptionKind::Required) {
            usage += " " + optionWithPlaceholder(option);
        }
        width = std::max(width, optionWithPlaceholder(option).size());
    }
    if (spec.options.size() > 0) {
        usage += " [options]";
    }
    if (!spec.operands.empty()) {
        usage += " " + spec.operands;
    }
    std::string text =
        "diffuscope " + spec.name + ": " + spec.summary + "\n\nUsage: " + usage + "\n\nOptions:\n";
    const auto line = [&text, width](const std::string& left, const std::string& right) {
        text += "  " + left + std::string(width + 2 - left.size(), ' ') + right + '\n';
    };
    for (const Option& option : spec.options) {
        std::string right = option.description;
        if (option.kind == OptionKind::Required) {
            right += " (required)";
        } else if (option.kind == OptionKind::Repeated) {
            right += " (may be repeated)";
        } else if (!option.defaultValue.empty()) {
            right += " (default: " + option.defaultValue + ")";
        }
        line(optionWithPlaceholder(option), right);
    }
    line("--help", "this text");
    if (!spec.notes.empty()) {
        text += "\n" + spec.notes;
        if (text.back() != '\n') {
            text += '\n';
        }
    }
    return text;
}

}  // namespace app::cli
