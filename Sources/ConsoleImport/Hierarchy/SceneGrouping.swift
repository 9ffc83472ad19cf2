import ResponderBus

/// Puts the dumps of a console together before they become the session's screens, so that no
/// view a dump prints is dropped for being printed alone.
///
/// - **Views of a window printed before it.** A failed UI test's log lists the elements it
///   matched, then the whole hierarchy (EarlGrey, Detox). Dumps printed before the console's first
///   window whose root is a view of that window are views of it, not screens of their own: the
///   window is the screen from the start.
/// - **Lone views printed one after another.** A list of matched elements ("Multiple elements were
///   matched"), a `UIFieldEditor` printed after its field, a node's cell after the node: dumps of
///   one view each, printed together (no notification between them), that are not views of the
///   screen in force. They become one screen: a root the screen's size holding each of them (and
///   the dump before them, when it is not a window) side by side, each at its place in the window
///   where the dump prints one (EarlGrey's `AX.frame`, Texture's `frameInWindow`, an XCUITest
///   element's frame), else at its printed frame; said, naming the views.
enum SceneGrouping {
    /// The scenes put together, and what was said about them.
    static func group(_ scenes: [PlacedScene], notificationLines: [Int], screen: Size) -> (scenes: [PlacedScene], problems: [ImportProblem]) {
        guard scenes.count > 1 else { return (scenes, []) }
        var problems: [ImportProblem] = []
        let leading = viewsOfFirstWindow(scenes)
        var out: [PlacedScene] = []
        var inForce: SceneBuilder.Scene?
        var index = leading
        while index < scenes.count {
            let placed = scenes[index]
            index += 1
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
        return (out, problems)
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

    /// Whether `next` is a lone view printed right after `members` that joins them: one view, not a
    /// window, no notification printed between, and not a view of the screen in force or of them.
    private static func joins(_ next: PlacedScene, after members: [PlacedScene], inForce: SceneBuilder.Scene?, notificationLines: [Int]) -> Bool {
        let last = members[members.count - 1]
        guard !next.scene.isWindow, next.scene.viewCount == 1 else { return false }
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

    /// One scene of several dumps: a root the screen's size holding each dump's root; ids made
    /// unique across them (`#2`, `#3`), said.
    static func merge(_ members: [PlacedScene], screen: Size) -> (PlacedScene, [ImportProblem]) {
        var taken: Set<ViewID> = []
        var addresses = AddressTable()
        var children: [ViewSpec] = []
        var textInputs: [ViewID] = []
        var renamed: [(from: ViewID, to: ViewID, line: Int)] = []
        var (viewCount, keyboardViews) = (0, 0)
        for member in members {
            var renames: [ViewID: ViewID] = [:]
            var root = member.scene.root
            root.renameTaken(in: &taken, renames: &renames)
            for (from, to) in renames.sorted(by: { $0.key.rawValue < $1.key.rawValue }) { renamed.append((from, to, member.line)) }
            for (address, id) in member.scene.addresses.sorted { _ = addresses.insertIfNew(address, id: renames[id] ?? id) }
            textInputs += member.scene.textInputIDs.map { renames[$0] ?? $0 }
            children.append(root)
            viewCount += member.scene.viewCount
            keyboardViews += member.scene.keyboardViewCount
        }
        var rootID = ViewID("screen")
        var n = 2
        while taken.contains(rootID) {
            rootID = ViewID("screen#\(n)")
            n += 1
        }
        let root = ViewSpec(id: rootID, kind: .view, frame: Rect(origin: .zero, size: screen), children: children)
        let first = members[0]
        let scene = SceneBuilder.Scene(
            root: root, addresses: addresses, viewCount: viewCount, textInputIDs: textInputs, keyboardViewCount: keyboardViews,
            rootClass: "screen", rootAddress: "lone views@\(first.line)", isWindow: false, rootPlacedInWindow: true)
        return (PlacedScene(line: first.line, scene: scene), said(members, renamed: renamed, screen: screen))
    }

    /// What is said of a group: the views placed and how, and the ids renamed.
    private static func said(_ members: [PlacedScene], renamed: [(from: ViewID, to: ViewID, line: Int)], screen: Size) -> [ImportProblem] {
        let names = members.map { "<\($0.scene.rootClass): \($0.scene.rootAddress)>" }
        let unplaced = members.filter { !$0.scene.rootPlacedInWindow }.map { "<\($0.scene.rootClass): \($0.scene.rootAddress)>" }
        var message =
            "\(members.count) views printed alone one after another (a list of matched elements, or views printed apart) are placed side by side on one screen of \(formatted(screen.width))×\(formatted(screen.height)), each at its place in the window: \(ImportSummary.list(names))"
        if !unplaced.isEmpty {
            message +=
                "; \(ImportSummary.list(unplaced)) \(unplaced.count == 1 ? "prints" : "print") no place in the window and \(unplaced.count == 1 ? "is" : "are") placed at \(unplaced.count == 1 ? "its frame" : "their frames") in \(unplaced.count == 1 ? "its superview" : "their superviews")"
        }
        var problems = [ImportProblem(kind: .loneViewsPlaced, line: members[0].line, message: message)]
        for rename in renamed {
            problems.append(
                ImportProblem(
                    kind: .renamedViews, line: rename.line,
                    message: "the id \(rename.from) is given to another of the views printed alone before it; this one is named \(rename.to)"))
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
        if taken.contains(id) {
            var n = 2
            while taken.contains(ViewID("\(id.rawValue)#\(n)")) { n += 1 }
            let new = ViewID("\(id.rawValue)#\(n)")
            if renames[id] == nil { renames[id] = new }
            id = new
        }
        taken.insert(id)
        for index in children.indices { children[index].renameTaken(in: &taken, renames: &renames) }
    }
}
