import ResponderBusPlatform
import Synchronization

// The inbox behind `Bus.postFromAnyThread`: typed, allocation-free in steady state.
//
// ## Layout
//
// One *channel* per payload type holds the posted events as plain values in raw buffers: a small
// `CrossThreadHeader` (name id, sender, origin) and the payload, at the same index of two buffers.
// No closure and no box per event. Each channel has two sets of buffers: producers append to the
// `pending` set under the inbox's lock; the loop delivers from the `draining` set. A drain swaps the
// two under the lock, so both keep their capacity and neither side calls malloc once they are big
// enough.
//
// ## Order
//
// All channels share the inbox's one lock. Next to the channels, the inbox records *runs*: each
// post either extends the current run (same channel as the previous post) or starts a new one. The
// drain replays the runs in order, so events are delivered in exactly the order the lock admitted
// them — across payload types too — and so each thread's posts in the order it made them. A burst
// of one payload type is a single run: one call of the channel's delivery loop for the whole
// batch, and no per-event sequence number to store or merge on.
//
// ## Delivery
//
// A channel's delivery loop is a closure made by `@inlinable` code when the channel is created, so
// it is compiled — specialised for the payload type — in the module that posts (as `Bus.post` is),
// and moves each event out of the buffers into `bus.post` without value witnesses.
//
// ## Wake-up
//
// The first post of a batch wakes the loop; later posts of the batch only append. On a loop that
// offers wake-ups (`BusLoopWakingTargets`: `UVEventLoop`), the inbox registers itself once, from
// its first drain, and then wakes the loop by storing a ticket and sending its own `uv_async_t`:
// nothing is queued, and the ticket keeps the batch in its place among the work the loop was given
// with `execute`. On other loops, and until then, the inbox submits its one preallocated drain
// closure (`BusLoop.submit(_:)`). Either is done under the lock, which orders it with the drain and
// with shutdown. While a drain is pending, `pendingBus` keeps the bus alive, as the per-batch
// closure of the first implementation did. If the loop refuses (it is shutting down), the inbox
// closes: that post and every later one are dropped.

/// Events posted from other threads, waiting for the loop. See the comment at the top of this file.
///
/// Its state is two values, each in one stored property that opts out of the run-time exclusivity
/// checks (see ``CrossThreadInboxGuarded`` and ``CrossThreadInboxLoopSide`` for the invariants):
/// `guarded`, touched only between ``lock()`` and ``unlock()``, and `loopSide`, touched only by
/// ``drain()`` on the loop.
@usableFromInline
final class CrossThreadInbox: BusLoopWakeUpTarget, @unchecked Sendable {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// What producers and the loop share, touched only between ``lock()`` and ``unlock()``.
    @exclusivity(unchecked) @usableFromInline var guarded = CrossThreadInboxGuarded()
    /// The ticket of the signal sent with the wake-up for the pending batch, or 0. Written under
    /// the lock, read by the loop without it.
    let wakeUpTicket = Atomic<UInt64>(0)
    /// What only ``drain()`` touches, on the loop.
    @exclusivity(unchecked) private var loopSide = CrossThreadInboxLoopSide()

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let rc = pthread_mutex_init(mutex, nil)
        precondition(rc == 0, "pthread_mutex_init failed: \(rc)")
        // Unowned: a submitted drain always finds the inbox alive, as `pendingBus` holds its bus.
        guarded.drainWork = { [unowned self] in self.drain() }
    }

    deinit {
        guarded.wakeUp?.cancel()
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    @inlinable
    func lock() {
        pthread_mutex_lock(mutex)
    }

    @inlinable
    func unlock() {
        pthread_mutex_unlock(mutex)
    }

    // MARK: Producers (any thread)

    /// Queues an event for `bus`'s loop and wakes the loop if this starts a batch. Thread-safe.
    @inlinable
    func post<Payload>(
        _ name: EventName<Payload>, _ payload: Payload, sender: (any AnyObject & Sendable)?, origin: EventOrigin,
        on bus: Bus
    ) {
        lock()
        defer { unlock() }
        // After a refused drain nothing would ever be delivered: drop the event.
        guard !guarded.isClosed else { return }
        let id = name.id
        var index = id < guarded.channelOfName.count ? guarded.channelOfName[id] : -1
        if index < 0 {
            index = channel(for: name)
        }
        // Unretained: `channels` owns every channel for the inbox's lifetime. Read out first, so
        // that no access to `guarded` spans the closure, which changes it.
        let channelRef = guarded.channelRefs[index]
        channelRef.with { base in
            let channel = assumingType(base, TypedCrossThreadChannel<Payload>.self)
            if channel.pending.count == 0 {
                if guarded.firstPendingChannel < 0 {
                    guarded.firstPendingChannel = index
                } else {
                    guarded.pendingChannels.append(index)
                }
            }
            channel.append(nameID: id, payload, sender: sender, origin: origin)
        }
        if index == guarded.runChannel {
            guarded.runCount &+= 1
        } else {
            startRun(on: index)
        }
        if !guarded.wakeScheduled {
            scheduleDrain(for: bus)
        }
    }

    /// Ends the current run and starts one on `channel`. Under the lock.
    @usableFromInline
    func startRun(on channel: Int) {
        if guarded.runCount > 0 {
            guarded.pendingRuns.append(CrossThreadRun(channel: guarded.runChannel, count: guarded.runCount))
        }
        guarded.runChannel = channel
        guarded.runCount = 1
    }

    /// The index of the channel for `name`'s payload type, made on first use. Under the lock.
    ///
    /// `@inlinable` so that the channel's delivery loop is specialised in the posting module.
    @inlinable
    @inline(never)
    func channel<Payload>(for name: EventName<Payload>) -> Int {
        if let index = existingChannel(for: ObjectIdentifier(Payload.self), nameID: name.id) {
            return index
        }
        let channel = TypedCrossThreadChannel<Payload>(deliver: { channel, bus, count in
            assumingType(channel, TypedCrossThreadChannel<Payload>.self).deliverNext(count, to: bus)
        })
        return add(channel, nameID: name.id)
    }

    /// The index of the channel already made for `payloadType`, recorded for `nameID`; `nil` when
    /// there is none. Under the lock.
    @usableFromInline
    func existingChannel(for payloadType: ObjectIdentifier, nameID: Int) -> Int? {
        guard let index = guarded.channels.firstIndex(where: { $0.payloadType == payloadType }) else { return nil }
        record(index, for: nameID)
        return index
    }

    /// Adds `channel` and records it for `nameID`. Under the lock.
    @usableFromInline
    func add(_ channel: CrossThreadChannel, nameID: Int) -> Int {
        guarded.channels.append(channel)
        guarded.channelRefs.append(Unretained(channel))
        record(guarded.channels.count - 1, for: nameID)
        return guarded.channels.count - 1
    }

    private func record(_ index: Int, for nameID: Int) {
        if nameID >= guarded.channelOfName.count {
            guarded.channelOfName.append(contentsOf: repeatElement(-1, count: nameID - guarded.channelOfName.count + 1))
        }
        guarded.channelOfName[nameID] = index
    }

    /// Wakes the loop for the batch the caller just started. Under the lock.
    ///
    /// Under the lock, so that it is ordered with the drain and with shutdown: if the loop refuses,
    /// its stop was requested before this post (and before any later one) was queued.
    @usableFromInline
    func scheduleDrain(for bus: Bus) {
        guarded.wakeScheduled = true
        guarded.pendingBus = bus
        if let wakeUp = guarded.wakeUp {
            wakeUpTicket.store(wakeUp.takeTicket(), ordering: .releasing)
            wakeUp.signal()
            return
        }
        guard bus.loop.submit(guarded.drainWork) else {
            // The loop is shutting down. What is pending stays until the bus goes (releasing it
            // here, under the lock, could run a deinit that posts again); no later post is queued.
            guarded.isClosed = true
            guarded.wakeScheduled = false
            guarded.pendingBus = nil
            return
        }
    }

    // MARK: Wake-ups (BusLoopWakeUpTarget)

    var pendingWakeUpTicket: UInt64 {
        wakeUpTicket.load(ordering: .acquiring)
    }

    func loopDidWake() {
        drain()
    }

    func loopEndedWakeUps() {
        lock()
        guarded.wakeUp = nil
        var stranded: Bus?
        if guarded.wakeScheduled && wakeUpTicket.load(ordering: .relaxed) != 0 {
            // Signalled after the loop's last look: posted while it shut down, never delivered.
            // Close like a refused drain, and let go of the bus (outside the lock).
            guarded.isClosed = true
            guarded.wakeScheduled = false
            wakeUpTicket.store(0, ordering: .relaxed)
            stranded = guarded.pendingBus
            guarded.pendingBus = nil
        }
        unlock()
        _ = stranded
    }

    // MARK: The loop

    /// Delivers every pending event, in order. Runs on the loop (the submitted drain work).
    func drain() {
        guard !loopSide.isDraining else {
            // A post delivered by this drain ran the loop, which ran the drain again: the outer
            // drain takes the new batch once its own is delivered, keeping the order.
            loopSide.redrainRequested = true
            return
        }
        loopSide.isDraining = true
        defer { loopSide.isDraining = false }
        repeat {
            loopSide.redrainRequested = false
            lock()
            guard let bus = guarded.pendingBus else {
                unlock()
                return
            }
            guarded.pendingBus = nil
            guarded.wakeScheduled = false
            wakeUpTicket.store(0, ordering: .relaxed)
            // The common batch is one run on one channel: then no list is touched.
            let lastRun = CrossThreadRun(channel: guarded.runChannel, count: guarded.runCount)
            guarded.runChannel = -1
            guarded.runCount = 0
            let firstChannel = guarded.firstPendingChannel
            guarded.firstPendingChannel = -1
            if !guarded.pendingRuns.isEmpty { swap(&guarded.pendingRuns, &loopSide.drainRuns) }
            if !guarded.pendingChannels.isEmpty { swap(&guarded.pendingChannels, &loopSide.drainChannelIndices) }
            let channels = guarded.channels
            if firstChannel >= 0 { channels[firstChannel].swapBuffers() }
            for index in loopSide.drainChannelIndices {
                channels[index].swapBuffers()
            }
            unlock()

            for run in loopSide.drainRuns {
                let channel = channels[run.channel]
                channel.deliver(channel, bus, run.count)
            }
            if lastRun.count > 0 {
                let channel = channels[lastRun.channel]
                channel.deliver(channel, bus, lastRun.count)
            }
            if firstChannel >= 0 { channels[firstChannel].finishBatch() }
            for index in loopSide.drainChannelIndices {
                channels[index].finishBatch()
            }
            if !loopSide.drainRuns.isEmpty { Self.reset(&loopSide.drainRuns) }
            if !loopSide.drainChannelIndices.isEmpty { Self.reset(&loopSide.drainChannelIndices) }
            if !loopSide.askedForWakeUp {
                loopSide.askedForWakeUp = true
                registerWakeUp(on: bus.loop)
            }
        } while loopSide.redrainRequested
    }

    /// Registers for wake-ups if `loop` offers them, so that later batches need not queue the drain.
    /// On the loop.
    private func registerWakeUp(on loop: any BusLoop) {
        guard let loop = loop as? any BusLoopWakingTargets, let wakeUp = loop.makeWakeUp(for: self) else { return }
        lock()
        guarded.wakeUp = wakeUp
        unlock()
    }

    /// The capacity, in events, of each channel's two sets of buffers, in order of creation. Takes
    /// the lock; loop-confined (the draining buffers belong to the loop). For tests.
    var bufferCapacities: [(pending: Int, draining: Int)] {
        lock()
        defer { unlock() }
        return guarded.channels.map { ($0.pending.capacity, $0.draining.capacity) }
    }

    /// Empties a loop-side list, keeping its capacity unless a burst made it large.
    private static func reset<Element>(_ list: inout ContiguousArray<Element>) {
        if list.capacity > 4096 && list.count < list.capacity / 8 {
            list = []
        } else {
            list.removeAll(keepingCapacity: true)
        }
    }
}

/// What producers and the loop share in a ``CrossThreadInbox``.
///
/// ## Invariant
///
/// Touched only while the inbox's lock is held (its one stored property, `guarded`, skips the
/// run-time exclusivity checks: the lock already orders every access, and a post makes several;
/// benchmark cases "postFromAnyThread, 1 producer" and "round trip p50", group 2). No `inout`
/// access to it spans a call that could take the lock again.
@usableFromInline
struct CrossThreadInboxGuarded {
    /// Every channel, in order of creation; only ever appended to.
    @usableFromInline var channels: ContiguousArray<CrossThreadChannel> = []
    /// The same channels, unretained, for posts (no reference counting on the hot path).
    @usableFromInline var channelRefs: ContiguousArray<Unretained<CrossThreadChannel>> = []
    /// The channel index of each event name id, or -1 before its first post.
    @usableFromInline var channelOfName: ContiguousArray<Int> = []
    /// The order of the pending events, as runs over the channels, except the current run.
    @usableFromInline var pendingRuns: ContiguousArray<CrossThreadRun> = []
    /// The channel of the current run (the last post's), or -1; and how many events it has.
    @usableFromInline var runChannel = -1
    @usableFromInline var runCount = 0
    /// The first channel that got pending events in this batch, or -1; the others, if any.
    @usableFromInline var firstPendingChannel = -1
    @usableFromInline var pendingChannels: ContiguousArray<Int> = []
    /// Whether the loop was woken for the pending events (a drain submitted, or a wake-up
    /// signalled) and has not taken them yet.
    @usableFromInline var wakeScheduled = false
    /// The bus the pending drain delivers to; keeps it alive until then.
    var pendingBus: Bus?
    /// Set when the loop refused a drain (it is shutting down): posts are dropped from then on.
    @usableFromInline var isClosed = false
    /// The loop's wake-up for this inbox, once registered; `nil` again once the loop ended them.
    var wakeUp: (any BusLoopWakeUp)?
    /// The work submitted to the loop for each batch, made once (in the inbox's `init`).
    var drainWork: @Sendable () -> Void = {}

    @usableFromInline init() {}
}

/// What only the loop touches in a ``CrossThreadInbox``: the lists a drain walks and its flags.
///
/// ## Invariant
///
/// Touched only by the inbox's drain, on the loop (its one stored property, `loopSide`, skips the
/// run-time exclusivity checks for the same reason as ``CrossThreadInboxGuarded``). A drain can run
/// again inside one of its deliveries; it then only sets `redrainRequested`, so no `inout` access
/// spans a delivery.
struct CrossThreadInboxLoopSide {
    var drainRuns: ContiguousArray<CrossThreadRun> = []
    var drainChannelIndices: ContiguousArray<Int> = []
    var isDraining = false
    /// Whether a drain already asked the loop for a wake-up.
    var askedForWakeUp = false
    var redrainRequested = false
}
