import ResponderBus

/// Puts the dumps of a console together before they become the session's screens, so that no
/// view a dump prints is dropped for being printed alone.
///
/// - **Views of a window printed before it.** A failed UI test's log lists the elements it
///   matched, then the whole hierarchy (EarlGrey, Detox). Dumps printed before the console's first
///   window whose root is a view of that window are views of it, not screens of their own: the
///   window is the screen from the start.
/// - **Views printed apart, one after another.** A list of matched elements ("Multiple elements
///   were matched"), a `UIFieldEditor` printed after its field, a node's cell after the node, a
///   view's subviews printed one by one: dumps that are not windows, printed together (no
///   notification between them), that are not views of the screen in force. They become one screen: a root the screen's size holding each of them (and
///   the dump before them, when it is not a window) side by side, each at its place in the window
///   where the dump prints one (EarlGrey's `AX.frame`, Texture's `frameInWindow`, an XCUITest
///   element's frame), else at its printed frame; said, naming the views.
enum SceneGrouping {
    /// The scenes put together, and what was said about them.
    static func group(_ scenes: [PlacedScene], notificationLines: [Int], screen: Size) -> (scenes: [PlacedScene], problems: [ImportProblem]) {
        var problems: [ImportProblem] = []
        var scenes = scenes
        let leading = viewsOfFirstWindow(scenes)
        if leading == 0, let folded = foldIntoFirstWindow(scenes, notificationLines: notificationLines) {
            scenes = folded.scenes
            problems.append(folded.problem)
        }
        var out: [PlacedScene] = []
        var inForce: SceneBuilder.Scene?
        var index = leading
        while index < scenes.count {
            let placed = scenes[index]
            index += 1
            // (An XCUITest tree gives one window, the app's: two are two runs of the app.)
            if placed.scene.isWindow, let last = out.last, last.scene.isWindow, inForce?.id(ofAddress: placed.scene.rootAddress) == nil,
                !hasNotification(between: last.line, and: placed.line, in: notificationLines),
                last.scene.rootClass != "Window" || placed.scene.rootClass != "Window"
            {
                // Another window printed with the one in force: one of them is the app's.
                let (kept, left) = isOtherWindow(last.scene.rootClass) && !isOtherWindow(placed.scene.rootClass) ? (placed, last) : (last, placed)
                problems.append(otherWindow(left, kept: kept))
                out[out.count - 1] = kept
                inForce = kept.scene
                continue
            }
            if placed.scene.isWindow || inForce.map({ $0.id(ofAddress: placed.scene.rootAddress) != nil }) == true {
                if inForce == nil || placed.scene.isWindow && inForce?.id(ofAddress: placed.scene.rootAddress) == nil { inForce = placed.scene }
                out.append(placed)
                continue
            }
            // A screen of its own, unless lone views printed right after it join it.
            var members = [placed]
            while index < scenes.count, joins(scenes[index], after: members, inForce: inForce, notificationLines: notificationLines) {
                members.append(scenes[index])
                index += 1
            }
            if members.count == 1 {
                if inForce == nil || placed.scene.viewCount > 1 { inForce = placed.scene }
                out.append(placed)
                continue
            }
            let (grouped, said) = merge(members, screen: screen)
            problems += said
            inForce = grouped.scene
            out.append(grouped)
        }
        if let first = out.first, first.scene.isWindow, isOtherWindow(first.scene.rootClass) {
            problems.append(
                ImportProblem(
                    kind: .otherWindow, line: first.line,
                    message:
                        "<\(first.scene.rootClass): \(first.scene.rootAddress)> is not the app's window (an alert's, the status bar's or the system's), and the text prints no other: it is read as the screen"
                ))
        }
        return (out, problems)
    }

    /// Whether a window's class is not an app's: an alert's, the status bar's, the system's (the
    /// keyboard's windows are never scenes).
    static func isOtherWindow(_ className: String) -> Bool {
        otherWindowClasses.contains(className) || className.contains("Alert") || className.contains("StatusBar")
    }

    private static let otherWindowClasses: Set<String> = [
        "_UIModalItemHostingWindow", "_UIAlertControllerShimPresenterWindow", "_UIInteractiveHighlightEffectWindow", "UIStatusBarWindow",
        "_UIPointerEffectWindow", "_UISnapshotWindow", "UIAutoRotatingWindow",
    ]

    /// What is said of a window left out for the app's.
    private static func otherWindow(_ left: PlacedScene, kept: PlacedScene) -> ImportProblem {
        let inputs = left.scene.textInputIDs
        let holding = inputs.isEmpty ? "" : ", with \(ImportSummary.list(inputs.map(\.rawValue)))"
        return ImportProblem(
            kind: .otherWindow, line: left.line,
            message:
                "<\(left.scene.rootClass): \(left.scene.rootAddress)> (\(left.scene.viewCount) view\(left.scene.viewCount == 1 ? "" : "s")\(holding)) is another window printed with <\(kept.scene.rootClass): \(kept.scene.rootAddress)>, which is taken as the app's: the scene is the app's window, and this one is left out"
        )
    }

    /// The dumps as read, before they are counted: an element printed twice, once without its
    /// address, is one (``withoutUnaddressedCopies(_:)``), and ``keyboardBackdrops(in:)`` are
    /// taken out of `scenes` into what the reader `found`: their keyboard with its keyboards, and
    /// what is said with its problems.
    static func tidy(_ scenes: inout [PlacedScene], into found: inout HierarchyReader.Found) {
        scenes = withoutUnaddressedCopies(scenes)
        let backdrops = keyboardBackdrops(in: &scenes)
        guard !backdrops.keyboards.isEmpty else { return }
        found.keyboards = (found.keyboards + backdrops.keyboards).sorted { $0.line < $1.line }
        found.problems += backdrops.problems
    }

    /// Lone views printed one after another at a docked keyboard's place, one of them a backdrop
    /// (`_UIBackdropView`, `_UIBackdropEffectView`: the keyboard's background, cut from its window's
    /// dump): the keyboard's, not the app's. They are taken out of `scenes`, and where they are is
    /// returned (the first one's line, and their frame), said.
    static func keyboardBackdrops(in scenes: inout [PlacedScene]) -> (keyboards: [(line: Int, frame: Rect)], problems: [ImportProblem]) {
        var keyboards: [(line: Int, frame: Rect)] = []
        var problems: [ImportProblem] = []
        var kept: [PlacedScene] = []
        var index = 0
        func isPiece(_ placed: PlacedScene, at frame: Rect) -> Bool {
            let scene = placed.scene
            return !scene.isWindow && scene.viewCount == 1 && scene.rootPlacedInWindow && scene.root.kind == .view && scene.root.frame == frame
        }
        while index < scenes.count {
            let frame = scenes[index].scene.root.frame
            var end = index
            while end < scenes.count, isPiece(scenes[end], at: frame) { end += 1 }
            let run = scenes[index..<end]
            let docked = frame.origin.x == 0 && frame.origin.y > 0 && frame.size.height >= 150 && frame.size.width >= frame.size.height
            guard docked, run.contains(where: { $0.scene.rootClass.contains("Backdrop") }) else {
                kept.append(scenes[index])
                index += 1
                continue
            }
            keyboards.append((run.first?.line ?? 0, frame))
            let names = run.map { "<\($0.scene.rootClass): \($0.scene.rootAddress)>" }
            problems.append(
                ImportProblem(
                    kind: .keyboardBackdrop, line: run.first?.line ?? 0,
                    message:
                        "\(ImportSummary.list(names)) \(run.count == 1 ? "is" : "are") the keyboard's backdrop at \(ElementTreeReader.describe(frame)) (a backdrop view at a docked keyboard's place, cut from its window's dump), not the app's views"
                ))
            index = end
        }
        scenes = kept
        return (keyboards, problems)
    }

    /// How many dumps at the start are views of the console's first window, printed before it
    /// (`0` when the first is that window, or when any dump before it is not one of its views).
    private static func viewsOfFirstWindow(_ scenes: [PlacedScene]) -> Int {
        guard let first = scenes.firstIndex(where: \.scene.isWindow), first > 0 else { return 0 }
        let window = scenes[first].scene
        let before = scenes[..<first]
        guard before.allSatisfy({ window.id(ofAddress: $0.scene.rootAddress) != nil }) else { return 0 }
        return first
    }

    /// The scenes without the lone views printed without an address (`Event dispatch snapshot:
    /// TextField, {{…}}`) that another lone view of the same class at the same place, printed
    /// with one, shows again (`Attributes: TextField, 0x…, {{…}}`): one element, printed twice.
    static func withoutUnaddressedCopies(_ scenes: [PlacedScene]) -> [PlacedScene] {
        func isLone(_ placed: PlacedScene) -> Bool { placed.scene.viewCount == 1 && !placed.scene.isWindow && placed.scene.rootPlacedInWindow }
        // A view printed without an address is named by its place (`6:137`).
        func hasAddress(_ placed: PlacedScene) -> Bool { placed.scene.rootAddress.hasPrefix("0x") || placed.scene.rootAddress.hasPrefix("0X") }
        let addressed = scenes.filter { isLone($0) && hasAddress($0) }
        guard !addressed.isEmpty else { return scenes }
        return scenes.filter { placed in
            guard isLone(placed), !hasAddress(placed) else { return true }
            return !addressed.contains { $0.scene.rootClass == placed.scene.rootClass && $0.scene.root.frame == placed.scene.root.frame }
        }
    }

    /// The console's first window with the lone views printed before it (no notification
    /// between) that are not its views but print their place in the window: added to it, each at
    /// that place (a failure prints the element, then the path to it from the window, cut before
    /// the element); `nil` when the dumps before the first window are not all such views or its.
    private static func foldIntoFirstWindow(
        _ scenes: [PlacedScene], notificationLines: [Int]
    ) -> (scenes: [PlacedScene], problem: ImportProblem)? {
        guard let first = scenes.firstIndex(where: \.scene.isWindow), first > 0 else { return nil }
        let window = scenes[first]
        let before = scenes[..<first]
        guard
            before.allSatisfy({ window.scene.id(ofAddress: $0.scene.rootAddress) != nil || $0.scene.rootPlacedInWindow && $0.scene.viewCount == 1 }),
            !hasNotification(between: before[before.startIndex].line - 1, and: window.line, in: notificationLines)
        else { return nil }
        // Not the window's, and not printed again (the element, then its subtree).
        var extras: [PlacedScene] = []
        for placed in before where window.scene.id(ofAddress: placed.scene.rootAddress) == nil {
            if extras.contains(where: { $0.scene.id(ofAddress: placed.scene.rootAddress) != nil }) { continue }
            extras.append(placed)
        }
        guard !extras.isEmpty else { return nil }
        var merged = merge([window] + extras, screen: window.scene.root.frame.size).0
        // The window stays the root: the others are its children, at their places in it.
        var root = merged.scene.root.children[0]
        root.children += merged.scene.root.children.dropFirst()
        merged.scene.root = root
        merged.scene.rootClass = window.scene.rootClass
        merged.scene.rootAddress = window.scene.rootAddress
        merged.scene.isWindow = true
        merged.line = window.line
        let names = extras.map { "<\($0.scene.rootClass): \($0.scene.rootAddress)>" }
        let message =
            "\(ImportSummary.list(names)), printed before <\(window.scene.rootClass): \(window.scene.rootAddress)> and not among its views, \(names.count == 1 ? "is" : "are") placed in it at \(names.count == 1 ? "its place" : "their places") in the window (the window's dump does not reach \(names.count == 1 ? "it" : "them"))"
        return ([merged] + scenes[(first + 1)...], ImportProblem(kind: .loneViewsPlaced, line: extras[0].line, message: message))
    }

    /// Whether `next` is a view printed apart right after `members` that joins them: alone or with
    /// its subviews, not a window, no notification printed between, and not a view of the screen
    /// in force or of them.
    private static func joins(_ next: PlacedScene, after members: [PlacedScene], inForce: SceneBuilder.Scene?, notificationLines: [Int]) -> Bool {
        let last = members[members.count - 1]
        guard !next.scene.isWindow else { return false }
        if inForce?.id(ofAddress: next.scene.rootAddress) != nil { return false }
        if members.contains(where: { $0.scene.id(ofAddress: next.scene.rootAddress) != nil }) { return false }
        return !hasNotification(between: last.line, and: next.line, in: notificationLines)
    }

    /// Whether a notification was printed after line `a` and before line `b` (`lines` sorted).
    private static func hasNotification(between a: Int, and b: Int, in lines: [Int]) -> Bool {
        var low = 0
        var high = lines.count
        while low < high {
            let mid = (low + high) / 2
            if lines[mid] <= a { low = mid + 1 } else { high = mid }
        }
        return low < lines.count && lines[low] < b
    }

    /// How the root of views placed side by side is named in place of an address (it has none).
    static let groupAddressPrefix = "lone views@"

    /// One scene of several dumps: a root the screen's size holding each dump's root; ids made
    /// unique across them (`#2`, `#3`), said.
    static func merge(_ members: [PlacedScene], screen: Size) -> (PlacedScene, [ImportProblem]) {
        var taken: Set<ViewID> = []
        var addresses = AddressTable()
        var children = members.map(\.scene.root)
        var textInputs: [ViewID] = []
        var renamed: [(from: ViewID, to: ViewID, line: Int)] = []
        var (viewCount, keyboardViews) = (0, 0)
        // Where two share an id, the visible one on the screen keeps it: named first.
        let screenRect = Rect(origin: .zero, size: screen)
        let onScreen = members.map { !$0.scene.root.isHidden && $0.scene.root.frame.intersects(screenRect) }
        let order = members.indices.filter { onScreen[$0] } + members.indices.filter { !onScreen[$0] }
        var renamesByMember: [[ViewID: ViewID]] = Array(repeating: [:], count: members.count)
        for index in order {
            children[index].renameTaken(in: &taken, renames: &renamesByMember[index])
        }
        for (index, member) in members.enumerated() {
            let renames = renamesByMember[index]
            for (from, to) in renames.sorted(by: { $0.key.rawValue < $1.key.rawValue }) { renamed.append((from, to, member.line)) }
            for (address, id) in member.scene.addresses.sorted { _ = addresses.insertIfNew(address, id: renames[id] ?? id) }
            textInputs += member.scene.textInputIDs.map { renames[$0] ?? $0 }
            viewCount += member.scene.viewCount
            keyboardViews += member.scene.keyboardViewCount
        }
        let rootID = taken.claim("screen")
        let root = ViewSpec(id: rootID, kind: .view, frame: Rect(origin: .zero, size: screen), children: children)
        let first = members[0]
        let scene = SceneBuilder.Scene(
            root: root, addresses: addresses, viewCount: viewCount, textInputIDs: textInputs, keyboardViewCount: keyboardViews,
            rootClass: "screen", rootAddress: "\(groupAddressPrefix)\(first.line)", isWindow: false, rootPlacedInWindow: true)
        let offScreen = members.indices.filter { !onScreen[$0] }.map { members[$0] }
        return (PlacedScene(line: first.line, scene: scene), said(members, offScreen: offScreen, renamed: renamed, screen: screen))
    }

    /// What is said of a group: the views placed and how, and the ids renamed.
    private static func said(
        _ members: [PlacedScene], offScreen: [PlacedScene], renamed: [(from: ViewID, to: ViewID, line: Int)], screen: Size
    ) -> [ImportProblem] {
        let names = members.map { "<\($0.scene.rootClass): \($0.scene.rootAddress)>" }
        let unplaced = members.filter { !$0.scene.rootPlacedInWindow }.map { "<\($0.scene.rootClass): \($0.scene.rootAddress)>" }
        var message =
            "\(members.count) views printed apart, one after another (a list of matched elements, or a view's subviews printed one by one), are placed side by side on one screen of \(formatted(screen.width))×\(formatted(screen.height)), each at its place in the window: \(ImportSummary.list(names))"
        if !unplaced.isEmpty {
            message +=
                "; \(ImportSummary.list(unplaced)) \(unplaced.count == 1 ? "prints" : "print") no place in the window and \(unplaced.count == 1 ? "is" : "are") placed at \(unplaced.count == 1 ? "its frame" : "their frames") in \(unplaced.count == 1 ? "its superview" : "their superviews")"
        }
        if !offScreen.isEmpty {
            let names = offScreen.map { "<\($0.scene.rootClass): \($0.scene.rootAddress)>" }
            message += "; \(ImportSummary.list(names)) \(names.count == 1 ? "is" : "are") hidden or off the screen"
        }
        var problems = [ImportProblem(kind: .loneViewsPlaced, line: members[0].line, message: message)]
        for rename in renamed {
            problems.append(
                ImportProblem(
                    kind: .renamedViews, line: rename.line,
                    message:
                        "the id \(rename.from) is given to another of the views printed alone with it (the one on the screen keeps it); this one is named \(rename.to)"
                ))
        }
        return problems
    }

    private static func formatted(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

extension ViewSpec {
    /// Renames this view and the views inside it whose ids are in `taken` (`#2`, `#3`), adding
    /// every id to `taken` and each rename to `renames`.
    fileprivate mutating func renameTaken(in taken: inout Set<ViewID>, renames: inout [ViewID: ViewID]) {
        let new = taken.claim(id)
        if new != id, renames[id] == nil { renames[id] = new }
        id = new
        for index in children.indices { children[index].renameTaken(in: &taken, renames: &renames) }
    }
}
