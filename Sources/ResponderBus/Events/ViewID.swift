/// The identifier of a view in the screen model: the log format's `id`, unique in a scene.
public struct ViewID: RawRepresentable, Hashable, Sendable, Comparable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The identifier as written in logs.
    public var rawValue: String

    /// Wraps an identifier.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Wraps an identifier.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Wraps a string literal.
    public init(stringLiteral value: String) { rawValue = value }

    /// The identifier.
    public var description: String { rawValue }

    /// Orders identifiers by their raw strings.
    public static func < (a: ViewID, b: ViewID) -> Bool { a.rawValue < b.rawValue }
}
