import ResponderBus

extension SessionSketch {
    /// The space between two fields, in points.
    static let fieldSpacing = 16.0
    /// The margin between the fields and the safe area's edges, in points.
    static let margin = 20.0

    /// Each field's frame in `orientation`, in the order of ``fields``, in the root's coordinates
    /// (the root is the screen): see ``Layout``.
    public func fieldFrames(in orientation: Device.Orientation) -> [Rect] {
        let screen = device.screenSize(in: orientation)
        let safe = device.safeArea(in: orientation)
        let x = safe.left + Self.margin
        let width = max(1, screen.width - safe.left - safe.right - 2 * Self.margin)
        let heights = fields.map { $0.height ?? $0.kind.defaultHeight }
        let stacked = fields.indices.filter { fields[$0].y == nil }
        let total = stacked.map { heights[$0] }.reduce(0, +) + Self.fieldSpacing * Double(max(0, stacked.count - 1))
        let top = safe.top + Self.margin
        var y: Double =
            switch layout {
            case .top: top
            case .bottom: max(top, screen.height - safe.bottom - Self.margin - total)
            }
        var frames = [Rect](repeating: .zero, count: fields.count)
        for index in fields.indices {
            if let given = fields[index].y {
                frames[index] = Rect(x: x, y: place(given, in: orientation), width: width, height: heights[index])
            } else {
                frames[index] = Rect(x: x, y: y, width: width, height: heights[index])
                y += heights[index] + Self.fieldSpacing
            }
        }
        return frames
    }

    /// Where a field whose top is `y` in the starting orientation goes in `orientation`: at the
    /// same proportion of the safe area's height.
    private func place(_ y: Double, in orientation: Device.Orientation) -> Double {
        guard orientation != self.orientation else { return y }
        let from = safeSpan(in: self.orientation)
        let to = safeSpan(in: orientation)
        return (to.top + (y - from.top) * to.height / from.height).rounded()
    }

    private func safeSpan(in orientation: Device.Orientation) -> (top: Double, height: Double) {
        let safe = device.safeArea(in: orientation)
        return (safe.top, max(1, device.screenSize(in: orientation).height - safe.top - safe.bottom))
    }

    /// The scene: a root view the size of the screen holding the fields, tagged in order.
    func scene(in orientation: Device.Orientation) -> SceneInfo {
        let screen = device.screenSize(in: orientation)
        var tag = 0
        let children = zip(fields, fieldFrames(in: orientation)).map { field, frame in
            if !field.returnEndsEditing { tag += 1 }
            return ViewSpec(
                id: field.id, kind: field.kind.viewKind, frame: frame, tag: field.returnEndsEditing ? nil : tag, isHidden: field.isHidden,
                isEnabled: field.isEnabled, keyboardDistance: field.keyboardDistance, isSecure: field.kind == .secure)
        }
        let root = ViewSpec(id: Self.rootID, kind: .view, frame: Rect(x: 0, y: 0, width: screen.width, height: screen.height), children: children)
        return SceneInfo(root: root, lastFieldAction: lastFieldAction)
    }

    /// The field Return in `id` moves to, as field advancing in tag order finds it: the next field
    /// that has a tag and can take the focus; `nil` on the last, and in a field that has no tag.
    func field(after id: ViewID) -> FieldSketch? {
        guard let index = fields.firstIndex(where: { $0.id == id }), !fields[index].returnEndsEditing else { return nil }
        return fields[(index + 1)...].first { !$0.returnEndsEditing && $0.isFocusable }
    }
}
