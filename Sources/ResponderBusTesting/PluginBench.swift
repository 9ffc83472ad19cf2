import ResponderBus

/// A bus on a virtual-time loop with your plugins in it, driven one UIKit run-loop turn at a time:
/// the bench for tests that post events directly rather than replay a log.
///
/// Events given to one ``turn(at:_:)`` are posted in one loop task at that time — one run-loop
/// turn, as events with the same `t` in a log — and the loop then runs until it is idle, so what the
/// plugins decide at the end of the turn (`asap` posts, `turnSettled`) is there when
/// `turn` returns. ``wait(_:)`` lets virtual time pass for timers.
///
/// ```swift
/// let device = CannedScreens.Device.iPhoneX
/// let bench = try PluginBench(device: device, plugins: [TextViewOrdering(), KeyboardAvoidance(), MyPlugin()])
/// bench.turn(at: 0) { $0.post(.scene, CannedScreens.login(on: device)) }
/// bench.turn(at: 1) { bus in
///     bus.post(.didBeginEditing, EditingInfo(view: "password"))
///     bus.post(.keyboardWillShow, device.keyboardShow)
/// }
/// #expect(bench.derived(by: "MyPlugin").count == 1)
/// ```
///
/// The plugins run in the order given (the pipeline a plugin runs in matters when it reads another
/// plugin's decisions).
public final class PluginBench {
    /// The virtual-time loop the bus runs on.
    public let loop = VirtualTimeLoop()
    /// The bus, with the plugins registered.
    public let bus: Bus
    /// Every derived event so far, in order (what the plugins posted, diagnostics included).
    public private(set) var derived: [AnyEvent] = []
    private var token: ObservationToken?

    /// A bus for `device`'s screen with `plugins` registered in this order.
    ///
    /// - Throws: `PluginRegistrationError` when a plugin cannot be registered (a name taken twice).
    public init(device: CannedScreens.Device, plugins: [any ResponderPlugin]) throws {
        bus = Bus(loop: loop, screen: Screen(size: device.screen, safeArea: device.safeArea))
        for plugin in plugins { try bus.register(plugin) }
        token = bus.observeAll { [unowned self] event in
            if event.origin != .external { derived.append(event) }
        }
    }

    /// Posts the events of one turn at `seconds` of virtual time and runs the loop until it is idle.
    /// A time earlier than the loop's clock is taken as now.
    public func turn(at seconds: Double, _ events: @escaping (Bus) -> Void) {
        let time = Duration.milliseconds(Int64((seconds * 1000).rounded()))
        loop.advance(to: max(time, loop.now))
        loop.schedule(after: .zero) { [bus] in events(bus) }
        loop.run()
    }

    /// Lets `seconds` of virtual time pass, firing the timers that fall due.
    public func wait(_ seconds: Double) {
        loop.advance(by: .milliseconds(Int64((seconds * 1000).rounded())))
    }

    /// The events one plugin derived so far.
    public func derived(by plugin: String) -> [AnyEvent] {
        derived.filter { $0.origin.derivingPlugin == plugin }
    }

    /// Every `viewShift` origin derived so far.
    public var shifts: [Double] { derived.compactMap { $0.as(.viewShift)?.payload.originY } }
    /// Every `viewShift` derived so far.
    public var viewShifts: [ViewShift] { derived.compactMap { $0.as(.viewShift)?.payload } }
    /// Every `scroll` derived so far.
    public var scrolls: [ScrollChange] { derived.compactMap { $0.as(.scroll)?.payload } }
    /// Every diagnostic derived so far.
    public var diagnostics: [Diagnostic] { derived.compactMap { $0.as(.diagnostic)?.payload } }

    /// The decisions derived so far, one short string each, for comparing sequences:
    /// `viewShift:-129.0`, `scroll:notes:120.0:291.0`, `focusChange:email>password`, `action:signUp`,
    /// `resign:bio`, `viewSettings:password:40.0:true` (`:follows` added when the view follows the
    /// keyboard), `viewMove:bar:[0, 471, 375, 44]`, `diagnostic:warning`. Other derived events
    /// (`turnSettled`, plugins' own) are left out.
    public var decisions: [String] {
        derived.compactMap { event in
            if let shift = event.as(.viewShift) { return "viewShift:\(shift.payload.originY)" }
            if let scroll = event.as(.scroll) {
                return "scroll:\(scroll.payload.view):\(scroll.payload.contentOffsetY):\(scroll.payload.bottomInset)"
            }
            if let focus = event.as(.focusChange) {
                return "focusChange:\(focus.payload.from?.rawValue ?? "-")>\(focus.payload.to?.rawValue ?? "-")"
            }
            if let action = event.as(.action) { return "action:\(action.payload.name)" }
            if let resign = event.as(.resign) { return "resign:\(resign.payload.view)" }
            if let settings = event.as(.viewSettings) {
                let gap = settings.payload.keyboardDistance.map { "\($0)" } ?? "-"
                return "viewSettings:\(settings.payload.view):\(gap):\(settings.payload.avoidsKeyboard)"
                    + (settings.payload.followsKeyboard ? ":follows" : "")
            }
            if let move = event.as(.viewMove) { return "viewMove:\(move.payload.view):\(move.payload.frame)" }
            if let diagnostic = event.as(.diagnostic) { return "diagnostic:\(diagnostic.payload.level.rawValue)" }
            return nil
        }
    }

    /// Forgets what was derived so far.
    public func clear() { derived.removeAll() }
}
