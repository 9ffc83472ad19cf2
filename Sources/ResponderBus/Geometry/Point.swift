/// A location in a two-dimensional coordinate space, in points.
///
/// As in UIKit, y grows downwards: the top of the screen is `y == 0`.
public struct Point: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The horizontal coordinate.
    public var x: Double
    /// The vertical coordinate; larger values are lower on the screen.
    public var y: Double

    /// Creates a point from its coordinates.
    @inlinable
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The point at the origin, `(0, 0)`.
    @inlinable public static var zero: Point { Point(x: 0, y: 0) }

    /// This point moved by `dx` horizontally and `dy` vertically.
    @inlinable
    public func offsetBy(dx: Double, dy: Double) -> Point {
        Point(x: x + dx, y: y + dy)
    }

    /// A textual description such as `(20, 560)`.
    public var description: String { "(\(formatPoints(x)), \(formatPoints(y)))" }
}
