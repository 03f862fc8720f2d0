// SPDX-License-Identifier: MIT
#pragma once

#include <unistd.h>

#include <cstdio>
#include <string>

#include "core/util/progress.h"

// A progress bar on stderr when it is a terminal; silent otherwise (scripts read stdout).
namespace app::cli {

class TerminalProgress : public core::ProgressObserver {
public:
    TerminalProgress() : m_enabled(isatty(STDERR_FILENO) != 0) {}
    ~TerminalProgress() override {
        if (m_enabled && m_drawn) {
            std::fputs("\r\033[K", stderr);
        }
    }

    core::Control onProgress(double fraction, const std::string& stage) override {
        if (m_enabled) {
            constexpr int kWidth = 40;
            const int filled = static_cast<int>(fraction * kWidth);
            std::string bar(static_cast<size_t>(filled), '#');
            bar.resize(kWidth, '.');
            std::fprintf(stderr, "\r%s [%s] %3d%%", stage.c_str(), bar.c_str(),
                         static_cast<int>(fraction * 100.0));
            std::fflush(stderr);
            m_drawn = true;
        }
        return core::Control::Continue;
    }

private:
    bool m_enabled;
    bool m_drawn = false;
};

}  // namespace app::cli
