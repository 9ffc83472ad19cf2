/// An event a plugin posts over and over, coalesced on its name, such as the text-view ordering
/// plugin's `turnSettled` after every event of a turn.
///
/// A plain coalesced post makes a closure holding the payload each time and frees the one it
/// replaces: a heap allocation and a deallocation for every event of a turn. This one makes its
/// delivery once and replaces the payload in place, so re-posting it costs a queue entry.
///
/// Delivered exactly as ``PluginContext/post(_:_:style:coalescing:)`` would deliver it: coalescing
/// on the name removes every queued event of that name before the new one joins the back, so at
/// most one post of this object waits at a time, and it carries the payload of the latest post.
///
/// ```swift
/// // Once, as a `let` of the plugin (passed without a retain), in its initializer:
/// settled = RepeatedPost(.turnSettled, initial: payload, derivedBy: name)
/// // After every event of the turn:
/// context.post(payload, through: settled, style: .asap, coalescing: .onName)
/// ```
///
/// Use one per plugin and bus, from the plugin's own context; loop-confined like the bus. A bus
/// keeps the repeated posts queued on it (its table of their deliveries) until it is deallocated.
public final class RepeatedPost<Payload: Sendable> {
    /// Where the payload of the waiting post lives, replaced in place on the loop and read when it is
    /// delivered: the audited layer's loop-confined box.
    @usableFromInline let name: EventName<Payload>
    @usableFromInline let origin: EventOrigin
    @usableFromInline let slot: LoopConfined<Payload>
    @usableFromInline let deliver: (Bus) -> Void
    /// The sequence number of this object's entry in the bus's as-soon-as-possible queue, while
    /// one waits there (0 otherwise): a re-post finds it without scanning the queue.
    @usableFromInline let queued: LoopConfined<UInt64>
    /// Where the bus's table of repeated deliveries had this one last time (-1 before the first
    /// post): a queued post names it by index rather than holding its closure.
    @usableFromInline let deliveryIndex = LoopConfined(-1)

    /// Creates the repeated post of `name`, derived by the plugin whose `context` this is.
    ///
    /// - Parameters:
    ///   - name: the event's name.
    ///   - initial: a payload to start with (never delivered unless posted).
    ///   - context: the plugin's context: the posts are derived by that plugin.
    @inlinable
    public convenience init(_ name: EventName<Payload>, initial: Payload, context: PluginContext) {
        self.init(name, initial: initial, derivedBy: context.pluginName)
    }

    /// Creates the repeated post of `name`, derived by the plugin named `pluginName`: made before
    /// the plugin has a context, it can be a `let` of the plugin, which passes it to
    /// ``PluginContext/post(_:through:style:coalescing:)`` without a retain (a stored `var` is
    /// retained for the call, an atomic operation each time).
    ///
    /// - Parameters:
    ///   - name: the event's name.
    ///   - initial: a payload to start with (never delivered unless posted).
    ///   - pluginName: the name the plugin registers under (its context's
    ///     ``PluginContext/pluginName``): the posts are derived by it.
    @inlinable
    public init(_ name: EventName<Payload>, initial: Payload, derivedBy pluginName: String) {
        let slot = LoopConfined(initial)
        let origin = EventOrigin.derived(by: pluginName)
        self.name = name
        self.origin = origin
        self.slot = slot
        let queued = LoopConfined<UInt64>(0)
        self.queued = queued
        deliver = { bus in
            queued.value = 0
            bus.post(name, slot.value, sender: nil, origin: origin)
        }
    }
}

extension PluginContext {
    /// Posts `payload` through `repeated` (which this plugin made), like
    /// ``post(_:_:style:coalescing:)`` with `coalescing`, which must include
    /// ``Coalescing/onName``; nothing once the plugin has been removed.
    ///
    /// - Parameters:
    ///   - payload: the payload; the latest one posted is the one delivered.
    ///   - repeated: the repeated post, made once by this plugin.
    ///   - style: when to deliver it.
    ///   - coalescing: how to coalesce it; must include ``Coalescing/onName``.
    @inlinable
    public func post<Payload>(
        _ payload: Payload, through repeated: RepeatedPost<Payload>, style: PostingStyle, coalescing: Coalescing
    ) {
        precondition(coalescing.contains(.onName), "a repeated post is coalesced on its name")
        guard registration.isActive else { return }
        withBus { bus in
            bus.loop.assertInLoop()
            // Posted again while its entry is the only event queued (a turn's second event, say):
            // removing the entry and queueing it again at the back would leave the queue as it is,
            // so only the payload changes.
            if style == .asap && repeated.queued.value != 0 && bus.isOnlyQueuedEvent(sequence: repeated.queued.value) {
                repeated.slot.value = payload
                return
            }
            if bus.hasQueuedEvents { bus.removeQueued(nameID: repeated.name.id, senderID: nil, coalescing) }
            switch style {
            case .now:
                bus.post(repeated.name, payload, sender: nil, origin: repeated.origin)
            case .asap, .whenIdle:
                // Nothing of this name is queued any more: the slot is free for the new payload.
                repeated.slot.value = payload
                let sequence = bus.makeSequence()
                repeated.queued.value = style == .asap ? sequence : 0
                let index = bus.state.repeatedDeliveryIndex(of: repeated, hint: repeated.deliveryIndex.value, deliver: repeated.deliver)
                repeated.deliveryIndex.value = index
                bus.enqueue(
                    QueuedPost(nameID: repeated.name.id, sequence: sequence, repeatedIndex: index), whenIdle: style == .whenIdle)
            }
        }
    }
}
