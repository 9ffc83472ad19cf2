import EventLog
import ResponderBus

/// Makes sessions at random, the same ones for the same seed: devices from the table of common
/// iPhones and iPads in both orientations; the system keyboard with and without the prediction
/// bar, third-party keyboards announcing several heights within milliseconds, a hardware
/// keyboard's accessory bar and, on an iPad, the floating, undocked and split keyboards; forms by
/// tag (some numbered bottom to top) of text
/// fields, secure fields and text views (some hidden, disabled or out of the tag order, some
/// taller) in the root, scroll views, nested scroll views, table cells and a chat input bar, at the
/// top, the bottom or the very bottom of the screen; and taps, Return, rotations, dismissals, text
/// views growing, switches to another app and back, and another app's keyboard.
public struct SessionGenerator: Sendable {
    /// The devices sessions run on.
    public var devices: [Device]
    /// The most groups of fields on a screen (at least 1).
    public var maxGroups: Int
    /// The most fields in a group (at least 1).
    public var maxFieldsPerGroup: Int
    /// The most steps in a session (at least 1).
    public var maxSteps: Int
    /// What may hold the fields (not empty): every container by default; a plugin that leaves
    /// scroll views to another explores forms in the root alone with `[.none]`.
    public var containers: [GeneratedSession.Container]

    /// Third-party keyboards' announced heights (portrait): SwiftKey's and Swype's (measured on an
    /// iPhone 6), one that announces the system height and then its own, one that dips and comes
    /// back, and one that announces 0 and then its height.
    public static let thirdPartyHeights: [[Double]] = [[0, 216, 259], [0, 216, 256], [216, 260], [282, 216, 282], [0, 258]]

    /// A generator over every device of the table.
    public init(
        devices: [Device] = Device.all, maxGroups: Int = 3, maxFieldsPerGroup: Int = 4, maxSteps: Int = 8,
        containers: [GeneratedSession.Container] = GeneratedSession.Container.allCases
    ) {
        self.containers = containers.isEmpty ? GeneratedSession.Container.allCases : containers
        self.devices = devices.isEmpty ? Device.all : devices
        self.maxGroups = max(1, maxGroups)
        self.maxFieldsPerGroup = max(1, maxFieldsPerGroup)
        self.maxSteps = max(1, maxSteps)
    }

    /// The session `seed` makes.
    public func session(seed: UInt64) -> GeneratedSession {
        var random = SeededRandom(seed: seed)
        // The settings are public variables: an empty list or a limit under 1 is taken as the default.
        let device = random.pick(devices.isEmpty ? Device.all : devices)
        let orientation: Device.Orientation = random.chance(70) ? .portrait : .landscape
        var session = GeneratedSession(
            device: device, orientation: orientation, keyboard: keyboard(for: device, &random),
            placement: random.pick(GeneratedSession.Placement.allCases), groups: groups(&random),
            lastFieldAction: random.chance(50) ? "submit" : nil)
        session.tagsReversed = random.chance(10)
        session.steps = steps(for: session, &random)
        return session
    }

    private func keyboard(for device: Device, _ random: inout SeededRandom) -> GeneratedSession.Keyboard {
        let roll = random.below(100)
        if device.idiom == .pad, roll >= 76 { return roll >= 92 ? .floating : roll >= 84 ? .undocked : .split }
        switch roll {
        case ..<50: return .system(predictionBar: random.chance(70))
        case ..<70: return .thirdParty(random.pick(Self.thirdPartyHeights))
        default: return .hardware(bar: random.chance(50) ? 44 : 55)
        }
    }

    private func groups(_ random: inout SeededRandom) -> [GeneratedSession.Group] {
        var groups: [GeneratedSession.Group] = []
        var number = 0
        var hasBar = false
        let allowed = containers.isEmpty ? GeneratedSession.Container.allCases : containers
        // A screen holds one chat bar: when it is all that is allowed, one group.
        let most = allowed == [.chatBar] ? 1 : max(1, maxGroups)
        for _ in 0..<random.number(in: 1...most) {
            let roll = random.below(100)
            var container: GeneratedSession.Container =
                switch roll {
                case ..<40: .none
                case ..<58: .scrollView
                case ..<70: .nestedScrollView
                case ..<86: .tableCells
                default: .chatBar
                }
            if !allowed.contains(container) { container = random.pick(allowed) }
            if container == .chatBar && hasBar { container = allowed.first { $0 != .chatBar } ?? .none }
            hasBar = hasBar || container == .chatBar
            let count = container == .chatBar ? 1 : random.number(in: 1...max(1, maxFieldsPerGroup))
            let fields = (0..<count).map { _ in
                number += 1
                return field(number: number, inBar: container == .chatBar, &random)
            }
            groups.append(GeneratedSession.Group(container: container, fields: fields))
        }
        return groups
    }

    private func field(number: Int, inBar: Bool, _ random: inout SeededRandom) -> GeneratedSession.Field {
        let roll = random.below(100)
        let kind: GeneratedSession.Field.Kind = inBar ? .textView : roll < 60 ? .text : roll < 80 ? .secure : .textView
        var height: Double?
        if inBar {
            height = 36
        } else if random.chance(20) {
            height = kind == .textView ? Double(random.number(in: 6...45) * 10) : Double(random.number(in: 28...60))
        }
        return GeneratedSession.Field(
            id: ViewID("f\(number)"), kind: kind, height: height, isHidden: !inBar && random.chance(7), isEnabled: inBar || !random.chance(7),
            isTagged: inBar || !random.chance(10))
    }

    /// Steps that mostly can happen where they come: a tap on a field that can take the focus, Return
    /// and a dismissal with a field focused, growth in a focused text view.
    private func steps(for session: GeneratedSession, _ random: inout SeededRandom) -> [GeneratedSession.Step] {
        let focusable = session.fields.filter(\.isFocusable)
        guard !focusable.isEmpty else { return [GeneratedSession.Step(after: 0, .rotate)] }
        var steps: [GeneratedSession.Step] = []
        var focused: GeneratedSession.Field?
        let gaps = [0.05, 0.1, 0.2, 0.3, 0.5, 0.8]
        for index in 0..<random.number(in: 1...max(1, maxSteps)) {
            let action: GeneratedSession.Action
            let roll = index == 0 ? 0 : random.below(100)
            switch roll {
            case ..<35:
                let field = random.pick(focusable)
                action = .tap(field.id)
                focused = field
            case ..<55 where focused != nil:
                action = .returnKey
                if let current = focused, current.kind != .textView { focused = session.field(after: current.id) }
            case ..<55:
                let field = random.pick(focusable)
                action = .tap(field.id)
                focused = field
            case ..<65: action = .rotate
            case ..<75:
                action = .dismiss
                focused = nil
            case ..<85 where focused.map { $0.kind == .textView && !session.isInScrollView($0.id) } == true:
                action = .grow(Double(random.number(in: 1...6) * 20))
            case ..<93: action = focused == nil ? .otherAppKeyboard : .switchApps
            default: action = .rotate
            }
            steps.append(GeneratedSession.Step(after: index == 0 ? 0 : random.pick(gaps), action))
        }
        return steps
    }
}
