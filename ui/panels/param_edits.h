// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>
#include <QString>

#include <functional>
#include <type_traits>
#include <utility>

// How a panel's widgets edit the document, written once: a widget's signal copies the document's
// parameters, an edit function changes the copy (it may take the signal's arguments, and may
// return false to cancel), and the panel applies the copy as one undo step, or shows beside the
// field why it was refused. Signals that arrive while the panel is filling its widgets from the
// document are ignored, so a refresh never becomes an edit.
namespace ui::panels {

template <typename Params>
class ParamEdits {
public:
    // Applies params as an undo step named undoText; a refusal is shown under `field`.
    using Apply = std::function<bool(const Params& params, const QString& undoText,
                                     const QString& field, int mergeId)>;

    ParamEdits(QObject* owner, const bool* refreshing, std::function<Params()> current,
               Apply apply)
        : m_owner(owner),
          m_refreshing(refreshing),
          m_current(std::move(current)),
          m_apply(std::move(apply)) {}

    // `mergeId` > 0 merges consecutive edits with the same id into one undo step (drags).
    template <typename Sender, typename Signal, typename Edit>
    void bind(Sender* sender, Signal signal, const QString& undoText, const QString& field,
              Edit edit, int mergeId = 0) const {
        // The explicit return type keeps Qt's argument-count probe from instantiating the body.
        QObject::connect(sender, signal, m_owner,
                         [self = *this, undoText, field, edit, mergeId](const auto&... args) -> void {
                             self.run(edit, undoText, field, mergeId, args...);
                         });
    }

    // The same edit, run now (for entry points that are not a widget signal).
    template <typename Edit>
    bool edit(const QString& undoText, const QString& field, Edit edit, int mergeId = 0) const {
        return run(edit, undoText, field, mergeId);
    }

private:
    template <typename Edit, typename... Args>
    bool run(const Edit& edit, const QString& undoText, const QString& field, int mergeId,
             const Args&... args) const {
        if (*m_refreshing) return false;
        Params params = m_current();
        if (!invoke(edit, params, args...)) return false;
        return m_apply(params, undoText, field, mergeId);
    }

    // Calls edit with as many of the signal's arguments as it takes (all or none); an edit that
    // returns void always goes ahead.
    template <typename Edit, typename... Args>
    static bool invoke(const Edit& edit, Params& params, const Args&... args) {
        if constexpr (std::is_invocable_v<const Edit&, Params&, const Args&...>) {
            return proceed(edit, params, args...);
        } else {
            static_assert(std::is_invocable_v<const Edit&, Params&>,
                          "an edit takes (Params&) or (Params&, the signal's arguments…)");
            return proceed(edit, params);
        }
    }
    template <typename Edit, typename... Args>
    static bool proceed(const Edit& edit, Params& params, const Args&... args) {
        if constexpr (std::is_same_v<std::invoke_result_t<const Edit&, Params&, const Args&...>,
                                     bool>) {
            return edit(params, args...);
        } else {
            edit(params, args...);
            return true;
        }
    }

    QObject* m_owner;
    const bool* m_refreshing;
    std::function<Params()> m_current;
    Apply m_apply;
};

}  // namespace ui::panels
