import ResponderBus

/// The log format's event names, built from the vocabulary (`BuiltinEvent`): each name's bytes for
/// the writer, and the parser's look-up of a name where it stands in a line.
///
/// The look-up needs no scan for the closing quote: the names are grouped by their first byte; each
/// group has two positions, within its shortest name, whose bytes tell its names apart as well as
/// any two do, and a multiplier that sends those two bytes to one of the group's slots (all found
/// when the table is built; today's names each get a slot of their own, and names that share one
/// are chained). The first byte picks the group, the two bytes the slot, and a compare of the whole
/// name and the quote after it decides. A name the format knows is never escaped when written; one
/// that was (or is not ASCII) goes through ``BuiltinEvent/init(decoded:)``.
struct EventSpellings {
    /// A candidate: an event, the bytes at its group's two positions, and where its name is in
    /// `spellings`.
    private struct Entry {
        var key: UInt16
        var event: BuiltinEvent
        var offset: Int
        var count: Int
        /// The next entry in the same slot, or -1.
        var next: Int
    }

    /// The names that start with one byte: the two positions that tell them apart, the multiplier
    /// and where their slots are.
    private struct Group {
        var position1: Int
        var position2: Int
        /// Mixes a key into one of the group's ``slotsPerGroup`` slots (chosen when the table is
        /// built, to leave as few keys sharing a slot as it can).
        var multiplier: UInt64
        /// Where the group's slots start in `slots`.
        var slotBase: Int
    }

    /// Slots per group: more than today's largest group has names, so that a multiplier that keeps
    /// their keys apart is found quickly (a larger group shares slots).
    private static var slotsPerGroup: Int { 1 << slotBits }
    private static var slotBits: Int { 4 }

    /// A key's slot in its group: the top bits of its product with the group's multiplier (which
    /// depend on every bit of the key).
    @inline(__always)
    private static func slot(of key: UInt16, multiplier: UInt64) -> Int {
        Int((UInt64(key) &* multiplier) >> (64 - slotBits))
    }

    /// The `attempt`th multiplier tried: odd, its bits spread (multiples of the golden ratio's).
    private static func multiplier(_ attempt: Int) -> UInt64 { 0x9E37_79B9_7F4A_7C15 &* UInt64(attempt + 1) | 1 }

    /// For each byte, the index in `groups` of the names that start with it, or -1.
    private let groupOfFirstByte: [Int8]
    private let groups: [Group]
    private let entries: [Entry]
    /// For each group's slot, the first entry whose key lands there, or -1.
    private let slots: [Int]
    /// Every name's bytes, one after the other.
    private let spellings: [UInt8]
    /// Each event's name as `(offset, count)` in `spellings`, by id; `count` 0 for events no log holds.
    private let ranges: [(offset: Int, count: Int)]

    /// The table, built once from `BuiltinEvent`. A class's one instance, so that a look-up reads
    /// its arrays in place rather than copying the value (and retaining each array).
    static let table = Table(EventSpellings())

    /// The groups' sizes and how many of their names share a slot with another: what a test checks.
    var slotSharing: [(names: Int, sharing: Int)] {
        groups.indices.map { index in
            let base = groups[index].slotBase
            let chains = slots[base..<base + Self.slotsPerGroup].map { first -> Int in
                var count = 0
                var entry = first
                while entry >= 0 {
                    count += 1
                    entry = entries[entry].next
                }
                return count
            }
            return (chains.reduce(0, +), chains.filter { $0 > 1 }.reduce(0, +))
        }
    }

    /// The table's home.
    final class Table: Sendable {
        private let spellings: EventSpellings
        init(_ spellings: EventSpellings) { self.spellings = spellings }
        /// See ``EventSpellings/known(in:at:)``.
        func known(in bytes: LineBytes, at start: Int) -> (event: BuiltinEvent, end: Int)? {
            spellings.known(in: bytes, at: start)
        }
        /// See ``EventSpellings/write(_:to:)``.
        @inline(__always)
        func write(_ event: BuiltinEvent, to cursor: inout ByteCursor) {
            spellings.write(event, to: &cursor)
        }
    }

    private init() {
        self.init(names: BuiltinEvent.allCases.map { ($0, $0.isInLog ? Array($0.name.utf8) : []) })
    }

    /// A table of the given names, by event (an empty name for an event no log holds); tests give
    /// names other than the vocabulary's.
    init(names given: [(event: BuiltinEvent, name: [UInt8])]) {
        var spellings: [UInt8] = []
        var ranges = [(offset: Int, count: Int)](repeating: (0, 0), count: BuiltinEvent.allCases.count)
        var names: [(event: BuiltinEvent, bytes: [UInt8])] = []
        for (event, name) in given {
            ranges[event.rawValue] = (spellings.count, name.count)
            spellings += name
            if !name.isEmpty { names.append((event, name)) }
        }
        var groupOfFirstByte = [Int8](repeating: -1, count: 256)
        var groups: [Group] = []
        var entries: [Entry] = []
        var slots: [Int] = []
        for first in Set(names.map { $0.bytes[0] }).sorted() {
            let members = names.filter { $0.bytes[0] == first }
            let shortest = members.map(\.bytes.count).min()!
            func key(_ name: [UInt8], _ position1: Int, _ position2: Int) -> UInt16 {
                UInt16(name[position1]) << 8 | UInt16(name[position2])
            }
            // The pair of positions whose bytes leave the fewest names sharing a key (none for today's
            // names), then the multiplier that puts the keys in the most slots.
            var best = (position1: 0, position2: 0, sharing: Int.max)
            for position1 in 0..<shortest {
                for position2 in position1..<shortest {
                    let keys = members.map { key($0.bytes, position1, position2) }
                    let sharing = Dictionary(grouping: keys, by: { $0 }).values.map(\.count).max()!
                    if sharing < best.sharing { best = (position1, position2, sharing) }
                }
            }
            // The multiplier that puts the group's keys in the most slots of their own: all of them
            // for today's names; a slot's entries are chained, so a collision costs a compare, not
            // a wrong answer.
            let keys = Set(members.map { key($0.bytes, best.position1, best.position2) })
            var multiplier = Self.multiplier(0)
            var mostSlots = 0
            for attempt in 0..<4096 where mostSlots < keys.count {
                let candidate = Self.multiplier(attempt)
                let used = Set(keys.map { Self.slot(of: $0, multiplier: candidate) }).count
                if used > mostSlots { (multiplier, mostSlots) = (candidate, used) }
            }
            let group = Group(position1: best.position1, position2: best.position2, multiplier: multiplier, slotBase: slots.count)
            groupOfFirstByte[Int(first)] = Int8(groups.count)
            groups.append(group)
            slots += [Int](repeating: -1, count: Self.slotsPerGroup)
            for member in members {
                let memberKey = key(member.bytes, best.position1, best.position2)
                let slot = group.slotBase + Self.slot(of: memberKey, multiplier: multiplier)
                let range = ranges[member.event.rawValue]
                entries.append(Entry(key: memberKey, event: member.event, offset: range.offset, count: range.count, next: slots[slot]))
                slots[slot] = entries.count - 1
            }
        }
        self.groupOfFirstByte = groupOfFirstByte
        self.groups = groups
        self.entries = entries
        self.slots = slots
        self.spellings = spellings
        self.ranges = ranges
    }

    /// Writes `event`'s name as a log spells it (nothing for events no log holds).
    @inline(__always)
    func write(_ event: BuiltinEvent, to cursor: inout ByteCursor) {
        let range = ranges[event.rawValue]
        cursor.bytes(spellings, range.offset..<range.offset + range.count)
    }

    /// The event whose name is spelled at `start` in `bytes` and closed by a quote right after it,
    /// with the offset of that quote; `nil` otherwise.
    @inline(__always)
    func known(in bytes: LineBytes, at start: Int) -> (event: BuiltinEvent, end: Int)? {
        guard start < bytes.count else { return nil }
        let index = Int(groupOfFirstByte[Int(bytes[start])])
        guard index >= 0 else { return nil }
        let group = groups[index]
        // Every name of the group is longer than its second position.
        guard start + group.position2 < bytes.count else { return nil }
        let key = UInt16(bytes[start + group.position1]) << 8 | UInt16(bytes[start + group.position2])
        var entry = slots[group.slotBase + Self.slot(of: key, multiplier: group.multiplier)]
        while entry >= 0 {
            let candidate = entries[entry]
            entry = candidate.next
            let end = start + candidate.count
            guard candidate.key == key, end < bytes.count, bytes[end] == UInt8(ascii: "\"") else { continue }
            if bytes.has(spellings, from: candidate.offset, length: candidate.count, at: start) { return (candidate.event, end) }
        }
        return nil
    }
}

extension BuiltinEvent {
    /// Recognises a log's name that had escapes or bytes beyond ASCII, comparing Strings as the
    /// format always has (Unicode canonical equivalence).
    init?(decoded name: String) {
        guard let event = Self.allCases.first(where: { $0.isInLog && $0.name == name }) else { return nil }
        self = event
    }
}
