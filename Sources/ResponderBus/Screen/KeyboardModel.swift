/// Where the keyboard is, as the bus's model keeps it: one state for every plugin, next to the
/// ``Screen``, updated from the keyboard events before any plugin sees them
/// (``PluginContext/keyboard``, ``Screen/keyboard``).
///
/// Two readings are kept, because iOS tells an app about another app's keyboard too (iPad Split
/// View; `isLocal: false`): ``ownApp`` ignores those, as the built-in plugins do by default;
/// ``anyApp`` counts every keyboard on the screen. The rest of the properties read ``ownApp``.
public struct KeyboardModel: Hashable, Sendable {
    // Noted on every keyboard event, from the bus's inlined delivery path (benchmark case "bus.post,
    // 1 observer" posts keyboardWillShow): one copy of the payload per event. `_latest` is the last
    // event that counted for any app; this app's own is the same one while `_ownIsLatest`, and
    // `_own` keeps it once another app's keyboard came after it.
    @usableFromInline var _latest: KeyboardInfo?
    @usableFromInline var _latestIsHide = true
    @usableFromInline var _ownIsLatest = true
    @usableFromInline var _own: KeyboardInfo?
    @usableFromInline var _ownIsHide = true

    /// The keyboard as this app's own notifications tell it (another app's keyboard ignored).
    public var ownApp: KeyboardState {
        _ownIsLatest
            ? KeyboardState(latest: _latest, isHidden: _latestIsHide, followsOtherApps: false)
            : KeyboardState(latest: _own, isHidden: _ownIsHide, followsOtherApps: false)
    }
    /// The keyboard on the screen, whichever app it belongs to.
    public var anyApp: KeyboardState { KeyboardState(latest: _latest, isHidden: _latestIsHide, followsOtherApps: true) }
    /// The screen's size, which the covered part is measured against.
    public private(set) var screenSize: Size {
        get { _screenSize }
        set { _screenSize = newValue }
    }
    /// Stored for the inlined ``coveredPart``.
    @usableFromInline var _screenSize: Size

    /// How a keyboard sits on the screen.
    public enum Placement: Hashable, Sendable {
        /// No keyboard (never shown, or hidden since).
        case hidden
        /// Docked at the bottom of the screen, covering what is behind it.
        case docked
        /// An iPad keyboard that floats, is undocked or split: it does not reach the bottom edge
        /// and, as iOS treats it, covers nothing.
        case floating
        /// The strip a hardware keyboard leaves on screen: its frame reaches below the bottom edge,
        /// and only the visible part covers.
        case hardwareStrip
    }

    /// A model with no keyboard shown, on a screen of `screenSize`.
    public init(screenSize: Size) {
        _screenSize = screenSize
    }

    /// The keyboard's frame in screen coordinates (its last end frame), or `nil` when hidden.
    public var frame: Rect? { ownApp.isHidden ? nil : ownApp.latest?.end }

    /// The part of the screen the keyboard covers (see `KeyboardInfo.coveredPart(ofScreen:isHide:)`),
    /// or `nil` when it covers nothing.
    /// (Read on every settled turn by two built-in plugins: straight from the stored readings, with
    /// no ``KeyboardState`` made on the way.)
    @inlinable
    public var coveredPart: Rect? { coveredPart(includingOtherApps: false) }

    /// The part covered, counting another app's keyboard too when `includingOtherApps`.
    @inlinable
    public func coveredPart(includingOtherApps: Bool) -> Rect? {
        if includingOtherApps || _ownIsLatest {
            return _latest?.coveredPart(ofScreen: _screenSize, isHide: _latestIsHide)
        }
        return _own?.coveredPart(ofScreen: _screenSize, isHide: _ownIsHide)
    }

    /// How this app's keyboard sits on the screen.
    public var placement: Placement { Self.placement(of: ownApp, on: screenSize) }

    /// Whether the last keyboard event of any app was this app's own (`nil` when none said).
    public var isLocal: Bool? { anyApp.latest?.isLocal }

    /// The last keyboard event that counted for this app, for its animation (duration and curve).
    public var latest: KeyboardInfo? { ownApp.latest }

    /// How `state`'s keyboard sits on a screen of `size`.
    public static func placement(of state: KeyboardState, on size: Size) -> Placement {
        guard !state.isHidden, let end = state.latest?.end, !end.isNull, !end.isInfinite, !end.isEmpty else { return .hidden }
        guard end.maxY >= size.height - 0.5 else { return .floating }
        return end.maxY > size.height + 0.5 ? .hardwareStrip : .docked
    }

    /// Notes a keyboard event (the bus does, before the plugins see it), by
    /// ``KeyboardState/counts(_:isHide:followsOtherApps:)``: another app's keyboard changes
    /// ``anyApp`` only.
    @inlinable
    package mutating func note(_ info: KeyboardInfo, isHide: Bool) {
        guard KeyboardState.counts(info, isHide: isHide, followsOtherApps: true) else { return }
        if info.isLocal == false {
            if _ownIsLatest {
                _own = _latest
                _ownIsHide = _latestIsHide
                _ownIsLatest = false
            }
        } else {
            _ownIsLatest = true
        }
        _latest = info
        _latestIsHide = isHide
    }

    /// Follows a change of the screen's size.
    package mutating func screenChanged(to size: Size) {
        screenSize = size
    }
}
