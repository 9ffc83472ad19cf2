import ResponderBus
import ResponderBusExternal

/// A plugin that is a WebAssembly module, run in process by an embedded interpreter (WasmKit):
/// one `.wasm` file that runs unchanged on every host, reaches nothing but the host's functions,
/// and is stopped when it loops (see `WasmSandbox`).
///
/// Each delivery of an event the module asked for writes the event's payload into the module's
/// event buffer and calls its `rb_on_event` (see ``WasmPluginABI``); what it posts through the host's
/// functions is posted on the bus, under its name, when the call returns — so a call that faults
/// posts no decision. What it logs becomes info diagnostics (at most 100 per delivery); it may post
/// at most 1,000 decisions and hand the host at most 1 MiB of names, ids and actions per delivery
/// (past either is a fault).
///
/// Faults — a trap, fuel run out, the memory ceiling passed, a host function refusing a call — are
/// reported as error diagnostics (failure `pluginProcessFailed`) naming the plugin, the event and
/// what happened, and handled by the sandbox's failure policy: a fresh instance replaces the
/// faulty one at its next event, up to `WasmSandbox.maximumRestarts` times, then the plugin is
/// disabled; with `stop`, ``onStop`` is called. A fresh instance, and a plugin registered on a bus
/// already running, is first shown the screen as it is (the catch-up a restarted process gets:
/// the events of it the module asked for, what it posts on them dropped). A non-zero return from
/// `rb_on_event` is the plugin's own error (failure `pluginThrew`), like a Swift plugin that
/// throws: reported, and nothing else happens.
/// Loop-confined, like the bus.
public final class WasmPlugin: KeyboardObserving, EventObserving, ContainedPlugin {
    /// The name the module's handshake gave.
    public let name: String
    /// Where the module asked to sit.
    public let preferredPosition: PluginPosition?
    /// The module.
    public let module: WasmPluginModule
    /// The non-keyboard events the module asked for (the keyboard's come through
    /// `KeyboardObserving`).
    public let observedEvents: Set<AnyEventName>?

    /// Every fault so far, in order.
    public private(set) var faults: [ExternalPlugin.Fault] = []
    /// Called on the loop with each fault, after its diagnostic was posted.
    public var onFault: ((ExternalPlugin.Fault) -> Void)?
    /// Called once when a fault stops a plugin whose failure mode is `stop`.
    public var onStop: ((String) -> Void)?
    /// Whether the plugin has been disabled for the rest of the session.
    public private(set) var isDisabled = false
    /// How many times a fresh instance replaced a faulty one.
    public private(set) var restarts = 0
    /// How many deliveries the module handled.
    public private(set) var deliveries = 0

    private var instance: GuestInstance?
    /// The keyboard events asked for, as bits of their ABI kinds.
    private let keyboardKinds: UInt64

    init(module: WasmPluginModule) throws(WasmPluginError) {
        self.module = module
        let instance = try module.instantiate()
        self.instance = instance
        name = instance.hello.name
        preferredPosition = instance.hello.position
        // A kind is a keyboard event's when the bus's vocabulary says its event is one, so that a
        // keyboard event given a kind later is routed as one with no second list to change.
        let keyboardEvents = Set(EventName<KeyboardInfo>.allKeyboardEvents.map(\.erased))
        var keyboard: UInt64 = 0
        var others = Set<AnyEventName>()
        for kind in instance.hello.events {
            guard let event = WasmPluginABI.event(ofKind: kind) else { continue }
            if keyboardEvents.contains(event) {
                precondition(kind < 64, "a keyboard event's ABI kind must be below 64: \(kind)")
                keyboard |= 1 << UInt64(kind)
            } else {
                others.insert(event)
            }
        }
        keyboardKinds = keyboard
        observedEvents = others
    }

    /// Releases the instance; the plugin takes no more events.
    public func shutDown(grace: Duration = .zero) {
        instance = nil
        isDisabled = true
    }

    // MARK: Delivery

    /// Delivers a keyboard event the module asked for.
    public func keyboardEvent(_ event: Event<KeyboardInfo>, context: PluginContext) {
        deliverKeyboard(event.name.erased, event.payload, context)
    }

    /// Delivers another event the module asked for.
    public func observe(_ event: AnyEvent, context: PluginContext) {
        deliverOther(event.name, event.payload, context)
    }

    /// Shows the module the screen as it is when it joins a bus (the catch-up a fresh instance gets
    /// too): the scene and the rest, when it asked for them, what it posts on them dropped.
    public func didRegister(context: PluginContext) {
        catchUp(context)
    }

    /// Shows a fresh instance the screen as it is: the events a restarted out-of-process plugin is
    /// sent (a `screen`, the `scene`, the root's shift, …; see the article *Restarts and catch-up*
    /// of ResponderBusExternal), each delivered when the module asked for it, and whatever it posts
    /// or says on them dropped. A fault on one is a fault like any other.
    private func catchUp(_ context: PluginContext) {
        for logEvent in PluginProtocol.modelSnapshot(of: context.screen) {
            guard instance != nil else { return }
            let event = logEvent.erased()
            if let info = event.payload as? KeyboardInfo {
                deliverKeyboard(event.name, info, context, catchingUp: true)
            } else {
                deliverOther(event.name, event.payload, context, catchingUp: true)
            }
        }
    }

    private func deliverKeyboard(_ name: AnyEventName, _ info: KeyboardInfo, _ context: PluginContext, catchingUp: Bool = false) {
        guard let kind = WasmPluginABI.kind(of: name), keyboardKinds & (1 << UInt64(kind)) != 0 else { return }
        deliver(kind: kind, context, catchingUp: catchingUp) { record, _ in
            var flags: Int32 = 0
            if let begin = info.begin {
                flags |= WasmPluginABI.KeyboardFlag.hasBegin
                record.rect(16, begin)
            }
            if let end = info.end {
                flags |= WasmPluginABI.KeyboardFlag.hasEnd
                record.rect(48, end)
            }
            if let duration = info.duration {
                flags |= WasmPluginABI.KeyboardFlag.hasDuration
                record.f64(8, duration)
            }
            if let curve = info.curve {
                flags |= WasmPluginABI.KeyboardFlag.hasCurve
                record.i32(4, Int32(clamping: curve))
            }
            if let isLocal = info.isLocal {
                flags |= WasmPluginABI.KeyboardFlag.hasIsLocal | (isLocal ? WasmPluginABI.KeyboardFlag.isLocal : 0)
            }
            record.i32(0, flags)
            return nil
        }
    }

    private func deliverOther(_ name: AnyEventName, _ payload: any Sendable, _ context: PluginContext, catchingUp: Bool = false) {
        guard let kind = WasmPluginABI.kind(of: name) else { return }
        // What the bus routes here is what the module asked for; a catch-up goes through everything.
        if catchingUp, observedEvents?.contains(name) != true { return }
        deliver(kind: kind, context, catchingUp: catchingUp) { record, host in
            var view: ViewID?
            var handleAtZero = true
            switch payload {
            case let info as EditingInfo: view = info.view
            case let info as ReturnKeyInfo: view = info.view
            case let info as ResignInfo: view = info.view
            case let info as FrameChange: view = info.view
            case let info as ScrollChange: view = info.view
            case let info as ViewSettings: view = info.view
            case let info as ViewMove: view = info.view
            case let shift as ViewShift:
                handleAtZero = false
                record.i32(0, Int32(clamping: shift.curve))
                record.f64(8, shift.originY)
                record.f64(16, shift.duration)
            case let change as FocusChange:
                handleAtZero = false
                record.i32(0, host.handle(of: change.from))
                record.i32(4, host.handle(of: change.to))
                view = change.to
            default:
                handleAtZero = false
            }
            if handleAtZero { record.i32(0, host.handle(of: view)) }
            return view
        }
    }

    /// Writes the payload, calls the module, and posts what it derived (or contains its fault);
    /// `catchingUp`: posts nothing of a successful call.
    private func deliver(
        kind: Int32, _ context: PluginContext, catchingUp: Bool = false, payload: (inout GuestRecordWriter, HostState) -> ViewID?
    ) {
        guard !isDisabled else { return }
        if instance == nil, catchingUp || !restart(context) { return }
        guard let instance else { return }
        let t = context.now.seconds
        let host = instance.host
        host.begin(context, t: t, eventView: nil)
        let code: Int32
        do {
            // The payload, written in one access; the buffer's other bytes zeroed.
            var view: ViewID?
            guard instance.memory.writeRecord(at: instance.eventBuffer, size: WasmPluginABI.eventBufferSize, { view = payload(&$0, host) }) else {
                throw GuestFault.refused("shrank its memory below its event buffer")
            }
            host.eventView = view
            code = try instance.deliver(kind: kind, t: t)
        } catch {
            let posted = instance.host.end()
            if !catchingUp { postDiagnostics(posted.diagnostics, dropped: posted.dropped, context) }
            let what = WasmPluginABI.event(ofKind: kind)?.rawValue ?? "event \(kind)"
            return fail(context, "\(GuestInstance.describe(error, fuel: module.sandbox.fuelPerDelivery)) on \(what)")
        }
        let posted = instance.host.end()
        if catchingUp { return }
        deliveries += 1
        postDiagnostics(posted.diagnostics, dropped: posted.dropped, context)
        if code != 0 {
            let what = WasmPluginABI.event(ofKind: kind)?.rawValue ?? "event \(kind)"
            context.post(
                .diagnostic,
                Diagnostic(level: .error, message: "plugin '\(name)' returned error \(code) from \(what)", failure: .pluginThrew))
        }
        for decision in posted.decisions {
            switch decision {
            case .viewShift(let shift): context.post(.viewShift, shift)
            case .focusChange(let change): context.post(.focusChange, change)
            case .scroll(let scroll): context.post(.scroll, scroll)
            case .resign(let resign): context.post(.resign, resign)
            case .action(let action): context.post(.action, action)
            case .viewSettings(let settings): context.post(.viewSettings, settings)
            case .viewMove(let move): context.post(.viewMove, move)
            }
        }
    }

    private func postDiagnostics(_ diagnostics: [Diagnostic], dropped: Int, _ context: PluginContext) {
        for diagnostic in diagnostics { context.post(.diagnostic, diagnostic) }
        if dropped > 0 {
            context.diagnose(
                .info, "plugin '\(name)' wrote \(dropped) more messages in one delivery; dropped (the most is \(HostState.diagnosticBudget))")
        }
    }

    // MARK: Faults

    /// A fresh instance in place of the faulty one; `false` (the fault reported) when it cannot be
    /// made.
    private func restart(_ context: PluginContext) -> Bool {
        do throws(WasmPluginError) {
            instance = try module.instantiate()
            catchUp(context)
            return instance != nil
        } catch {
            fail(context, "could not be instantiated again: \(error.message)")
            return false
        }
    }

    /// Reports a fault and replaces, disables or stops the plugin.
    private func fail(_ context: PluginContext, _ what: String) {
        instance = nil
        let outcome: ExternalPlugin.Fault.Outcome
        let sandbox = module.sandbox
        if sandbox.failureMode == .stop {
            isDisabled = true
            outcome = .stopped
        } else if restarts < sandbox.maximumRestarts {
            restarts += 1
            outcome = .restarting(in: .zero, attempt: restarts, of: sandbox.maximumRestarts)
        } else {
            isDisabled = true
            outcome = .disabled(afterFailures: restarts + 1)
        }
        let fault = ExternalPlugin.Fault(plugin: name, what: what, outcome: outcome, t: context.now.seconds, lastErrorLines: [])
        faults.append(fault)
        context.post(.diagnostic, Diagnostic(level: .error, message: fault.message, failure: .pluginProcessFailed))
        onFault?(fault)
        if outcome == .stopped { onStop?("plugin '\(name)' \(what)") }
    }
}

extension Duration {
    /// The duration in seconds.
    fileprivate var seconds: Double {
        let (whole, fraction) = components
        return Double(whole) + Double(fraction) / 1e18
    }
}
