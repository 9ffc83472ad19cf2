/// What the keyboard is doing now, as far as a stream of keyboard events tells: the shared
/// bookkeeping of every plugin that cares where the keyboard is.
///
/// Feed it every keyboard event with ``note(_:)``. The rules:
/// - a hide event (`keyboardWillHide`, `keyboardDidHide`) means hidden, whatever frame it carries;
/// - any other event with an end frame means that frame is the keyboard now;
/// - an event with no end frame (old iPads' `Did` events carry only the begin frame) changes
///   nothing;
/// - another app's keyboard (`isLocal: false`) changes nothing unless ``followsOtherApps``.
public struct KeyboardState: Hashable, Sendable {
    /// The last keyboard event that counted, if any.
    public private(set) var latest: KeyboardInfo?
    /// Whether the last event that counted was a hide.
    public private(set) var isHidden = true
    /// Whether another app's keyboard counts. Default `false`.
    public var followsOtherApps: Bool

    /// Creates the state of a keyboard that has not shown yet.
    public init(followsOtherApps: Bool = false) {
        self.followsOtherApps = followsOtherApps
    }

    /// A state as noted elsewhere (``KeyboardModel``).
    init(latest: KeyboardInfo?, isHidden: Bool, followsOtherApps: Bool) {
        self.latest = latest
        self.isHidden = isHidden
        self.followsOtherApps = followsOtherApps
    }

    /// Notes a keyboard event.
    ///
    /// - Returns: whether the event counted (changed or confirmed the state).
    @discardableResult
    public mutating func note(_ event: Event<KeyboardInfo>) -> Bool {
        note(event.payload, isHide: event.name.isHide)
    }

    /// Notes a keyboard event's payload; `isHide` for `keyboardWillHide` and `keyboardDidHide`.
    ///
    /// - Returns: whether the event counted (changed or confirmed the state).
    @discardableResult
    public mutating func note(_ info: KeyboardInfo, isHide: Bool) -> Bool {
        guard Self.counts(info, isHide: isHide, followsOtherApps: followsOtherApps) else { return false }
        latest = info
        isHidden = isHide
        return true
    }

    /// Whether a keyboard event counts, by the rules above (the one place they are written; the
    /// bus's ``KeyboardModel`` and the plugins ask here): a hide always, another event when it has
    /// an end frame, and another app's keyboard only when `followsOtherApps`.
    @inlinable
    public static func counts(_ info: KeyboardInfo, isHide: Bool, followsOtherApps: Bool) -> Bool {
        if info.isLocal == false && !followsOtherApps { return false }
        return isHide || info.end != nil
    }

    /// The part of a screen of `size` the keyboard covers now, or `nil`
    /// (see ``KeyboardInfo/coveredPart(ofScreen:isHide:)``).
    public func coveredPart(ofScreen size: Size) -> Rect? {
        latest?.coveredPart(ofScreen: size, isHide: isHidden)
    }
}
