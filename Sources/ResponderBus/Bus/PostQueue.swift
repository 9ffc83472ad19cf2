import DequeModule

/// A FIFO queue that keeps its oldest element in a slot of its own: the bus's queues of posts
/// waiting behind the one being delivered (``PendingDelivery``) and of asap and when-idle posts
/// (``PostQueue``).
///
/// Most of them hold one element at a time (a plugin's derived event behind the event it decided
/// on; a turn's settle) and drain it at once: through the slot, the element is moved in and out,
/// where a `Deque` copies it in (a retain of its closure's context, and a release of the caller's
/// copy), which costs more than the rest of what queueing does.
@usableFromInline
struct SlotQueue<Element> {
    /// The oldest element; `nil` only when the queue is empty.
    @usableFromInline var head: Element?
    /// The elements after ``head``, oldest first.
    @usableFromInline var rest = Deque<Element>()

    @usableFromInline init() {}

    /// Whether the queue is empty.
    @inlinable var isEmpty: Bool { head == nil }

    /// How many elements wait.
    var count: Int { head == nil ? 0 : 1 + rest.count }

    /// Adds an element at the back.
    @inlinable
    mutating func append(_ element: consuming Element) {
        if head == nil {
            head = consume element
        } else {
            rest.append(element)
        }
    }

    /// Takes the oldest element out.
    @usableFromInline
    mutating func popFirst() -> Element? {
        guard let first = head.take() else { return nil }
        head = rest.popFirst()
        return first
    }

    /// Empties the queue.
    mutating func removeAll() {
        head = nil
        rest.removeAll()
    }
}

/// The bus's asap or when-idle queue.
@usableFromInline
typealias PostQueue = SlotQueue<QueuedPost>

extension SlotQueue where Element == QueuedPost {

    /// The oldest post's sequence number, if any post waits.
    var firstSequence: UInt64? { head?.sequence }

    /// Removes the posts that match; returns how many. Coalescing usually finds one match (the
    /// event it replaces, often the last one queued), which is removed in place; `removeAll(where:)`
    /// would rebuild the whole queue even when nothing matches.
    mutating func removeMatching(nameID: Int, senderID: ObjectIdentifier?, _ mask: Coalescing) -> Int {
        guard head != nil else { return 0 }
        var removed = Self.removeMatching(nameID: nameID, senderID: senderID, mask, from: &rest)
        if head?.matches(nameID: nameID, senderID: senderID, mask) == true {
            head = rest.popFirst()
            removed += 1
        }
        return removed
    }

    private static func removeMatching(
        nameID: Int, senderID: ObjectIdentifier?, _ mask: Coalescing, from queue: inout Deque<QueuedPost>
    ) -> Int {
        // One pass, counting: a turn's settle replaces the one queued a moment ago, at the back.
        var matches = 0
        var match = 0
        for index in queue.indices where queue[index].matches(nameID: nameID, senderID: senderID, mask) {
            matches += 1
            match = index
        }
        switch matches {
        case 0:
            return 0
        case 1:
            if match == queue.count - 1 {
                queue.removeLast()
            } else if match == 0 {
                queue.removeFirst()
            } else {
                queue.remove(at: match)
            }
            return 1
        default:
            break
        }
        let before = queue.count
        queue.removeAll { $0.matches(nameID: nameID, senderID: senderID, mask) }
        return before - queue.count
    }
}
