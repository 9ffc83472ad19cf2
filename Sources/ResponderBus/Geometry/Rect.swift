/// A rectangle in points: an origin and a size, as UIKit's `CGRect`.
///
/// Two special values exist, as in Core Graphics:
/// - ``null``: the result of intersecting rectangles that do not meet. Its ``isNull`` is `true`,
///   it is ``isEmpty``, and it is the identity of ``union(_:)``.
/// - ``infinite``: a rectangle with no bounds. iOS has been seen to put such frames (printed as
///   `CGRectInfinite` or with `inf` coordinates) into keyboard notifications.
///
/// Unlike `CGRect`, no standardisation happens behind your back: a negative width or height is kept
/// as given, and ``minX``/``maxX`` account for it.
public struct Rect: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The corner with the smallest coordinates when the size is positive.
    public var origin: Point
    /// The width and height.
    public var size: Size

    /// Creates a rectangle from its origin and size.
    @inlinable
    public init(origin: Point, size: Size) {
        self.origin = origin
        self.size = size
    }

    /// Creates a rectangle from its four numbers, in the log format's `[x, y, width, height]` order.
    @inlinable
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
    }

    /// The rectangle at the origin with zero size.
    @inlinable public static var zero: Rect { Rect(x: 0, y: 0, width: 0, height: 0) }

    /// The null rectangle: what ``intersection(_:)`` returns when two rectangles do not meet.
    @inlinable public static var null: Rect { Rect(x: .infinity, y: .infinity, width: 0, height: 0) }

    /// A rectangle without bounds.
    @inlinable public static var infinite: Rect {
        Rect(
            x: -Double.greatestFiniteMagnitude / 2, y: -Double.greatestFiniteMagnitude / 2,
            width: Double.greatestFiniteMagnitude, height: Double.greatestFiniteMagnitude)
    }

    /// The smallest x coordinate.
    @inlinable public var minX: Double { size.width >= 0 ? origin.x : origin.x + size.width }
    /// The largest x coordinate.
    @inlinable public var maxX: Double { size.width >= 0 ? origin.x + size.width : origin.x }
    /// The smallest y coordinate: the top edge.
    @inlinable public var minY: Double { size.height >= 0 ? origin.y : origin.y + size.height }
    /// The largest y coordinate: the bottom edge.
    @inlinable public var maxY: Double { size.height >= 0 ? origin.y + size.height : origin.y }
    /// The x coordinate of the centre.
    @inlinable public var midX: Double { (minX + maxX) / 2 }
    /// The y coordinate of the centre.
    @inlinable public var midY: Double { (minY + maxY) / 2 }
    /// The absolute width.
    @inlinable public var width: Double { abs(size.width) }
    /// The absolute height.
    @inlinable public var height: Double { abs(size.height) }

    /// Whether this is the ``null`` rectangle (or any rectangle with an infinite origin).
    @inlinable public var isNull: Bool { origin.x == .infinity || origin.y == .infinity }

    /// Whether this rectangle has no bounds: ``infinite``, or any rectangle with an infinite or
    /// huge size, or a `-inf` origin. A rectangle with a NaN coordinate is not infinite (it is
    /// ``isEmpty``).
    @inlinable public var isInfinite: Bool {
        if isNull || hasNaN { return false }
        return !origin.x.isFinite || !origin.y.isFinite || !size.width.isFinite || !size.height.isFinite
            || abs(size.width) >= Double.greatestFiniteMagnitude / 2
            || abs(size.height) >= Double.greatestFiniteMagnitude / 2
    }

    /// Whether this rectangle covers no area: null, NaN, or zero width or height.
    @inlinable public var isEmpty: Bool {
        isNull || size.width == 0 || size.height == 0 || hasNaN
    }

    /// Whether any of the four numbers is NaN: such a rectangle covers nothing and bounds nothing.
    @inlinable var hasNaN: Bool {
        origin.x.isNaN || origin.y.isNaN || size.width.isNaN || size.height.isNaN
    }

    /// The part both rectangles cover, or ``null`` when they do not overlap (touching edges do not
    /// overlap). A rectangle with a NaN coordinate overlaps nothing.
    @inlinable
    public func intersection(_ other: Rect) -> Rect {
        if isNull || other.isNull || hasNaN || other.hasNaN { return .null }
        let x0 = Swift.max(minX, other.minX)
        let y0 = Swift.max(minY, other.minY)
        let x1 = Swift.min(maxX, other.maxX)
        let y1 = Swift.min(maxY, other.maxY)
        guard x0 < x1, y0 < y1 else { return .null }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// How many points of this rectangle's height `covering` hides — the rule `--check`, the report
    /// and `CoveredControlWarner` share: `covering` must overlap it horizontally, and by more than
    /// half a point vertically (rounding in a log's frames is not a cover); `nil` otherwise.
    @inlinable
    public func coveredHeight(by covering: Rect) -> Double? {
        guard maxX > covering.minX, minX < covering.maxX else { return nil }
        let covered = Swift.min(maxY, covering.maxY) - Swift.max(minY, covering.minY)
        return covered > 0.5 ? covered : nil
    }

    /// Whether the rectangles overlap with a non-zero area.
    @inlinable public func intersects(_ other: Rect) -> Bool { !intersection(other).isNull }

    /// The smallest rectangle containing both; ``null`` is ignored, and so is a rectangle with a
    /// NaN coordinate.
    @inlinable
    public func union(_ other: Rect) -> Rect {
        if other.isNull || other.hasNaN { return isNull || hasNaN ? .null : self }
        if isNull || hasNaN { return other }
        let x0 = Swift.min(minX, other.minX)
        let y0 = Swift.min(minY, other.minY)
        let x1 = Swift.max(maxX, other.maxX)
        let y1 = Swift.max(maxY, other.maxY)
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Whether the point lies inside (the minimum edges inclusive, the maximum edges exclusive).
    public func contains(_ point: Point) -> Bool {
        !isNull && point.x >= minX && point.x < maxX && point.y >= minY && point.y < maxY
    }

    /// Whether `other` lies entirely inside this rectangle.
    @inlinable
    public func contains(_ other: Rect) -> Bool {
        if other.isNull { return true }
        if isNull { return false }
        return other.minX >= minX && other.maxX <= maxX && other.minY >= minY && other.maxY <= maxY
    }

    /// This rectangle moved by `dx` horizontally and `dy` vertically; ``null`` stays null.
    @inlinable
    public func offsetBy(dx: Double, dy: Double) -> Rect {
        if isNull { return self }
        return Rect(origin: origin.offsetBy(dx: dx, dy: dy), size: size)
    }

    /// This rectangle shrunk by the insets on each edge.
    @inlinable
    public func inset(by insets: EdgeInsets) -> Rect {
        if isNull { return self }
        return Rect(
            x: minX + insets.left, y: minY + insets.top,
            width: width - insets.left - insets.right, height: height - insets.top - insets.bottom)
    }

    /// The log format's `[x, y, width, height]`.
    public var components: [Double] { [origin.x, origin.y, size.width, size.height] }

    /// A textual description in the log format's order, such as `[0, 521, 375, 291]`.
    public var description: String {
        if isNull { return "null" }
        return "[\(formatPoints(origin.x)), \(formatPoints(origin.y)), \(formatPoints(size.width)), \(formatPoints(size.height))]"
    }
}
