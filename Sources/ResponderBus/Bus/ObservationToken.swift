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

    /// Ends the observation and releases its closure, with whatever the closure captured.
    /// Idempotent.
    public func cancel() { box.cancel() }

    /// Whether the observation is still in place: `false` once it was cancelled, once the sender it
    /// was filtered on died, and once its bus was deallocated.
    public var isActive: Bool { box.isActive }

    /// Compares tokens by identity.
    public static func == (a: ObservationToken, b: ObservationToken) -> Bool { a.box === b.box }

    /// Hashes the token's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(box)) }
}

/// Shared by all copies of one token; removes the observation in `deinit`.
final class TokenBox: Sendable {
    // A token may outlive its bus: the anchor says whether the bus is still there.
    private let anchor: BusAnchor
    // The record until the observation is removed through this token; only its thread-safe
    // `markRemoved()`/`isRemoved` are used off the loop. Let go on removal, so that a cancelled
    // observation no longer holds its closure (and whatever that captured) — but only after the
    // bookkeeping, so that taking it off the bus's lists never releases the closure (and perhaps
    // the bus) in the middle of it.
    private let record: Locked<UncheckedBox<ObserverRecord>?>

    init(bus: Bus, record: ObserverRecord) {
        self.anchor = bus.anchor
        self.record = Locked(UncheckedBox(record))
    }

    var isActive: Bool {
        guard let record = record.withLock({ $0?.value }) else { return false }
        return !record.isRemoved && anchor.busIsAlive
    }

    func cancel() {
        guard
            let taken = record.withLock({ box -> ObserverRecord? in
                defer { box = nil }
                return box?.value
            })
        else { return }
        Self.remove(taken, through: anchor)
        // `taken` is released here, after the bookkeeping and outside every lock.
    }

    deinit {
        if let taken = record.withLock({ $0?.value }) { Self.remove(taken, through: anchor) }
    }

    private static func remove(_ record: ObserverRecord, through anchor: BusAnchor) {
        guard record.markRemoved() else { return }
        anchor.withLiveBus { bus in
            if bus.loop.inLoop {
                bus.detach(record)
            } else {
                let unchecked = UncheckedBox(record)
                bus.loop.execute { anchor.withLiveBus { $0.detach(unchecked.value) } }
            }
        }
    }
}

/// What a bus's tokens hold instead of the bus: whether it is still alive, and a reference to it
/// that counts nothing.
///
/// A `weak` reference would do the same, but it gives the bus a side table, and every retain and
/// release of a bus then takes the runtime's slow path: the loop retains its bus for each turn's
/// end-of-turn drain, which the benchmark case "replay 1000000 events, 3 plugins → /dev/null"
/// (group 3) shows. Instead, the bus marks its anchor dead first
/// thing in `deinit`, under the anchor's lock, and a token uses the bus only under that lock and
/// without retaining it: either the bus has not started going (its `deinit` waits for the lock
/// meanwhile, so its memory stays valid) or the token sees it dead and leaves it alone.
final class BusAnchor: @unchecked Sendable {
    private let state: Locked<Unretained<Bus>?>

    init(_ bus: Bus) {
        state = Locked(Unretained(bus))
    }

    /// Runs `body` with the bus, under the lock, unless the bus is gone. `body` must not keep it.
    func withLiveBus(_ body: (Bus) -> Void) {
        state.withLock { bus in
            bus?.with(body)
        }
    }

    /// Whether the bus is still alive.
    var busIsAlive: Bool { state.withLock { $0 != nil } }

    /// The bus is going: tokens leave it alone from now on. Called first thing in `Bus.deinit`.
    func busIsGoing() {
        state.withLock { $0 = nil }
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
