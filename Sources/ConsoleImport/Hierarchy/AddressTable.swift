import ResponderBus

/// The addresses a dump printed, each with the id of the first view printed with it.
///
/// An address is `0x` and hex digits, compared by value: `0x7F9A…`, `0x7f9a…` and `0x00007f9a…`
/// are one address (lldb, `NSLog("%p")` and Swift print them differently). Anything else (an
/// XCUITest element printed without one is `LINE:COLUMN`) is compared as its text. A hex address
/// takes 24 bytes of table rather than a string key's and a frame's 64: a dump of a million views
/// holds a million of them.
struct AddressTable {
    private var numeric: [UInt64: ViewID] = [:]
    private var textual: [String: ViewID] = [:]

    /// A table sized for `capacity` addresses.
    init(capacity: Int = 0) {
        numeric.reserveCapacity(capacity)
    }

    /// How many addresses it holds.
    var count: Int { numeric.count + textual.count }

    /// The id of the first view printed with `address`.
    subscript(address: String) -> ViewID? {
        if let value = Self.value(of: address) { return numeric[value] }
        return textual[address]
    }

    /// Notes the first view printed with `address`; returns `false` (and changes nothing) when
    /// the address was printed before.
    mutating func insertIfNew(_ address: String, id: ViewID) -> Bool {
        if let value = Self.value(of: address) {
            guard numeric.index(forKey: value) == nil else { return false }
            numeric[value] = id
        } else {
            guard textual.index(forKey: address) == nil else { return false }
            textual[address] = id
        }
        return true
    }

    /// Every address with its view, in the order of their spelling (`0x` and lowercase hex
    /// without leading zeros for a hex address).
    var sorted: [(address: String, id: ViewID)] {
        (numeric.map { (Self.spelling(ofValue: $0.key), $0.value) } + textual.map { ($0.key, $0.value) })
            .sorted { $0.0 < $1.0 }
    }

    /// How many addresses of `other` this table holds too.
    func countShared(with other: AddressTable) -> Int {
        other.numeric.keys.count { numeric[$0] != nil } + other.textual.keys.count { textual[$0] != nil }
    }

    /// How an address is said: `0x` and lowercase hex without leading zeros for a hex address, the
    /// text for anything else.
    static func spelling(of address: String) -> String {
        value(of: address).map(spelling(ofValue:)) ?? address
    }

    private static func spelling(ofValue value: UInt64) -> String { "0x" + String(value, radix: 16) }

    /// The value of a `0x` address of at most 16 significant hex digits; `nil` for anything else.
    static func value(of address: String) -> UInt64? {
        var utf8 = address.utf8[...]
        guard utf8.count > 2, utf8.removeFirst() == UInt8(ascii: "0"), utf8.first == UInt8(ascii: "x") || utf8.first == UInt8(ascii: "X")
        else { return nil }
        utf8.removeFirst()
        var value: UInt64 = 0
        var significant = 0
        for byte in utf8 {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            if value != 0 || digit != 0 { significant += 1 }
            guard significant <= 16 else { return nil }
            value = value << 4 | UInt64(digit)
        }
        return value
    }
}
