import ResponderBus
import WasmKit

/// The host's side of one instance's imports: what the module may ask and post, through the
/// delivery under way. Loop-confined.
final class HostState {
    /// What the module is doing, which says what it may call.
    enum Phase {
        /// Between calls.
        case idle
        /// In `rb_init`: naming itself, asking for events.
        case handshake
        /// In `rb_on_event`: reading the screen, posting.
        case delivery
    }

    /// A decision posted during a delivery, posted on the bus when the delivery returns.
    enum Decision {
        case viewShift(ViewShift)
        case focusChange(FocusChange)
        case scroll(ScrollChange)
        case resign(ResignInfo)
        case action(ActionInfo)
        case viewSettings(ViewSettings)
        case viewMove(ViewMove)
    }

    var phase = Phase.idle
    var memory: GuestMemoryAccess?

    // The handshake's answers.
    var name: String?
    var requestedKinds: [Int32] = []
    var position: PluginPosition?
    /// The first thing in the handshake the ABI does not allow, in words.
    var handshakeProblem: String?

    // The delivery under way.
    var context: PluginContext?
    var time: Double = 0
    var eventView: ViewID?
    var decisions: [Decision] = []
    var diagnostics: [Diagnostic] = []
    var droppedDiagnostics = 0

    /// The most diagnostics one delivery may post; the rest are counted and said once.
    static let diagnosticBudget = 100
    /// The most decisions one delivery may post: one more is a fault of the module's (named, its
    /// delivery's decisions not posted), not a flood the bus cuts short.
    static let decisionBudget = 1_000
    /// The most bytes of names, ids and actions the host takes from the module in one delivery
    /// (taken whole, each): what a module can make the host hold is bounded by this, not by its
    /// own memory. Messages have their own bounds (``messageLimit`` each, ``diagnosticBudget``).
    static let textBudget = 1 << 20
    /// The text taken in the delivery under way.
    var textTaken = 0
    /// The longest message taken from the module for a diagnostic (`log`, `diagnose`); names, ids
    /// and actions are taken whole (the memory ceiling bounds them).
    static let messageLimit = 64 << 10

    // The screen's views by handle (their index in pre-order), for the screen they were read from.
    private var views: [ViewNode] = []
    private var handles: [ObjectIdentifier: Int32] = [:]
    private var viewsOf: (identity: UInt64, revision: UInt64)?

    /// Starts a delivery: the context, the time and the event's view.
    func begin(_ context: PluginContext, t: Double, eventView: ViewID?) {
        textTaken = 0
        self.context = context
        time = t
        self.eventView = eventView
        phase = .delivery
    }

    /// Ends a delivery, handing back what it posted (taken out, not copied).
    func end() -> (decisions: [Decision], diagnostics: [Diagnostic], dropped: Int) {
        defer {
            droppedDiagnostics = 0
            textTaken = 0
            context = nil
            phase = .idle
        }
        guard !decisions.isEmpty || !diagnostics.isEmpty else { return ([], [], droppedDiagnostics) }
        var posted: [Decision] = []
        var said: [Diagnostic] = []
        swap(&posted, &decisions)
        swap(&said, &diagnostics)
        return (posted, said, droppedDiagnostics)
    }

    // MARK: Views

    /// The handle of `view` on the screen of the delivery under way (-1 for none).
    func handle(of view: ViewNode?) -> Int32 {
        guard let view, let screen = context?.screen else { return -1 }
        refreshViews(screen)
        return handles[ObjectIdentifier(view)] ?? -1
    }

    /// The handle of the view named `id` (-1 for none).
    func handle(of id: ViewID?) -> Int32 {
        guard let id, let screen = context?.screen else { return -1 }
        return handle(of: screen.view(id))
    }

    private func refreshViews(_ screen: Screen) {
        if let viewsOf, viewsOf.identity == screen.identity, viewsOf.revision == screen.revision { return }
        views = screen.allViews
        handles.removeAll(keepingCapacity: true)
        for (index, view) in views.enumerated() { handles[ObjectIdentifier(view)] = Int32(index) }
        viewsOf = (screen.identity, screen.revision)
    }

    private func view(_ handle: Int32, _ function: String) throws(GuestFault) -> ViewNode {
        let screen = try screen(function)
        refreshViews(screen)
        guard handle >= 0, Int(handle) < views.count else {
            throw .refused("passed rb.\(function) view handle \(handle), and the screen has \(views.count) views (handles 0 to \(views.count - 1))")
        }
        return views[Int(handle)]
    }

    private func screen(_ function: String) throws(GuestFault) -> Screen {
        guard phase == .delivery, let context else {
            throw .refused("called rb.\(function) outside a delivery (in rb_init, the screen is not there yet)")
        }
        return context.screen
    }

    // MARK: Memory

    private func text(_ address: UInt32, _ count: Int32, _ function: String, limit: Int = .max) throws(GuestFault) -> String {
        guard count >= 0 else { throw .refused("passed rb.\(function) a negative length (\(count))") }
        let taken = min(Int(count), limit)
        if phase == .delivery && limit == .max {
            guard textTaken + taken <= Self.textBudget else {
                throw .refused(
                    "passed rb.\(function) \(taken) bytes of text, past the \(Self.textBudget >> 10) KiB one delivery may hand the host (\(textTaken) taken already)"
                )
            }
            textTaken += taken
        }
        guard let memory, let bytes = memory.bytes(at: address, count: taken) else {
            throw .outOfBounds(function: function, address: address, count: Int(count))
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private func copy(_ text: String, to address: UInt32, capacity: Int32, _ function: String) throws(GuestFault) -> Int32 {
        let bytes = Array(text.utf8)
        guard let memory, memory.write(bytes, at: address, capacity: Int(capacity)) else {
            throw .outOfBounds(function: function, address: address, count: min(bytes.count, Int(max(capacity, 0))))
        }
        return Int32(bytes.count)
    }

    private func record(
        at address: UInt32, size: Int, _ function: String, _ body: (inout GuestRecordWriter) -> Void
    ) throws(GuestFault) {
        guard let memory, memory.writeRecord(at: address, size: size, body) else {
            throw .outOfBounds(function: function, address: address, count: size)
        }
    }

    // MARK: Posting

    private func post(_ decision: Decision, _ function: String) throws(GuestFault) {
        guard phase == .delivery else { throw .refused("called rb.\(function) outside a delivery: decisions are posted from rb_on_event") }
        guard decisions.count < Self.decisionBudget else {
            throw .refused("posted more than \(Self.decisionBudget) decisions in one delivery (rb.\(function))")
        }
        decisions.append(decision)
    }

    private func diagnose(_ diagnostic: Diagnostic) {
        guard diagnostics.count < Self.diagnosticBudget else {
            droppedDiagnostics += 1
            return
        }
        diagnostics.append(diagnostic)
    }

    // MARK: The imports

    /// The host's functions, by name, made in `store`: exactly ``WasmPluginABI/imports``.
    func functions(store: Store) -> [(String, Function)] {
        func types(_ spelled: String) -> [ValueType] {
            spelled.split(separator: " ").map { $0 == "f64" ? .f64 : .i32 }
        }
        return WasmPluginABI.imports.map { name, parameters, results in
            let body = implementation(of: name)
            return (name, Function(store: store, parameters: types(parameters), results: types(results), host: body))
        }
    }

    // One body per import; each refuses what the ABI does not allow with a GuestFault, which traps
    // the call and becomes the plugin's fault.
    private func implementation(of name: String) -> (borrowing HostArguments) throws(GuestFault) -> HostResult {
        guard
            let body = handshakeFunction(name) ?? messageFunction(name) ?? readingFunction(name) ?? viewsFunction(name)
                ?? postingFunction(name)
        else {
            preconditionFailure("no host function '\(name)': WasmPluginABI.imports and HostState differ")
        }
        return body
    }

    /// The host functions of the handshake: what `rb_init` may call; `nil` for another name.
    private func handshakeFunction(_ name: String) -> ((borrowing HostArguments) throws(GuestFault) -> HostResult)? {
        switch name {
        case "set_name":
            return { [unowned self] arguments throws(GuestFault) in
                guard phase == .handshake else { throw .refused("called rb.set_name outside rb_init") }
                let text = try text(arguments.u32(0), arguments.i32(1), "set_name")
                if text.isEmpty || text.count > 128 || text.contains(where: { $0.isWhitespace || $0 == "@" }) {
                    handshakeProblem = handshakeProblem ?? "gave the name '\(text)'; a name is 1 to 128 characters, without spaces or '@'"
                }
                self.name = text
                return .none
            }
        case "observe":
            return { [unowned self] arguments throws(GuestFault) in
                guard phase == .handshake else { throw .refused("called rb.observe outside rb_init") }
                let kind = try arguments.i32(0)
                if WasmPluginABI.event(ofKind: kind) == nil {
                    handshakeProblem = handshakeProblem ?? "asked for event kind \(kind), which ABI version 1 does not have (1 to 19)"
                } else if !requestedKinds.contains(kind) {
                    requestedKinds.append(kind)
                }
                return .none
            }
        case "set_position":
            return { [unowned self] arguments throws(GuestFault) in
                guard phase == .handshake else { throw .refused("called rb.set_position outside rb_init") }
                let anchor = try text(arguments.u32(1), arguments.i32(2), "set_position")
                switch try arguments.i32(0) {
                case WasmPluginABI.Position.first: position = .first
                case WasmPluginABI.Position.last: position = .last
                case WasmPluginABI.Position.before where !anchor.isEmpty: position = .before(anchor)
                case WasmPluginABI.Position.after where !anchor.isEmpty: position = .after(anchor)
                case let other:
                    handshakeProblem =
                        handshakeProblem
                        ?? "asked for position \(other) with anchor '\(anchor)'; positions are 0 first, 1 last, 2 before NAME, 3 after NAME"
                }
                return .none
            }
        default:
            return nil
        }
    }

    /// The host functions of messages: a log line, a diagnostic; `nil` for another name.
    private func messageFunction(_ name: String) -> ((borrowing HostArguments) throws(GuestFault) -> HostResult)? {
        switch name {
        case "log":
            return { [unowned self] arguments throws(GuestFault) in
                let text = try text(arguments.u32(0), arguments.i32(1), "log", limit: Self.messageLimit)
                guard phase == .delivery else { return .none }
                diagnose(Diagnostic(level: .info, message: text))
                return .none
            }
        case "diagnose":
            return { [unowned self] arguments throws(GuestFault) in
                let level = try arguments.i32(0)
                guard level >= 0, Int(level) < WasmPluginABI.levels.count else {
                    throw .refused("passed rb.diagnose level \(level); levels are 0 info, 1 warning, 2 error")
                }
                let text = try text(arguments.u32(1), arguments.i32(2), "diagnose", limit: Self.messageLimit)
                let handle = try arguments.i32(3)
                let views = handle < 0 ? [] : [try view(handle, "diagnose").id]
                guard phase == .delivery else { return .none }
                diagnose(Diagnostic(level: WasmPluginABI.levels[Int(level)], message: text, views: views))
                return .none
            }
        default:
            return nil
        }
    }

    /// The host functions of reading the model: the time, the screen, the keyboard, the event's view; `nil` for another name.
    private func readingFunction(_ name: String) -> ((borrowing HostArguments) throws(GuestFault) -> HostResult)? {
        switch name {
        case "now":
            return { [unowned self] _ throws(GuestFault) in .f64(time) }
        case "screen":
            return { [unowned self] arguments throws(GuestFault) in
                let screen = try screen("screen")
                try record(at: arguments.u32(0), size: 64, "screen") { record in
                    record.f64(0, screen.size.width)
                    record.f64(8, screen.size.height)
                    record.f64(16, screen.safeArea.top)
                    record.f64(24, screen.safeArea.left)
                    record.f64(32, screen.safeArea.bottom)
                    record.f64(40, screen.safeArea.right)
                    record.f64(48, screen.rootOriginY)
                    record.f64(56, screen.restingRootOriginY)
                }
                return .none
            }
        case "keyboard":
            return { [unowned self] arguments throws(GuestFault) in
                let frame = try screen("keyboard").keyboard.frame
                try record(at: arguments.u32(0), size: 32, "keyboard") { record in
                    if let frame { record.rect(0, frame) }
                }
                return .i32(frame == nil ? 0 : 1)
            }
        case "first_responder":
            return { [unowned self] _ throws(GuestFault) in
                .i32(handle(of: try screen("first_responder").firstResponder))
            }
        case "event_view_id":
            return { [unowned self] arguments throws(GuestFault) in
                guard phase == .delivery, let eventView else { return .i32(-1) }
                return .i32(try copy(eventView.rawValue, to: arguments.u32(0), capacity: arguments.i32(1), "event_view_id"))
            }
        case "screen_action":
            return { [unowned self] arguments throws(GuestFault) in
                guard let action = try screen("screen_action").lastFieldAction else { return .i32(-1) }
                return .i32(try copy(action, to: arguments.u32(0), capacity: arguments.i32(1), "screen_action"))
            }
        default:
            return nil
        }
    }

    /// The host functions of the views: counting, finding and reading them by handle; `nil` for another name.
    private func viewsFunction(_ name: String) -> ((borrowing HostArguments) throws(GuestFault) -> HostResult)? {
        switch name {
        case "view_count":
            return { [unowned self] _ throws(GuestFault) in
                refreshViews(try screen("view_count"))
                return .i32(Int32(views.count))
            }
        case "view_find":
            return { [unowned self] arguments throws(GuestFault) in
                let id = try text(arguments.u32(0), arguments.i32(1), "view_find")
                return .i32(handle(of: try screen("view_find").view(ViewID(id))))
            }
        case "view_id":
            return { [unowned self] arguments throws(GuestFault) in
                let view = try view(arguments.i32(0), "view_id")
                return .i32(try copy(view.id.rawValue, to: arguments.u32(1), capacity: arguments.i32(2), "view_id"))
            }
        case "view_info":
            return { [unowned self] arguments throws(GuestFault) in
                let view = try view(arguments.i32(0), "view_info")
                let screen = try screen("view_info")
                var flags: Int32 = 0
                if view.isHidden { flags |= WasmPluginABI.ViewFlag.hidden }
                if view.isEnabled { flags |= WasmPluginABI.ViewFlag.enabled }
                if view.isSecure { flags |= WasmPluginABI.ViewFlag.secure }
                if view.avoidsKeyboard { flags |= WasmPluginABI.ViewFlag.avoidsKeyboard }
                if view.followsKeyboard { flags |= WasmPluginABI.ViewFlag.followsKeyboard }
                if view.isFirstResponder { flags |= WasmPluginABI.ViewFlag.firstResponder }
                if view.tag != nil { flags |= WasmPluginABI.ViewFlag.hasTag }
                if view.keyboardDistance != nil { flags |= WasmPluginABI.ViewFlag.hasKeyboardDistance }
                let kind = Int32(WasmPluginABI.viewKinds.firstIndex(of: view.kind) ?? 0)
                let parent = handle(of: view.parent)
                let frame = screen.frameInScreen(of: view)
                let unmoved = screen.frameInScreen(of: view, unmoved: true)
                try record(at: arguments.u32(1), size: 96, "view_info") { record in
                    record.i32(0, kind)
                    record.i32(4, flags)
                    if let tag = view.tag {
                        // 64 bits: the low half at 8 (a tag that fits in 32 bits reads whole there),
                        // the high half at 92.
                        let bits = UInt64(bitPattern: Int64(tag))
                        record.i32(8, Int32(truncatingIfNeeded: bits))
                        record.i32(92, Int32(truncatingIfNeeded: bits >> 32))
                    }
                    record.i32(12, parent)
                    if let distance = view.keyboardDistance { record.f64(16, distance) }
                    record.rect(24, frame)
                    record.rect(56, unmoved)
                    record.i32(88, Int32(view.children.count))
                }
                return .i32(0)
            }
        default:
            return nil
        }
    }

    /// The host functions of posting decisions; `nil` for another name.
    private func postingFunction(_ name: String) -> ((borrowing HostArguments) throws(GuestFault) -> HostResult)? {
        switch name {
        case "post_view_shift":
            return { [unowned self] arguments throws(GuestFault) in
                let origin = try arguments.f64(0)
                let duration = try arguments.f64(1)
                guard origin.isFinite, duration.isFinite, duration >= 0 else {
                    throw .refused("posted a view shift to \(origin) over \(duration) s; both must be finite numbers, the duration not negative")
                }
                try post(.viewShift(ViewShift(originY: origin, duration: duration, curve: Int(try arguments.i32(2)))), "post_view_shift")
                return .none
            }
        case "post_focus_change":
            return { [unowned self] arguments throws(GuestFault) in
                let from = try arguments.i32(0)
                let to = try arguments.i32(1)
                let change = FocusChange(
                    from: from < 0 ? nil : try view(from, "post_focus_change").id, to: to < 0 ? nil : try view(to, "post_focus_change").id)
                try post(.focusChange(change), "post_focus_change")
                return .none
            }
        case "post_scroll":
            return { [unowned self] arguments throws(GuestFault) in
                let view = try view(arguments.i32(0), "post_scroll")
                let offset = try arguments.f64(1)
                let inset = try arguments.f64(2)
                guard offset.isFinite, inset.isFinite else { throw .refused("posted a scroll of '\(view.id)' to a number that is not finite") }
                try post(.scroll(ScrollChange(view: view.id, contentOffsetY: offset, bottomInset: inset)), "post_scroll")
                return .none
            }
        case "post_resign":
            return { [unowned self] arguments throws(GuestFault) in
                try post(.resign(ResignInfo(view: try view(arguments.i32(0), "post_resign").id)), "post_resign")
                return .none
            }
        case "post_action":
            return { [unowned self] arguments throws(GuestFault) in
                let name = try text(arguments.u32(0), arguments.i32(1), "post_action")
                try post(.action(ActionInfo(name: name)), "post_action")
                return .none
            }
        case "post_view_settings":
            return { [unowned self] arguments throws(GuestFault) in
                let view = try view(arguments.i32(0), "post_view_settings")
                let distance = try arguments.f64(1)
                guard distance.isNaN || (distance.isFinite && distance >= 0) else {
                    throw .refused("posted a keyboard distance of \(distance) for '\(view.id)'; give a finite number from 0, or NaN for the default")
                }
                let flags = try arguments.i32(2)
                guard flags & ~WasmPluginABI.SettingsFlag.all == 0 else {
                    throw .refused(
                        "posted view settings for '\(view.id)' with flags \(flags); give 1 (avoids the keyboard), 2 (follows it), both or neither"
                    )
                }
                let settings = ViewSettings(
                    view: view.id, keyboardDistance: distance.isNaN ? nil : distance,
                    avoidsKeyboard: flags & WasmPluginABI.SettingsFlag.avoidsKeyboard != 0,
                    followsKeyboard: flags & WasmPluginABI.SettingsFlag.followsKeyboard != 0)
                try post(.viewSettings(settings), "post_view_settings")
                return .none
            }
        case "post_view_move":
            return { [unowned self] arguments throws(GuestFault) in
                let view = try view(arguments.i32(0), "post_view_move")
                let frame = Rect(x: try arguments.f64(1), y: try arguments.f64(2), width: try arguments.f64(3), height: try arguments.f64(4))
                let duration = try arguments.f64(5)
                guard frame.components.allSatisfy(\.isFinite), frame.size.width >= 0, frame.size.height >= 0, duration.isFinite, duration >= 0
                else {
                    throw .refused(
                        "posted a move of '\(view.id)' to \(frame) over \(duration) s; give finite numbers, a size and a duration not negative"
                    )
                }
                try post(.viewMove(ViewMove(view: view.id, frame: frame, duration: duration, curve: Int(try arguments.i32(6)))), "post_view_move")
                return .none
            }
        default:
            return nil
        }
    }
}
