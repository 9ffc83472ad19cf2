/// A reference that does not count: the one way the core reaches an object without a retain and a
/// release, where an object is reached for every event and that pair would be a measurable part of
/// a post (benchmark cases "bus.post, 1 observer" and "replay 1000000 events, 3 plugins →
/// /dev/null").
///
/// Every use in the core is one of these, and each says, where it is made, what keeps its object
/// alive:
///
/// | made in | the object | kept alive by |
/// |---|---|---|
/// | `Bus.dispatch` | an observer record | the delivery list being walked (kept by `BusState.deliveryRecords(for:)`'s pinning) |
/// | `PluginContext` | the bus | the bus itself: it marks its registrations dead in `deinit`, and a context checks that first |
/// | `BusAnchor` | the bus | the bus: it clears the anchor, under the anchor's lock, first thing in `deinit` |
/// | `CrossThreadInbox` | a channel | the inbox's own `channels` array, which never shrinks |
/// | `Screen` | the last view looked up | the screen's index: every change to it forgets the look-up |
/// | `ViewNode` | a view's parent | the parent: it clears its children's links when it lets them go or goes |
/// | `ViewTreeWalks` (`isVisible`, `visitSubtree`, a view's place on the screen) | each view walked | the tree: it holds every view while a walk, which changes nothing, runs |
///
/// ## Invariant
///
/// The object outlives every use of the `Unretained`. Nothing checks this at run time (a check
/// would need the counting this avoids); each use site above states its owner, and
/// `.ci/unsafe-allowlist` keeps new ones from appearing unnoticed. Use it only where a benchmark
/// case shows the retain and release; otherwise hold the object.
@usableFromInline
struct Unretained<Object: AnyObject> {
    @usableFromInline let unmanaged: Unmanaged<Object>

    /// Borrows `object`, which something else keeps alive.
    @inlinable
    init(_ object: Object) {
        unmanaged = Unmanaged.passUnretained(object)
    }

    /// Calls `body` with the object, neither retained nor released.
    @inlinable
    func with<Result>(_ body: (Object) throws -> Result) rethrows -> Result {
        try unmanaged._withUnsafeGuaranteedRef(body)
    }

    /// The object, as a counted reference again.
    @inlinable
    var object: Object { unmanaged.takeUnretainedValue() }
}

extension Unretained: Sendable where Object: Sendable {}

/// `unsafeDowncast` in one place: the object is known to be a `T` by construction (a name id fixes
/// its payload type, so a record or a channel under an id is of that payload's type), and the
/// dynamic cast's cost is measurable per event. Checked in debug builds.
@inlinable
func assumingType<T: AnyObject>(_ object: AnyObject, _ type: T.Type) -> T {
    unsafeDowncast(object, to: type)
}
