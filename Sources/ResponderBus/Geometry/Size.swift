/// A width and a height, in points.
public struct Size: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The horizontal extent.
    public var width: Double
    /// The vertical extent.
    public var height: Double

    /// Creates a size from its extents.
    @inlinable
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// The size with zero width and height.
    @inlinable public static var zero: Size { Size(width: 0, height: 0) }

    /// A textual description such as `375×812`.
    public var description: String { "\(formatPoints(width))×\(formatPoints(height))" }
}
