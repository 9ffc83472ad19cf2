import DequeModule

/// The bus's asap or when-idle queue: FIFO, with its oldest post in a slot of its own.
///
/// Most turns queue one post (a settle) and drain it: through the slot, the post is moved in and
/// out, where a `Deque` copies it in (a retain of its closure's context, and a release of the
/// caller's copy) and out again. Atomic reference counting costs about 11 ns an operation on the
/// benchmark machine, more than the rest of what queueing does.
@usableFromInline
struct PostQueue {
    /// The oldest post; `nil` only when the queue is empty.
    @usableFromInline var head: QueuedPost?
    /// The posts after ``head``, oldest first.
    @usableFromInline var rest = Deque<QueuedPost>()

    @usableFromInline init() {}

    /// Whether no post waits.
    @inlinable var isEmpty: Bool { head == nil }

    /// How many posts wait.
    var count: Int { head == nil ? 0 : 1 + rest.count }

    /// Whether the only post waiting has `sequence`.
    func holdsOnly(sequence: UInt64) -> Bool {
        rest.isEmpty && head?.sequence == sequence
    }

    /// The oldest post's sequence number, if any post waits.
    var firstSequence: UInt64? { head?.sequence }

    /// Adds a post at the back.
    mutating func append(_ post: consuming QueuedPost) {
        if head == nil {
            head = consume post
        } else {
            rest.append(post)
        }
    }

    /// Takes the oldest post out.
    mutating func popFirst() -> QueuedPost? {
        guard let first = head.take() else { return nil }
        head = rest.popFirst()
        return first
    }

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
