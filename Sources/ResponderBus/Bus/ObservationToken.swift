/// The handle on one observation. The observation ends when ``cancel()`` is called or when the
/// last copy of the token goes away, whichever comes first.
///
/// ```swift
/// let token = bus.observe(.keyboardWillShow) { event in print(event.payload) }
/// // … the observer runs while `token` (or a copy) is alive …
/// token.cancel()   // or just let it go
/// ```
///
/// Tokens are `Sendable` and `Hashable` (by identity), so they can be kept in a `Set`. Cancelling
/// is idempotent, and thread-safe: on the loop it takes effect at once, even in the middle of a
/// post; from another thread delivery stops at once and the bookkeeping follows on the loop.
public struct ObservationToken: Hashable, Sendable {
    let box: TokenBox

    init(bus: Bus, record: ObserverRecord) {
        box = TokenBox(bus: bus, record: record)
    }

    /// Ends the observation. Idempotent.
    public func cancel() { box.cancel() }

    /// Whether the observation is still in place.
    public var isActive: Bool { !box.record.isRemoved }

    /// Compares tokens by identity.
    public static func == (a: ObservationToken, b: ObservationToken) -> Bool { a.box === b.box }

    /// Hashes the token's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(box)) }
}

/// Shared by all copies of one token; removes the observation in `deinit`.
final class TokenBox: @unchecked Sendable {
    // Written once in init; read from any thread. The bus is held weakly: a token may outlive it.
    private weak var bus: Bus?
    // Only its thread-safe `markRemoved()`/`isRemoved` are used off the loop.
    let record: ObserverRecord

    init(bus: Bus, record: ObserverRecord) {
        self.bus = bus
        self.record = record
    }

    func cancel() {
        Self.remove(record, from: bus)
    }

    deinit {
        Self.remove(record, from: bus)
    }

    private static func remove(_ record: ObserverRecord, from bus: Bus?) {
        guard record.markRemoved(), let bus else { return }
        if bus.loop.inLoop {
            bus.detach(record)
        } else {
            let unchecked = UncheckedBox(record)
            bus.loop.execute { [bus] in bus.detach(unchecked.value) }
        }
    }
}

/// Carries a loop-confined value through a `@Sendable` closure that runs on the loop.
///
/// The one audited escape hatch, in the spirit of SwiftNIO's `NIOLoopBound`: use it only for a
/// value that is touched on the loop alone.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
