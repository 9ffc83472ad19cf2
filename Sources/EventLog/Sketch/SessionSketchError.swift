import ResponderBus

/// Why a ``SessionSketch`` cannot be written: a code to switch on and a message that says what to
/// change. Equality compares the code only.
public struct SessionSketchError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of problem.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        let name: String

        /// No device of that name or size (``Device/named(_:)``); the message lists the known ones.
        public static let unknownDevice = Code(name: "unknownDevice")
        /// A field that cannot be read, no fields, or two with one id.
        public static let badField = Code(name: "badField")
        /// An action names a field the screen does not have.
        public static let unknownField = Code(name: "unknownField")
        /// An action that cannot happen then: focusing a hidden or disabled field, Return or a
        /// dismissal with no field focused, two actions too close together.
        public static let impossibleAction = Code(name: "impossibleAction")
        /// A time, a duration or a keyboard height out of range.
        public static let badValue = Code(name: "badValue")

        /// The code's name.
        public var description: String { name }
    }

    /// The kind of problem.
    public let code: Code
    /// What was wrong and what to do.
    public let message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The message.
    public var description: String { message }

    /// Compares by code only.
    public static func == (a: Self, b: Self) -> Bool { a.code == b.code }
    /// Hashes the code only.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// The error for a device name ``Device/named(_:)`` does not know, listing the ones it does.
    public static func unknownDevice(_ name: String) -> SessionSketchError {
        SessionSketchError(
            .unknownDevice,
            "unknown device '\(name)'; known: \(Device.knownNames) (another model's name, such as iPhone 13, or a size such as 390x844, finds its screen)"
        )
    }
}

extension SessionSketch {
    /// Checks what ``records()`` needs before it writes anything.
    func validate() throws(SessionSketchError) {
        guard !fields.isEmpty else { throw SessionSketchError(.badField, "a session needs at least one field") }
        var seen: Set<ViewID> = [Self.rootID]
        for field in fields where !seen.insert(field.id).inserted {
            throw SessionSketchError(
                .badField,
                field.id == Self.rootID ? "'root' is the screen's root view; name the field otherwise" : "two fields are named '\(field.id)'")
        }
        guard animationDuration.isFinite, animationDuration >= 0, animationDuration <= LogLimits.longestKeyboardAnimation else {
            throw SessionSketchError(
                .badValue,
                "an animation of \(JSONText.number(animationDuration)) s; keyboard animations last 0 to \(JSONText.number(LogLimits.longestKeyboardAnimation)) s (0.25 on iOS)"
            )
        }
        // The orientations the session shows a keyboard in: the one it starts in, and the other
        // when it rotates (a third-party keyboard's heights there are the portrait ones scaled).
        let rotates = actions.contains { if case .rotate = $0 { true } else { false } }
        for orientation in Device.Orientation.allCases where orientation == self.orientation || rotates {
            let heights = keyboard.heights(on: device, in: orientation)
            let screen = device.screenSize(in: orientation)
            guard let last = heights.last, last > 0, heights.count <= 10, heights.allSatisfy({ $0.isFinite && $0 >= 0 && $0 <= screen.height }) else {
                let derived = orientation != self.orientation ? " (scaled from the starting orientation's, for the rotation)" : ""
                throw SessionSketchError(
                    .badValue,
                    "keyboard heights \(heights.map { Action.seconds($0) }.joined(separator: ", ")) in \(orientation.rawValue)\(derived): "
                        + "1 to 10 heights from 0 to the screen's \(JSONText.number(screen.height)) points, the last more than 0")
            }
        }
        try validateTimes()
    }

    private func validateTimes() throws(SessionSketchError) {
        let ordered = actions.sorted { $0.t < $1.t }
        for action in ordered where !(action.t.isFinite && action.t >= 0 && action.t <= LogLimits.maximumSeconds - 1) {
            throw SessionSketchError(
                .badValue,
                "\(action.description): times are seconds from the start of the log, from 0 to \(JSONText.number(LogLimits.maximumSeconds - 1))")
        }
        for (earlier, later) in zip(ordered, ordered.dropFirst()) where later.t - earlier.t < Self.minimumActionInterval {
            throw SessionSketchError(
                .impossibleAction,
                "\(later.description) is \(JSONText.number(((later.t - earlier.t) * 1000).rounded())) ms after \(earlier.description); leave at least \(JSONText.number(Self.minimumActionInterval * 1000)) ms between actions"
            )
        }
    }

    /// The root view's id.
    static let rootID: ViewID = "root"
}
