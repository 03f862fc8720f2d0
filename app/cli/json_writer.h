// SPDX-License-Identifier: MIT
#pragma once

#include <cmath>
#include <cstdio>
#include <ostream>
#include <string>
#include <vector>

// A small streaming JSON writer for the CLI's output. Numbers are written with 17 significant
// digits so a double round-trips exactly; non-finite numbers become null.
namespace app::cli {

class JsonWriter {
public:
    explicit JsonWriter(std::ostream& out) : m_out(out) {}

    JsonWriter& beginObject() { return open('{'); }
    JsonWriter& endObject() { return close('}'); }
    JsonWriter& beginArray() { return open('['); }
    JsonWriter& endArray() { return close(']'); }

    JsonWriter& key(const std::string& name) {
        separate();
        writeString(name);
        m_out << ':';
        m_afterKey = true;
        return *this;
    }
    JsonWriter& value(double v) {
        separate();
        m_out << formatNumber(v);
        return *this;
    }
    JsonWriter& value(int v) {
        separate();
        m_out << v;
        return *this;
    }
    JsonWriter& value(long long v) {
        separate();
        m_out << v;
        return *this;
    }
    JsonWriter& value(bool v) {
        separate();
        m_out << (v ? "true" : "false");
        return *this;
    }
    JsonWriter& value(const std::string& v) {
        separate();
        writeString(v);
        return *this;
    }
    JsonWriter& value(const char* v) { return value(std::string(v)); }
    template <typename T>
    JsonWriter& array(const std::vector<T>& values) {
        beginArray();
        for (const T& v : values) {
            value(v);
        }
        return endArray();
    }

    static std::string formatNumber(double v) {
        if (!std::isfinite(v)) {
            return "null";
        }
        char buffer[32];
        std::snprintf(buffer, sizeof buffer, "%.17g", v);
        return buffer;
    }

private:
    JsonWriter& open(char bracket) {
        separate();
        m_out << bracket;
        m_first.push_back(true);
        return *this;
    }
    JsonWriter& close(char bracket) {
        m_out << bracket;
        m_first.pop_back();
        if (m_first.empty()) {
            m_out << '\n';
        }
        return *this;
    }
    void separate() {
        if (m_afterKey) {
            m_afterKey = false;
            return;
        }
        if (!m_first.empty()) {
            if (!m_first.back()) {
                m_out << ',';
            }
            m_first.back() = false;
        }
    }
    void writeString(const std::string& s) {
        m_out << '"';
        for (char c : s) {
            switch (c) {
                case '"': m_out << "\\\""; break;
                case '\\': m_out << "\\\\"; break;
                case '\n': m_out << "\\n"; break;
                case '\t': m_out << "\\t"; break;
                default:
                    if (static_cast<unsigned char>(c) < 0x20) {
                        char buffer[8];
                        std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
                        m_out << buffer;
                    } else {
                        m_out << c;
                    }
            }
        }
        m_out << '"';
    }

    std::ostream& m_out;
    std::vector<bool> m_first;
    bool m_afterKey = false;
};

}  // namespace app::cli
