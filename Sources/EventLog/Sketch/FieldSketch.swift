import ResponderBus

/// One text input of a sketched screen: its id, its kind and what sets it apart.
///
/// Written as text (``init(parsing:)``) it is `NAME[:WORD…]`: `password:secure`,
/// `notes:textView:height=200`, `promo:hidden`, `code:disabled:done`. The words are a kind —
/// `text` (the default), `secure` (a text field hiding what is typed) or `textView` — and flags:
/// `hidden`, `disabled`, `done` or `return=done` (Return ends editing here: the field takes no
/// part in the tag order, as a field with a Done key; `return=next`, the default, moves on), `gap=N` (the distance avoidance keeps above the keyboard,
/// `keyboardDistance`), `height=N` and `y=N` (its top in portrait, in points; see
/// ``SessionSketch/Layout``).
public struct FieldSketch: Hashable, Sendable {
    /// What kind of text input a field is.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// A single-line text field.
        case text
        /// A text field that hides what is typed (a password field).
        case secure
        /// A multi-line text view.
        case textView

        /// The view kind in a log.
        public var viewKind: ViewKind { self == .textView ? .textView : .textField }
        /// The height it gets when none is given: 44 for a field, 120 for a text view.
        public var defaultHeight: Double { self == .textView ? 120 : 44 }
    }

    /// The view's id (unique in the scene).
    public var id: ViewID
    /// What kind of input it is.
    public var kind: Kind
    /// Whether the field is hidden.
    public var isHidden: Bool
    /// Whether the field accepts input.
    public var isEnabled: Bool
    /// Whether Return ends editing here (no tag, so no next field in tag order).
    public var returnEndsEditing: Bool
    /// The gap avoidance keeps above the keyboard, when not its default.
    public var keyboardDistance: Double?
    /// The field's height in points; ``Kind/defaultHeight`` when `nil`.
    public var height: Double?
    /// The field's top in portrait, in points from the top of the screen; the layout's place when `nil`.
    public var y: Double?

    /// Describes a field.
    public init(
        _ id: ViewID, kind: Kind = .text, isHidden: Bool = false, isEnabled: Bool = true, returnEndsEditing: Bool = false,
        keyboardDistance: Double? = nil, height: Double? = nil, y: Double? = nil
    ) {
        self.id = id
        self.kind = kind
        self.isHidden = isHidden
        self.isEnabled = isEnabled
        self.returnEndsEditing = returnEndsEditing
        self.keyboardDistance = keyboardDistance
        self.height = height
        self.y = y
    }

    /// Whether a user can focus the field: visible and enabled.
    public var isFocusable: Bool { !isHidden && isEnabled }

    /// The words ``init(parsing:)`` knows after the name, for messages.
    /// The largest `y`, `height` or `gap` a field may set, in points: larger than any screen.
    public static let largestPoints = 10_000.0

    public static let knownWords = "text, secure, textView, hidden, disabled, done, return=next|done, gap=N, height=N, y=N"

    /// Reads `NAME[:WORD…]` (see the type's description).
    ///
    /// - Throws: ``SessionSketchError/Code/badField`` naming the word it does not know, or a value
    ///   that is not a number of points.
    public init(parsing text: String) throws(SessionSketchError) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        let name = parts[0].trimmingSpaces
        guard !name.isEmpty else {
            throw SessionSketchError(.badField, "field '\(text)' has no name; write NAME[:WORD…], such as password:secure")
        }
        self.init(ViewID(name))
        for word in parts.dropFirst().map(\.trimmingSpaces) {
            try apply(word, in: text)
        }
    }

    private mutating func apply(_ word: String, in text: String) throws(SessionSketchError) {
        if let kind = Kind(rawValue: word) ?? (word.lowercased() == "textview" ? .textView : nil) ?? (word == "textField" ? .text : nil) {
            self.kind = kind
            return
        }
        switch word {
        case "hidden": isHidden = true
        case "disabled": isEnabled = false
        case "done": returnEndsEditing = true
        default:
            guard let equals = word.firstIndex(of: "=") else {
                throw SessionSketchError(.badField, "field '\(text)': unknown word '\(word)'; a field knows \(Self.knownWords)")
            }
            let key = String(word[..<equals])
            if key == "return" {
                try applyReturn(String(word[word.index(after: equals)...]), in: text)
                return
            }
            let value = Double(word[word.index(after: equals)...])
            guard ["gap", "height", "y"].contains(key) else {
                throw SessionSketchError(.badField, "field '\(text)': unknown setting '\(key)'; a field knows \(Self.knownWords)")
            }
            // Points on a screen: a frame past any real screen would be written and replayed as
            // nonsense (1e308 scaled by a rotation is infinity, which JSON cannot hold).
            guard let value, value.isFinite, value >= 0, value <= Self.largestPoints, key != "height" || value > 0 else {
                throw SessionSketchError(
                    .badField,
                    "field '\(text)': \(word) needs a number of points \(key == "height" ? "more than 0" : "from 0")"
                        + " to \(JSONText.number(Self.largestPoints))")
            }
            switch key {
            case "gap": keyboardDistance = value
            case "height": height = value
            default: y = value
            }
        }
    }

    /// `return=next` (Return moves to the next field, the default) or `return=done` (as `done`).
    private mutating func applyReturn(_ value: String, in text: String) throws(SessionSketchError) {
        switch value {
        case "next": returnEndsEditing = false
        case "done": returnEndsEditing = true
        default: throw SessionSketchError(.badField, "field '\(text)': return=\(value); the Return key is return=next or return=done")
        }
    }

    /// Reads a comma-separated list of fields: `user,password:secure`.
    ///
    /// - Throws: ``SessionSketchError/Code/badField`` for a field it cannot read, or an empty list.
    public static func list(parsing text: String) throws(SessionSketchError) -> [FieldSketch] {
        let items = text.split(separator: ",", omittingEmptySubsequences: true).map(String.init).filter { !$0.trimmingSpaces.isEmpty }
        guard !items.isEmpty else {
            throw SessionSketchError(.badField, "no fields; write NAME[:WORD…] separated by commas, such as user,password:secure")
        }
        var fields: [FieldSketch] = []
        for item in items { fields.append(try FieldSketch(parsing: item)) }
        return fields
    }
}

extension String {
    /// The string without spaces at either end.
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
