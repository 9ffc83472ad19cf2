import ResponderBus

/// Where a string value sits in the line being parsed. It becomes a `String` only when the record
/// uses it (``RecordParser/string(_:)``).
struct StringRef {
    /// The offset of the opening quote in the line.
    var quote: Int
    /// The offset of the closing quote.
    var end: Int
    /// Whether the bytes between the quotes are the string itself: ASCII without escapes. Otherwise
    /// (escapes, UTF-8 beyond ASCII) the string is decoded again from `quote` when it is needed.
    var isVerbatim: Bool

    /// The 1-based column of the value (its opening quote).
    var column: Int { quote + 1 }
}

/// The fields a record line may carry, filled as the parser meets them (in any order; when a key
/// is repeated, the last value wins). Plain data (the scene's view tree is kept by the parser,
/// ``RecordParser/extras``), so that it costs nothing to drop, and it is filled in place.
struct RawFields {
    var t: Double?
    var tColumn = 1
    var event: StringRef?
    /// The kind `event` names, when its bytes spell one.
    var eventKind: BuiltinEvent?
    var origin: StringRef?
    var by: StringRef?
    var view: StringRef?
    var begin: Rect?
    var end: Rect?
    var duration: Double?
    var durationColumn = 1
    var curve: Int?
    var isLocal: Bool?
    var frame: Rect?
    var width: Double?
    var height: Double?
    var safeArea: EdgeInsets?
    var lastFieldAction: StringRef?
    var originY: Double?
    var contentOffsetY: Double?
    var bottomInset: Double?
    var from: StringRef?
    var to: StringRef?
    var name: StringRef?
    var level: StringRef?
    var message: StringRef?
    var keyboardDistance: Double?
    var keyboardDistanceColumn = 1
    var avoidsKeyboard: Bool?
    var followsKeyboard: Bool?
    // Header fields.
    var format: StringRef?
    var version: Int?
    var versionColumn = 1
    var screen: Size?
    var screenSource: StringRef?
    var device: StringRef?
}

/// Every key the format gives a meaning to, at the top level of a line or inside one of its objects
/// (a view, a pair, insets), recognised from the key's bytes.
