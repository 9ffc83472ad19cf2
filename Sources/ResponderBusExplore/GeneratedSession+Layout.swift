import EventLog
import ResponderBus

extension GeneratedSession {
    /// The root view's id.
    public static let rootID: ViewID = "root"
    /// The space between two blocks, and the margin from the safe area's edges, in points.
    static let spacing = 16.0
    static let margin = 20.0
    /// A scroll view shows at most this much of its content.
    static let scrollViewHeight = 200.0

    /// The scene in `orientation`, each text view `extra[id]` points taller than its height.
    func scene(in orientation: Device.Orientation, extra: [ViewID: Double] = [:]) -> SceneInfo {
        let screen = device.screenSize(in: orientation)
        let safe = device.safeArea(in: orientation)
        let x = safe.left + Self.margin
        let width = max(40, screen.width - safe.left - safe.right - 2 * Self.margin)
        var tags = TagCounter(reversedFrom: tagsReversed ? fields.filter(\.isTagged).count + 1 : nil)
        var blocks: [ViewSpec] = []
        var bars: [ViewSpec] = []
        for (index, group) in groups.enumerated() {
            switch group.container {
            case .none:
                blocks += group.fields.map { Self.spec(of: $0, x: x, y: 0, width: width, extra: extra, tags: &tags) }
            case .chatBar:
                bars.append(Self.chatBar(group, index: index, width: screen.width, extra: extra, tags: &tags))
            default:
                blocks.append(Self.scrolling(group, index: index, x: x, width: width, extra: extra, tags: &tags))
            }
        }
        let barHeight = bars.reduce(0) { $0 + $1.frame.height }
        var barTop = screen.height - safe.bottom - barHeight
        for index in bars.indices {
            bars[index].frame.origin.y = barTop
            barTop += bars[index].frame.height
        }
        let total = blocks.reduce(0) { $0 + $1.frame.height } + Self.spacing * Double(max(0, blocks.count - 1))
        let top = safe.top + Self.margin
        var y: Double =
            switch placement {
            case .top: top
            case .bottom: max(top, screen.height - safe.bottom - barHeight - Self.margin - total)
            case .screenBottom: max(top, screen.height - total)
            }
        for index in blocks.indices {
            blocks[index].frame.origin.y = y
            y += blocks[index].frame.height + Self.spacing
        }
        let root = ViewSpec(id: Self.rootID, frame: Rect(x: 0, y: 0, width: screen.width, height: screen.height), children: blocks + bars)
        return SceneInfo(root: root, lastFieldAction: lastFieldAction)
    }

    /// Numbers the tagged fields 1, 2, … in order, or n, n − 1, … from `reversedFrom`.
    struct TagCounter {
        var last = 0
        var reversedFrom: Int?
        mutating func next(for field: Field) -> Int? {
            guard field.isTagged else { return nil }
            last += 1
            return reversedFrom.map { $0 - last } ?? last
        }
    }

    private static func spec(of field: Field, x: Double, y: Double, width: Double, extra: [ViewID: Double], tags: inout TagCounter) -> ViewSpec {
        ViewSpec(
            id: field.id, kind: field.kind == .textView ? .textView : .textField,
            frame: Rect(x: x, y: y, width: width, height: field.height + (extra[field.id] ?? 0)), tag: tags.next(for: field),
            isHidden: field.isHidden, isEnabled: field.isEnabled, isSecure: field.kind == .secure)
    }

    /// Fields stacked from `y` in a container's coordinates; the height they take.
    private static func stack(
        _ fields: [Field], x: Double, y: Double, width: Double, extra: [ViewID: Double], tags: inout TagCounter
    ) -> (views: [ViewSpec], height: Double) {
        var views: [ViewSpec] = []
        var next = y
        for field in fields {
            let view = spec(of: field, x: x, y: next, width: width, extra: extra, tags: &tags)
            views.append(view)
            next += view.frame.height + spacing
        }
        return (views, max(0, next - spacing - y))
    }

    /// A scroll view, a nested one or a table holding `group`'s fields; its y is set by the caller.
    private static func scrolling(
        _ group: Group, index: Int, x: Double, width: Double, extra: [ViewID: Double], tags: inout TagCounter
    ) -> ViewSpec {
        let id = ViewID("\(group.container == .tableCells ? "table" : "scroll")\(index + 1)")
        var content: [ViewSpec]
        var contentHeight: Double
        switch group.container {
        case .tableCells:
            content = []
            contentHeight = 0
            for field in group.fields {
                let inner = spec(of: field, x: 16, y: 8, width: max(20, width - 32), extra: extra, tags: &tags)
                let cellHeight = inner.frame.height + 16
                content.append(
                    ViewSpec(id: ViewID("cell-\(field.id)"), frame: Rect(x: 0, y: contentHeight, width: width, height: cellHeight), children: [inner])
                )
                contentHeight += cellHeight
            }
        case .nestedScrollView:
            let (views, height) = stack(group.fields, x: 0, y: 0, width: width, extra: extra, tags: &tags)
            let innerHeight = min(height, scrollViewHeight - 60)
            let inner = ViewSpec(
                id: ViewID("inner\(index + 1)"), kind: .scrollView, frame: Rect(x: 0, y: 40, width: width, height: innerHeight),
                contentOffset: .zero, contentSize: Size(width: width, height: height), children: views)
            content = [inner]
            contentHeight = innerHeight + 100
        default:
            (content, contentHeight) = stack(group.fields, x: 0, y: 8, width: width, extra: extra, tags: &tags)
            contentHeight += 16
        }
        return ViewSpec(
            id: id, kind: .scrollView, frame: Rect(x: x, y: 0, width: width, height: min(contentHeight, scrollViewHeight)),
            contentOffset: .zero, contentSize: Size(width: width, height: contentHeight), children: content)
    }

    /// A chat input bar the screen's width; its y is set by the caller.
    private static func chatBar(_ group: Group, index: Int, width: Double, extra: [ViewID: Double], tags: inout TagCounter) -> ViewSpec {
        let (views, height) = stack(group.fields, x: 8, y: 6, width: max(20, width - 16), extra: extra, tags: &tags)
        return ViewSpec(id: ViewID("bar\(index + 1)"), frame: Rect(x: 0, y: 0, width: width, height: height + 12), children: views)
    }

    /// Every view's frame in a scene, in the order the scene lists them.
    static func frames(of scene: SceneInfo) -> [(ViewID, Rect)] {
        var result: [(ViewID, Rect)] = []
        func walk(_ view: ViewSpec) {
            result.append((view.id, view.frame))
            view.children.forEach(walk)
        }
        walk(scene.root)
        return result
    }

    /// The field Return in `id` moves to: the next tagged field that can take the focus, in tag
    /// order (``tagsReversed``: bottom to top); `nil` on the last and in an untagged field.
    func field(after id: ViewID) -> Field? {
        let tagged = tagsReversed ? fields.filter(\.isTagged).reversed() : fields.filter(\.isTagged)
        guard let index = tagged.firstIndex(where: { $0.id == id }) else { return nil }
        return tagged[(index + 1)...].first { $0.isFocusable }
    }

    /// Whether the field `id` sits in a scroll view, a nested one or a table.
    func isInScrollView(_ id: ViewID) -> Bool {
        groups.contains { group in
            group.container != .none && group.container != .chatBar && group.fields.contains { $0.id == id }
        }
    }

    /// The field `id`.
    func field(_ id: ViewID) -> Field? { fields.first { $0.id == id } }
}
