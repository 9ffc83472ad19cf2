import EventLog
import ResponderBus

/// A scene read from a view-hierarchy dump, and the console line its dump starts on (0 for one
/// pasted apart with `--scene`).
struct PlacedScene {
    var line: Int
    var scene: SceneBuilder.Scene
}

/// Puts the scenes and the notifications of one console together, in the order the console shows
/// them, as one session.
///
/// - The first scene is the screen from the start (`t = 0`), wherever its dump was printed: the
///   notifications are about it.
/// - A later dump of the same window that shares fewer than half of its views with the scene in
///   force shows another screen in it: a new `scene` where it was printed, said.
/// - A later dump of the same screen (its root is a view of the scene in force: the whole window
///   again, one subtree, or one view printed alone, as `po view` or Cycript's `rp()` print it) adds
///   what moved: a `setFrame` for each view whose frame changed. Views it adds, or, when it dumps
///   the whole screen again, removes, are reported and left out (the log format has no event for
///   them, and a new `scene` would lose the first responder). A dump of another screen becomes a
///   new `scene` where it was printed; a view printed alone that is not on the screen is reported
///   and left out (it is not a screen).
/// - An editing notification whose object's address is a view of the scene in force becomes that
///   view's `didBeginEditing`/`didEndEditing`; one whose address is not (or that prints no object)
///   is reported and skipped, never guessed.
/// - `--focus` places a begin-editing of that view where UIKit sends it when the console has none:
///   before the first keyboard notification for a text field, right after it for a text view. A
///   `--focus` that names no text input of the first scene refuses the import (``focusRefused``).
/// - Without `--focus` or any editing notification, while the keyboard shows, the first scene's
///   only text input that is neither hidden nor disabled is taken as focused, placed the same way,
///   and said.
struct SessionAssembler {
    /// The scenes, put together (``SceneGrouping``) when the session is assembled.
    private var scenes: [PlacedScene]
    /// The log's screen: which text inputs are on it (a guessed focus prefers the one that is).
    private let screen: Size
    private let focus: String?
    /// The `scene` records that show the screen again with text inputs it adds (by index in
    /// ``records``): the field being edited is begun again after each.
    private var refocusAfter: [Int] = []
    private(set) var records: [LogRecord] = []
    private(set) var problems: [ImportProblem] = []
    private(set) var linked = 0
    private(set) var unlinked = 0
    /// How many of the last ``records`` a dump printed next could still change: those of the
    /// last dump when it is not a window and no notification follows it (a view printed next
    /// would join it, or a window printed next take it in). A growing import holds them back.
    var unsettledAtEnd: Int { tailStart.map { records.count - $0 } ?? 0 }
    /// Where the records of that last dump begin (moved by the records inserted before it).
    private var tailStart: Int?
    /// Why the import is refused: `--focus` names no text field or text view of the first scene.
    private(set) var focusRefused: ImportProblem?

    /// Whether the focus is placed whatever editing notifications the console has
    /// (`ConsoleImporter.Options.keepsFocusAmidEditing`).
    private let keepsFocusAmidEditing: Bool

    init(scenes: [PlacedScene], screen: Size, focus: String?, keepsFocusAmidEditing: Bool = false) {
        precondition(!scenes.isEmpty, "a session needs a scene")
        self.scenes = scenes
        self.screen = screen
        self.focus = focus
        self.keepsFocusAmidEditing = keepsFocusAmidEditing
    }

    mutating func assemble(_ found: [ScannedNotification], times: [Double]) {
        let grouped = SceneGrouping.group(scenes, notificationLines: found.map(\.line).sorted(), screen: screen)
        scenes = grouped.scenes
        problems += grouped.problems
        var current = scenes[0].scene
        records.append(LogRecord(t: 0, event: .scene(SceneInfo(root: current.root))))
        // (Views printed apart are named, the off-screen ones with them, where they are placed.)
        if !current.rootAddress.hasPrefix(SceneGrouping.groupAddressPrefix),
            let outside = Self.viewsOffScreen(current.root, screen: screen, line: scenes[0].line)
        {
            problems.append(outside)
        }
        var nextScene = 1
        var lastT = 0.0
        var hasEditing = false
        // The first record each scene gave (the scene from the start: the first of all).
        var firstRecord = [0]

        func placeScenes(before line: Int?) {
            while nextScene < scenes.count, line.map({ scenes[nextScene].line < $0 }) ?? true {
                let placed = scenes[nextScene]
                nextScene += 1
                firstRecord.append(records.count)
                if let shared = Self.sharedViews(ifAnotherScreen: placed.scene, than: current) {
                    // The window again, but most of its views are new: another screen in it (a login
                    // screen, then the home screen), not changes to the one in force.
                    problems.append(
                        ImportProblem(
                            kind: .anotherScreen, line: placed.line,
                            message:
                                "this dump of the window shares \(shared) of its \(placed.scene.addresses.count) printed views with the screen in force: another screen, read as a new scene"
                        ))
                    records.append(LogRecord(t: lastT, event: .scene(SceneInfo(root: placed.scene.root))))
                    current = placed.scene
                } else if current.id(ofAddress: placed.scene.rootAddress) != nil {
                    placeSameScreen(placed, current: &current, at: lastT)
                } else if placed.scene.viewCount < 2 {
                    problems.append(
                        ImportProblem(
                            kind: .unknownAddress, line: placed.line,
                            message:
                                "<\(placed.scene.rootClass): \(placed.scene.rootAddress)> is printed alone and is not on the screen in force; not a screen, left out"
                        ))
                } else {
                    records.append(LogRecord(t: lastT, event: .scene(SceneInfo(root: placed.scene.root))))
                    current = placed.scene
                }
            }
        }

        for (notification, t) in zip(found, times) {
            placeScenes(before: notification.line)
            lastT = t
            switch notification.kind {
            case .keyboard(let event, let info):
                records.append(LogRecord(t: t, event: .keyboard(event, info)))
            case .editing(let isBegin, let view):
                hasEditing = true
                placeEditing(isBegin: isBegin, of: view, line: notification.line, at: t, in: current)
            }
        }
        placeScenes(before: nil)
        let lastNotification = found.last?.line ?? 0
        if let last = scenes.last, !last.scene.isWindow, last.line > lastNotification { tailStart = firstRecord[scenes.count - 1] }
        if let focus {
            placeFocus(focus, hasEditing: hasEditing && !keepsFocusAmidEditing)
        } else if !hasEditing {
            guessFocus()
        }
        refocus()
    }

    /// An editing notification: the begin- or end-editing of the view of the scene in force whose
    /// address it prints; one whose address the scene does not show (or that prints no object) is
    /// said and skipped, never guessed.
    private mutating func placeEditing(isBegin: Bool, of view: ScannedView, line: Int, at t: Double, in current: SceneBuilder.Scene) {
        guard let address = view.address, let id = current.id(ofAddress: address) else {
            unlinked += 1
            let printed = view.address.map { "<\(view.id.rawValue.split(separator: "-").first ?? "view"): \($0)>" } ?? "no object"
            problems.append(
                ImportProblem(
                    kind: .unknownAddress, line: line,
                    message:
                        "this \(isBegin ? "begin" : "end")-editing notification names \(printed), which the view-hierarchy dump in force does not show; skipped"
                ))
            return
        }
        linked += 1
        let info = EditingInfo(view: id)
        records.append(LogRecord(t: t, event: isBegin ? .didBeginEditing(info) : .didEndEditing(info)))
    }

    /// A later dump of the screen in force: the frames that moved, or, when it adds text inputs
    /// the first dump did not show (never dropped), the screen read again with them.
    private mutating func placeSameScreen(_ placed: PlacedScene, current: inout SceneBuilder.Scene, at t: Double) {
        guard let added = Self.screenAdding(textInputsOf: placed, to: current) else {
            applyChanges(from: current, to: placed, at: t)
            return
        }
        problems.append(added.problem)
        refocusAfter.append(records.count)
        records.append(LogRecord(t: t, event: .scene(SceneInfo(root: added.scene.root))))
        current = added.scene
    }

    /// Begins the field being edited again right after each `scene` record that shows the screen
    /// again with text inputs it adds, when the field is still on it: a `scene` clears the first
    /// responder, and the field was never left.
    private mutating func refocus() {
        guard !refocusAfter.isEmpty else { return }
        var focused: ViewID?
        var pending = Set(refocusAfter)
        var index = 0
        while index < records.count {
            switch records[index].event {
            case .didBeginEditing(let info): focused = info.view
            case .didEndEditing(let info) where info.view == focused: focused = nil
            case .scene(let scene):
                if pending.remove(index) != nil, let id = focused, scene.root.holds(id) {
                    records.insert(LogRecord(t: records[index].t, event: .didBeginEditing(EditingInfo(view: id))), at: index + 1)
                    pending = Set(pending.map { $0 > index ? $0 + 1 : $0 })
                    if let start = tailStart, start > index { tailStart = start + 1 }
                    index += 1
                } else {
                    focused = nil
                }
            default: break
            }
            index += 1
        }
    }

    /// How many printed views `later` shares with `current`, when it is a dump of the same window
    /// (the same root) that shares fewer than half of them: another screen shown in that window;
    /// `nil` otherwise.
    static func sharedViews(ifAnotherScreen later: SceneBuilder.Scene, than current: SceneBuilder.Scene) -> Int? {
        guard sameRoot(later, current), later.addresses.count > 2 else { return nil }
        let shared = current.addresses.countShared(with: later.addresses)
        return shared * 2 < later.addresses.count ? shared : nil
    }

    /// Whether two dumps have the same root address (however each spells it).
    private static func sameRoot(_ a: SceneBuilder.Scene, _ b: SceneBuilder.Scene) -> Bool {
        AddressTable.spelling(of: a.rootAddress) == AddressTable.spelling(of: b.rootAddress)
    }

    /// The frames a later dump of the same screen shows moved, as `setFrame` records (the views
    /// matched by address, however each dump spells it), and how many views it adds or removes.
    private mutating func applyChanges(from current: SceneBuilder.Scene, to later: PlacedScene, at t: Double) {
        var added = 0
        let (oldFrames, newFrames) = (current.framesByID(), later.scene.framesByID())
        for (address, view) in later.scene.addresses.sorted {
            guard let old = current.addresses[address] else {
                added += 1
                continue
            }
            if let frame = newFrames[view], oldFrames[old] != frame {
                records.append(LogRecord(t: t, event: .setFrame(FrameChange(view: old, frame: frame))))
            }
        }
        // Only a dump of the whole screen says which views are gone.
        let removed =
            Self.sameRoot(later.scene, current) && later.scene.viewCount > 1
            ? current.addresses.count - later.scene.addresses.countShared(with: current.addresses) : 0
        if added > 0 || removed > 0 {
            problems.append(
                ImportProblem(
                    kind: .viewsAddedOrRemoved, line: later.line,
                    message:
                        "this dump of the screen in force adds \(added) and removes \(removed) view\(added + removed == 1 ? "" : "s"); the log keeps the first dump's views (frames that moved are carried over)"
                ))
        }
    }

    /// A begin-editing of the `--focus` view, where UIKit sends it; refused when it names no text
    /// input of the first scene.
    private mutating func placeFocus(_ focus: String, hasEditing: Bool) {
        let first = scenes[0].scene
        guard !hasEditing else {
            problems.append(
                ImportProblem(
                    kind: .focusNotUsed, line: 0, message: "--focus \(focus) is not used: the console has editing notifications of its own"))
            return
        }
        let id = first.id(ofAddress: focus) ?? ViewID(focus)
        guard let kind = first.kind(of: id), kind.isTextInput else {
            focusRefused = Self.focusNotFound(focus, naming: first.kind(of: id).map { (id, $0) }, in: first)
            return
        }
        placeBeginEditing(of: id, kind: kind)
    }

    /// The refusal of a `--focus` that names no text input of `scene` (or names a view of another
    /// kind), listing the text inputs it could name: their ids, with the address printed for each
    /// whose id does not show it.
    static func focusNotFound(_ focus: String, naming other: (id: ViewID, kind: ViewKind)?, in scene: SceneBuilder.Scene) -> ImportProblem {
        let what =
            other.map { "names \($0.id), a \($0.kind.rawValue), not a text field or text view of the first view-hierarchy dump" }
            ?? "names no view of the first view-hierarchy dump (the screen from the start)"
        let inputs = scene.textInputIDs
        var addresses: [ViewID: String] = [:]
        if !inputs.isEmpty {
            let wanted = Set(inputs)
            for (address, id) in scene.addresses.sorted where wanted.contains(id) && addresses[id] == nil { addresses[id] = address }
        }
        let names = inputs.map { id in
            // `Class@0x7f9…` shows its address; an accessibilityIdentifier does not.
            addresses[id].map { address in
                let shown = id.rawValue.split(separator: "@").last.map { AddressTable.spelling(of: String($0)) == address } ?? false
                return shown ? id.rawValue : "\(id.rawValue) (\(address))"
            } ?? id.rawValue
        }
        let candidates =
            inputs.isEmpty
            ? "it has no text field or text view"
            : "its text input\(inputs.count == 1 ? " is" : "s are") \(ImportSummary.list(names)) (give an id, or the address printed for it)"
        return ImportProblem(kind: .focusNotFound, line: 0, message: "--focus \(focus) \(what): \(candidates); nothing is imported")
    }

    /// Without `--focus` or editing notifications, while the keyboard shows: the first scene's
    /// only editable text input is taken as focused, and said.
    private mutating func guessFocus() {
        guard records.contains(where: { if case .keyboard = $0.event { true } else { false } }) else { return }
        let placed = scenes[0].scene.editableTextInputsPlaced()
        let screenRect = Rect(origin: .zero, size: screen)
        // Several: the one on the screen wins (a list of matched elements holds an off-screen copy).
        let onScreen =
            placed.count > 1
            ? placed.filter { $0.onScreen.size.width > 0 && $0.onScreen.size.height > 0 && $0.onScreen.intersects(screenRect) } : placed
        guard onScreen.count == 1, let only = onScreen.first?.view else { return }
        let place = only.kind == .textView ? "right after the keyboard's first notification" : "before the keyboard's first notification"
        let what = only.kind == .textView ? "text view" : "text field"
        let others = placed.filter { $0.view.id != only.id }.map(\.view.id.rawValue)
        let why =
            others.isEmpty
            ? "the only \(what) of the first view-hierarchy dump that is neither hidden nor disabled"
            : "the only \(what) of the first view-hierarchy dump that is neither hidden nor disabled and lies on the screen (\(ImportSummary.list(others)) \(others.count == 1 ? "lies" : "lie") off it)"
        problems.append(
            ImportProblem(
                kind: .focusGuessed, line: 0,
                message:
                    "nothing in the console says which field was being edited (no editing notification, no --focus): \(only.id), \(why), is taken as focused; its begin-editing is placed \(place) (name another with --focus)"
            ))
        placeBeginEditing(of: only.id, kind: only.kind)
    }

    /// A begin-editing of `id`, where UIKit sends it: before the keyboard's first notification for
    /// a text field, right after it for a text view (at the end when there is none).
    private mutating func placeBeginEditing(of id: ViewID, kind: ViewKind) {
        let begin = EditingInfo(view: id)
        guard let keyboard = records.firstIndex(where: { if case .keyboard = $0.event { true } else { false } }) else {
            records.append(LogRecord(t: records.last?.t ?? 0, event: .didBeginEditing(begin)))
            return
        }
        let index = kind == .textView ? keyboard + 1 : keyboard
        records.insert(LogRecord(t: records[keyboard].t, event: .didBeginEditing(begin)), at: index)
        refocusAfter = refocusAfter.map { $0 >= index ? $0 + 1 : $0 }
        if let start = tailStart, start >= index, start > 0 { tailStart = start + 1 }
    }
}
