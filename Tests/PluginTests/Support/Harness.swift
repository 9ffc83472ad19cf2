import FieldAdvancing
import KeyboardAvoidance
import ResponderBus
import TextViewOrdering

/// Runs sessions through the built-in plugins on the virtual-time loop and records what they
/// derived.
///
/// Events given to one ``turn(at:_:)`` are posted in one loop task at that time: one UIKit run-loop
/// turn, as events with the same `t` in a log.
final class Harness {
    let loop = VirtualTimeLoop()
    let bus: Bus
    private(set) var derived: [AnyEvent] = []
    private var token: ObservationToken?

    /// Which built-in plugins to register, in pipeline order.
    struct Plugins: OptionSet {
        let rawValue: Int
        static let ordering = Plugins(rawValue: 1)
        static let advancing = Plugins(rawValue: 2)
        static let avoidance = Plugins(rawValue: 4)
        static let all: Plugins = [.ordering, .advancing, .avoidance]
    }

    init(
        device: Device, plugins: Plugins = .all, avoidance: KeyboardAvoidance = KeyboardAvoidance(),
        ordering: TextViewOrdering = TextViewOrdering(), advancing: FieldAdvancing = FieldAdvancing()
    ) {
        bus = Bus(loop: loop, screen: Screen(size: device.screen, safeArea: device.safeArea))
        do {
            if plugins.contains(.ordering) { try bus.register(ordering) }
            if plugins.contains(.advancing) { try bus.register(advancing) }
            if plugins.contains(.avoidance) { try bus.register(avoidance) }
        } catch {
            fatalError("harness: \(error)")
        }
        token = bus.observeAll { [unowned self] event in
            if event.origin != .external { derived.append(event) }
        }
    }

    /// Posts the events of one turn at `seconds` (virtual time) and runs the loop up to then.
    func turn(at seconds: Double, _ events: @escaping (Bus) -> Void) {
        let time = Duration.milliseconds(Int64((seconds * 1000).rounded()))
        loop.advance(to: max(time, loop.now))
        loop.schedule(after: .zero) { [bus] in events(bus) }
        loop.run()
    }

    /// Lets virtual time pass (timers such as a settle window fire).
    func wait(_ seconds: Double) {
        loop.advance(by: .milliseconds(Int64((seconds * 1000).rounded())))
    }

    /// Every `viewShift` origin derived so far.
    var shifts: [Double] { derived.compactMap { $0.as(.viewShift)?.payload.originY } }
    /// Every `viewShift` derived so far.
    var viewShifts: [ViewShift] { derived.compactMap { $0.as(.viewShift)?.payload } }
    /// Every `scroll` derived so far.
    var scrolls: [ScrollChange] { derived.compactMap { $0.as(.scroll)?.payload } }
    /// Every diagnostic derived so far.
    var diagnostics: [Diagnostic] { derived.compactMap { $0.as(.diagnostic)?.payload } }
    /// The derived events other than `turnSettled`, as `name[:detail]` strings.
    var decisions: [String] {
        derived.compactMap { event in
            if let shift = event.as(.viewShift) { return "viewShift:\(shift.payload.originY)" }
            if let scroll = event.as(.scroll) {
                return "scroll:\(scroll.payload.view):\(scroll.payload.contentOffsetY):\(scroll.payload.bottomInset)"
            }
            if let focus = event.as(.focusChange) { return "focusChange:\(focus.payload.from?.rawValue ?? "-")>\(focus.payload.to?.rawValue ?? "-")" }
            if let action = event.as(.action) { return "action:\(action.payload.name)" }
            if let resign = event.as(.resign) { return "resign:\(resign.payload.view)" }
            if let diagnostic = event.as(.diagnostic) { return "diagnostic:\(diagnostic.payload.level.rawValue)" }
            return nil
        }
    }

    func clear() { derived.removeAll() }
}
