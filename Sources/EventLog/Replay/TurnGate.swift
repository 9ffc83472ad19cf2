import ResponderBus

/// The watermark of a live replay: the items of the turn read last are held until the turn is
/// known to be whole, so that a live source splits no turn the fast replay keeps whole.
///
/// A turn is the external records that share one `t` (at most ``maxTurnSize`` of them). Items come
/// in line order, as a reader or a program hands them over. An external record with another `t`
/// than the held turn's closes it: the held items are let through (released), and the record
/// starts the next held turn. The rejected lines and recorded derived records after a turn's last
/// external record stay with it, as the fast replay hands them over inside that turn. At the end
/// of the input everything held is let through; a caller that allows lateness may let a held turn
/// through early (``releaseHeld()``).
///
/// The released items are taken as one batch (``takeReleased()``) by the replay's ``TurnCursor``,
/// through a ``ReadAhead`` made with ``ReadAhead/init(gate:reader:)``. Loop-confined.
final class TurnGate {
    /// How many external records of one `t` make a turn at most (the replayer's `maxTurnSize`).
    let maxTurnSize: Int
    /// The items in line order: the first ``releasedCount`` are let through, the rest held.
    private var items: [LogReader.Item] = []
    private var releasedCount = 0
    /// The held turn's `t`, once it has an external record.
    private(set) var heldTime: Double?
    /// The held turn's external records.
    private var heldExternal = 0
    /// Whether the input ended: nothing is held any more, and nothing more comes.
    private(set) var ended = false
    /// The input's bytes read so far, for progress.
    var bytesConsumed = 0

    init(maxTurnSize: Int) {
        self.maxTurnSize = max(1, maxTurnSize)
    }

    /// Whether items were let through and not taken yet.
    var hasReleased: Bool { releasedCount > 0 }
    /// Whether items are held (a turn that is not known to be whole yet).
    var holdsItems: Bool { items.count > releasedCount }

    /// Adds the next item of the input.
    func add(_ item: consuming LogReader.Item) {
        if case .record(let record, _) = item, record.origin == .external {
            if let heldTime, record.t != heldTime || heldExternal >= maxTurnSize { releaseHeld() }
            if heldTime == nil { heldTime = record.t }
            heldExternal += 1
            items.append(item)
        } else {
            items.append(item)
            // Before any external record is held, nothing waits for a turn: let it through.
            if heldTime == nil { releaseHeld() }
        }
    }

    /// Lets everything held through: the held turn is taken to be whole.
    func releaseHeld() {
        releasedCount = items.count
        heldTime = nil
        heldExternal = 0
    }

    /// The input ended: everything held is let through.
    func end() {
        releaseHeld()
        ended = true
    }

    /// The items let through, as one batch; `nil` when there are none.
    func takeReleased() -> ReadAhead.Batch? {
        guard releasedCount > 0 else { return nil }
        let released: [LogReader.Item]
        if releasedCount == items.count {
            released = items
            items = []
        } else {
            released = Array(items[..<releasedCount])
            items.removeFirst(releasedCount)
        }
        releasedCount = 0
        return ReadAhead.Batch.make(released, bytesConsumed: bytesConsumed)
    }
}
