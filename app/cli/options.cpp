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

// Options whose name and placeholder are longer start their description two spaces after.
constexpr size_t kAlignedWidth = 34;

std::string commandHelp(const CommandSpec& spec) {
    std::string usage = "diffuscope " + spec.name;
    size_t width = std::string("--help").size();
    for (const Option& option : spec.options) {
        if (option.kind == OptionKind::Required) {
            usage += " " + optionWithPlaceholder(option);
        }
        // A long list of choices does not push every description to the right: it is followed
        // by two spaces, the others are aligned.
        if (optionWithPlaceholder(option).size() <= kAlignedWidth) {
            width = std::max(width, optionWithPlaceholder(option).size());
        }
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
        text += "  " + left + std::string(left.size() < width ? width + 2 - left.size() : 2, ' ') +
                right + '\n';
    };
    for (const Option& option : spec.options) {
        std::string right = option.description;
        if (!option.field.empty()) right += " [project: " + option.field + "]";
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
