import ResponderBus
import Testing

@Suite struct GeometryTests {
    /// A rectangle from the log format's four numbers.
    private static func r(_ x: Double, _ y: Double, _ width: Double, _ height: Double) -> Rect {
        Rect(x: x, y: y, width: width, height: height)
    }

    /// The keyboard of an iPhone X in portrait, fully shown.
    private static let keyboard = r(0, 521, 375, 291)

    // MARK: - Intersection

    /// (a, b, a ∩ b).
    static let intersections: [(Rect, Rect, Rect)] = [
        // Overlapping corners.
        (r(0, 0, 100, 100), r(50, 50, 100, 100), r(50, 50, 50, 50)),
        // One inside the other.
        (r(0, 0, 100, 100), r(10, 10, 20, 20), r(10, 10, 20, 20)),
        // A field half under the keyboard.
        (keyboard, r(20, 500, 335, 44), r(20, 521, 335, 23)),
        // A field whose bottom edge touches the keyboard's top edge is not covered.
        (keyboard, r(20, 477, 335, 44), .null),
        // Touching side by side.
        (r(0, 0, 100, 100), r(100, 0, 50, 50), .null),
        // Touching at a corner only.
        (r(0, 0, 100, 100), r(100, 100, 50, 50), .null),
        // Far apart.
        (r(0, 0, 10, 10), r(200, 200, 10, 10), .null),
        // A null operand.
        (.null, r(0, 0, 10, 10), .null),
        (.null, .null, .null),
        // A negative size is read as the rectangle it spans.
        (r(100, 100, -50, -50), r(60, 60, 100, 100), r(60, 60, 40, 40)),
        // The infinite rectangle leaves the other one whole.
        (.infinite, keyboard, keyboard),
        // A zero-width rectangle covers nothing.
        (r(50, 0, 0, 100), r(0, 0, 100, 100), .null),
    ]

    @Test("intersection gives the overlap, or null when rectangles only touch or do not meet", arguments: intersections)
    func intersection(a: Rect, b: Rect, expected: Rect) {
        #expect(a.intersection(b) == expected)
        #expect(b.intersection(a) == expected, "intersection must not depend on the order")
        #expect(a.intersects(b) == !expected.isNull)
    }

    @Test(
        "intersecting with a NaN rectangle gives null in either order",
        arguments: [r(.nan, 0, 100, 100), r(0, 0, .nan, 100), r(0, .nan, 100, 100), r(0, 0, 100, .nan)]
    )
    func intersectionWithNaN(bad: Rect) {
        let field = Self.r(0, 0, 100, 100)
        #expect(field.intersection(bad).isNull)
        #expect(bad.intersection(field).isNull)
        #expect(!field.intersects(bad))
        #expect(!bad.intersects(field))
    }

    // MARK: - Union

    @Test("null is the identity of union, on either side")
    func unionWithNull() {
        let field = Self.r(20, 480, 335, 44)
        #expect(field.union(.null) == field)
        #expect(Rect.null.union(field) == field)
        #expect(Rect.null.union(.null).isNull)
    }

    @Test("union is the smallest rectangle holding both, whatever their order and signs")
    func unionCoversBoth() {
        let email = Self.r(20, 480, 335, 44)
        let notes = Self.r(20, 660, 335, 120)
        #expect(email.union(notes) == Self.r(20, 480, 335, 300))
        #expect(notes.union(email) == Self.r(20, 480, 335, 300))
        #expect(Self.r(10, 10, -10, -10).union(Self.r(20, 20, 5, 5)) == Self.r(0, 0, 25, 25))
        #expect(Self.r(0, 0, 0, 0).union(Self.r(10, 10, 10, 10)) == Self.r(0, 0, 20, 20))
    }

    @Test("a NaN rectangle is left out of a union, in either order")
    func unionWithNaN() {
        let field = Self.r(20, 480, 335, 44)
        let bad = Self.r(.nan, 0, 10, 10)
        #expect(field.union(bad) == field)
        #expect(bad.union(field) == field)
        #expect(bad.union(bad).isNull)
        #expect(bad.union(.null).isNull)
    }

    // MARK: - Containment

    /// (rectangle, point, contained?).
    static let pointContainment: [(Rect, Point, Bool)] = [
        (r(0, 0, 100, 100), Point(x: 50, y: 50), true),
        (r(0, 0, 100, 100), Point(x: 0, y: 0), true),  // minimum edges are inside
        (r(0, 0, 100, 100), Point(x: 100, y: 50), false),  // maximum edges are outside
        (r(0, 0, 100, 100), Point(x: 50, y: 100), false),
        (r(0, 0, 100, 100), Point(x: -1, y: 50), false),
        (r(100, 100, -100, -100), Point(x: 50, y: 50), true),
        (.null, Point(x: 0, y: 0), false),
        (r(0, 0, 100, 100), Point(x: .nan, y: 50), false),
    ]

    @Test("contains(point) includes the minimum edges and excludes the maximum ones", arguments: pointContainment)
    func containsPoint(rect: Rect, point: Point, expected: Bool) {
        #expect(rect.contains(point) == expected)
    }

    /// (outer, inner, outer contains inner?).
    static let rectContainment: [(Rect, Rect, Bool)] = [
        (r(0, 0, 375, 812), r(20, 480, 335, 44), true),
        (r(0, 0, 375, 812), r(0, 0, 375, 812), true),
        (r(0, 0, 375, 812), r(20, 800, 335, 44), false),  // sticks out of the bottom
        (keyboard, r(20, 500, 335, 44), false),  // half covered is not contained
        (keyboard, r(20, 600, 335, 44), true),
        (r(0, 0, 10, 10), .null, true),
        (.null, r(0, 0, 10, 10), false),
        (.infinite, keyboard, true),
    ]

    @Test("contains(rect) holds only when the whole rectangle is inside", arguments: rectContainment)
    func containsRect(outer: Rect, inner: Rect, expected: Bool) {
        #expect(outer.contains(inner) == expected)
    }

    // MARK: - Offset and inset

    @Test("offsetBy moves the origin and keeps the size; null stays null")
    func offset() {
        let field = Self.r(20, 480, 335, 44)
        #expect(field.offsetBy(dx: 0, dy: -100) == Self.r(20, 380, 335, 44))
        #expect(field.offsetBy(dx: 5, dy: 7) == Self.r(25, 487, 335, 44))
        #expect(Rect.null.offsetBy(dx: 10, dy: 10).isNull)
        #expect(Point(x: 1, y: 2).offsetBy(dx: 3, dy: -4) == Point(x: 4, y: -2))
    }

    @Test("inset(by:) shrinks each edge by its inset, standardising a negative size")
    func inset() {
        let screen = Self.r(0, 0, 375, 812)
        let safe = EdgeInsets(top: 44, left: 0, bottom: 34, right: 0)
        #expect(screen.inset(by: safe) == Self.r(0, 44, 375, 734))
        #expect(screen.inset(by: .zero) == screen)
        #expect(
            Self.r(100, 100, -100, -100).inset(by: EdgeInsets(top: 1, left: 2, bottom: 3, right: 4))
                == Self.r(2, 1, 94, 96)
        )
        #expect(Rect.null.inset(by: safe).isNull)
    }

    @Test("edges and centre account for negative sizes")
    func edges() {
        let flipped = Self.r(100, 200, -50, -20)
        #expect(flipped.minX == 50)
        #expect(flipped.maxX == 100)
        #expect(flipped.minY == 180)
        #expect(flipped.maxY == 200)
        #expect(flipped.midX == 75)
        #expect(flipped.midY == 190)
        #expect(flipped.width == 50)
        #expect(flipped.height == 20)
    }

    // MARK: - Special values

    /// (name, rectangle, isNull, isInfinite, isEmpty).
    static let specialValues: [(String, Rect, Bool, Bool, Bool)] = [
        ("an ordinary frame", r(20, 480, 335, 44), false, false, false),
        ("zero", .zero, false, false, true),
        ("zero height", r(0, 812, 375, 0), false, false, true),
        ("null", .null, true, false, true),
        ("a +inf x origin", r(.infinity, 0, 10, 10), true, false, true),
        ("a +inf y origin", r(0, .infinity, 375, 291), true, false, true),
        ("infinite", .infinite, false, true, false),
        ("a -inf y origin", r(0, -.infinity, 375, 291), false, true, false),
        ("an inf width", r(0, 0, .infinity, 291), false, true, false),
        ("an inf height", r(0, 0, 375, .infinity), false, true, false),
        ("a huge height", r(0, 0, 375, .greatestFiniteMagnitude), false, true, false),
        ("a NaN x origin", r(.nan, 521, 375, 291), false, false, true),
        ("a NaN y origin", r(0, .nan, 375, 291), false, false, true),
        ("a NaN width", r(0, 521, .nan, 291), false, false, true),
        ("a NaN height", r(0, 521, 375, .nan), false, false, true),
    ]

    @Test("isNull, isInfinite and isEmpty classify special frames", arguments: specialValues)
    func specialValue(name: String, rect: Rect, isNull: Bool, isInfinite: Bool, isEmpty: Bool) {
        #expect(rect.isNull == isNull, "isNull of \(name)")
        #expect(rect.isInfinite == isInfinite, "isInfinite of \(name)")
        #expect(rect.isEmpty == isEmpty, "isEmpty of \(name)")
    }

    // MARK: - Descriptions

    /// (value, its description).
    static let descriptions: [(any CustomStringConvertible & Sendable, String)] = [
        (r(0, 521, 375, 291), "[0, 521, 375, 291]"),
        (r(20.5, -3, 0, 1), "[20.5, -3, 0, 1]"),
        (Rect.null, "null"),
        (r(0, -.infinity, 375, 291), "[0, -inf, 375, 291]"),
        (r(.nan, 0, 10, 10), "[nan, 0, 10, 10]"),
        (Point(x: 20, y: 560), "(20, 560)"),
        (Point(x: -0.25, y: 1e20), "(-0.25, 1e+20)"),
        (Size(width: 375, height: 812), "375×812"),
        (EdgeInsets(top: 44, left: 0, bottom: 34, right: 0), "{top 44, left 0, bottom 34, right 0}"),
    ]

    @Test("descriptions use the log's order and drop .0 from whole numbers", arguments: descriptions)
    func description(value: any CustomStringConvertible & Sendable, expected: String) {
        #expect(value.description == expected)
    }

    @Test("components are the log format's [x, y, width, height]")
    func components() {
        #expect(Self.r(0, 521, 375, 291).components == [0, 521, 375, 291])
        #expect(
            Rect(x: 0, y: 521, width: 375, height: 291)
                == Rect(origin: Point(x: 0, y: 521), size: Size(width: 375, height: 291))
        )
    }

    @Test("coveredHeight: the points of height hidden, with a horizontal overlap and more than half a point")
    func coveredHeight() {
        let keyboard = Rect(x: 0, y: 521, width: 375, height: 291)
        #expect(Rect(x: 20, y: 500, width: 335, height: 44).coveredHeight(by: keyboard) == 23)
        #expect(Rect(x: 20, y: 477, width: 335, height: 44.4).coveredHeight(by: keyboard) == nil, "0.4 pt is rounding, not a cover")
        #expect(Rect(x: 400, y: 600, width: 20, height: 20).coveredHeight(by: keyboard) == nil, "beside the keyboard")
        #expect(Rect(x: 20, y: 700, width: 335, height: 44).coveredHeight(by: keyboard) == 44)
    }
}
