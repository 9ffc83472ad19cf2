import ResponderBus

/// Reads the values printed in console dumps, whatever wraps them.
///
/// Every rectangle spelling reduces to "four numbers in a balanced bracket structure":
/// `NSRect: {{0, 352}, {320, 216}}`, `"NSRect: {{…}}"`, `CGRect:  {{inf, inf}, {0, 0}}`,
/// `(0.0, 768.0, 1024.0, 398.0)`, `CGRect(origin: CGPoint(x: 0.0, y: 568.0), size: …)` and LLDB's
/// `(origin = (x = 0, y = 568), size = (width = 320, height = 216))`. Words are skipped; a token
/// that mixes digits and letters (`4x09`) makes the value unreadable.
enum ConsoleValues {
    /// The numbers found in a value, or `nil` when a token is garbled or the brackets do not balance.
    static func numbers(in bytes: ArraySlice<UInt8>, limit: Int = 8) -> [Double]? {
        var values: [Double] = []
        var depth = 0
        var i = bytes.startIndex
        let end = bytes.endIndex
        while i < end {
            let c = bytes[i]
            if c == UInt8(ascii: "{") || c == UInt8(ascii: "[") || c == UInt8(ascii: "(") {
                depth += 1
                i += 1
            } else if c == UInt8(ascii: "}") || c == UInt8(ascii: "]") || c == UInt8(ascii: ")") {
                depth -= 1
                if depth < 0 { return nil }
                i += 1
            } else if isLetter(c) || c == UInt8(ascii: "_") {
                let start = i
                while i < end, isWordByte(bytes[i]) { i += 1 }
                let word = bytes[start..<i]
                if let special = specialNumber(word) {
                    let negative = start > bytes.startIndex && bytes[start - 1] == UInt8(ascii: "-")
                    values.append(negative ? -special : special)
                    if values.count > limit { return nil }
                }
            } else if isDigit(c) || (c == UInt8(ascii: ".") && i + 1 < end && isDigit(bytes[i + 1])) {
                let start = i
                // A hexadecimal address (`0x600000648c70`) is a word, not a number.
                if c == UInt8(ascii: "0"), i + 1 < end, bytes[i + 1] == UInt8(ascii: "x") || bytes[i + 1] == UInt8(ascii: "X") {
                    i += 2
                    while i < end, isWordByte(bytes[i]) { i += 1 }
                    continue
                }
                guard let (value, next) = number(in: bytes, at: start) else { return nil }
                i = next
                // `4x09`, `12abc`: a number glued to letters is garbled text.
                if i < end, isWordByte(bytes[i]) || bytes[i] == UInt8(ascii: ".") { return nil }
                let negative = start > bytes.startIndex && bytes[start - 1] == UInt8(ascii: "-")
                values.append(negative ? -value : value)
                if values.count > limit { return nil }
            } else {
                i += 1
            }
        }
        return depth == 0 ? values : nil
    }

    /// The rectangle in a value: exactly four numbers, `[x, y, width, height]` in that order.
    static func rect(in bytes: ArraySlice<UInt8>) -> Rect? {
        guard let values = numbers(in: bytes), values.count == 4 else { return nil }
        return Rect(x: values[0], y: values[1], width: values[2], height: values[3])
    }

    /// A single number (`0.25`, `"0.25"`, `Optional(0.25)`).
    static func single(in bytes: ArraySlice<UInt8>) -> Double? {
        guard let values = numbers(in: bytes), values.count == 1 else { return nil }
        return values[0]
    }

    /// A boolean: `1`/`0` (what NSNumber prints), `true`/`false`, `YES`/`NO`.
    static func bool(in bytes: ArraySlice<UInt8>) -> Bool? {
        var words: [[UInt8]] = []
        var i = bytes.startIndex
        while i < bytes.endIndex {
            if isLetter(bytes[i]) {
                let start = i
                while i < bytes.endIndex, isWordByte(bytes[i]) { i += 1 }
                words.append(bytes[start..<i].map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 })
            } else {
                i += 1
            }
        }
        let meaningful = words.filter { $0 != Array("optional".utf8) && $0 != Array("some".utf8) }
        if meaningful.count == 1 {
            switch meaningful[0] {
            case Array("true".utf8), Array("yes".utf8): return true
            case Array("false".utf8), Array("no".utf8): return false
            default: return nil
            }
        }
        guard meaningful.isEmpty, let value = single(in: bytes), value.isFinite else { return nil }
        return value != 0
    }

    /// `inf`, `infinity`, `nan` (as LLDB and `NSStringFromCGRect` print them).
    private static func specialNumber(_ word: ArraySlice<UInt8>) -> Double? {
        guard word.count <= 8 else { return nil }
        let lower = word.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }
        switch lower {
        case Array("inf".utf8), Array("infinity".utf8): return .infinity
        case Array("nan".utf8): return .nan
        default: return nil
        }
    }

    /// A decimal number starting at `start`: digits, an optional fraction, an optional exponent.
    /// Returns the value and the index after it; `nil` for a number too long to be real.
    private static func number(in bytes: ArraySlice<UInt8>, at start: Int) -> (Double, Int)? {
        var i = start
        let end = bytes.endIndex
        while i < end, isDigit(bytes[i]) { i += 1 }
        if i < end, bytes[i] == UInt8(ascii: ".") {
            i += 1
            while i < end, isDigit(bytes[i]) { i += 1 }
        }
        if i < end, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            var j = i + 1
            if j < end, bytes[j] == UInt8(ascii: "+") || bytes[j] == UInt8(ascii: "-") { j += 1 }
            if j < end, isDigit(bytes[j]) {
                while j < end, isDigit(bytes[j]) { j += 1 }
                i = j
            }
        }
        guard i - start <= 64 else { return nil }
        var text = String(decoding: bytes[start..<i], as: UTF8.self)
        if text.hasPrefix(".") { text = "0" + text }
        if text.hasSuffix(".") { text += "0" }
        guard let value = Double(text) else { return nil }
        return (value, i)
    }

    static func isLetter(_ c: UInt8) -> Bool { (c >= 65 && c <= 90) || (c >= 97 && c <= 122) }
    static func isDigit(_ c: UInt8) -> Bool { c >= 48 && c <= 57 }
    static func isWordByte(_ c: UInt8) -> Bool { isLetter(c) || isDigit(c) || c == UInt8(ascii: "_") || c == UInt8(ascii: "$") }
    /// A byte of a class name as printed: a word byte, a `.` between a module and its class, or
    /// a byte of a non-ASCII character (`MyApp.CaféField`: Swift names may have them).
    static func isClassNameByte(_ c: UInt8) -> Bool { isWordByte(c) || c == UInt8(ascii: ".") || c >= 0x80 }
}

/// An NSLog / Xcode console timestamp at the start of a line:
/// `2019-04-30 21:44:27.627646+0800 test[7689:297428] ` or `2012-01-19 13:05:48.782 App[1453:707] `.
enum NSLogTimestamp {
    /// The time in microseconds since 1970-01-01 UTC (the zone offset applied when printed), and the
    /// index after the prefix (the process `name[pid:tid]` and one space included when present).
    static func parse(_ bytes: [UInt8], at start: Int, lineEnd: Int) -> (micros: Int64, next: Int)? {
        var i = start
        func digits(_ count: Int) -> Int? {
            guard i + count <= lineEnd else { return nil }
            var value = 0
            for k in 0..<count {
                let c = bytes[i + k]
                guard ConsoleValues.isDigit(c) else { return nil }
                value = value * 10 + Int(c - 48)
            }
            i += count
            return value
        }
        func expect(_ set: String) -> Bool {
            guard i < lineEnd, set.utf8.contains(bytes[i]) else { return false }
            i += 1
            return true
        }
        let year: Int
        let month: Int
        let day: Int
        if let (syslogMonth, syslogDay, after) = syslogDate(bytes, at: start, lineEnd: lineEnd) {
            // syslog's and idevicesyslog's `May  1 12:00:04`: no year, which only relative times need.
            (year, month, day) = (2000, syslogMonth, syslogDay)
            i = after
        } else {
            guard let y = digits(4), expect("-"), let m = digits(2), expect("-"), let d = digits(2), expect(" T") else { return nil }
            (year, month, day) = (y, m, d)
        }
        guard let hour = digits(2), expect(":"), let minute = digits(2), expect(":"), let second = digits(2) else { return nil }
        guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second <= 60 else { return nil }
        var micros: Int64 = 0
        if i < lineEnd, bytes[i] == UInt8(ascii: ".") || bytes[i] == UInt8(ascii: ",") {
            i += 1
            var scale: Int64 = 100_000
            var sawDigit = false
            while i < lineEnd, ConsoleValues.isDigit(bytes[i]) {
                micros += Int64(bytes[i] - 48) * scale
                scale /= 10
                sawDigit = true
                i += 1
            }
            guard sawDigit else { return nil }
        }
        var offsetMinutes = 0
        if i < lineEnd, bytes[i] == UInt8(ascii: "Z") {
            i += 1
        } else if i < lineEnd, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") {
            let sign = bytes[i] == UInt8(ascii: "-") ? -1 : 1
            let save = i
            i += 1
            if let hh = digits(2) {
                _ = expect(":")
                let mm = digits(2) ?? 0
                offsetMinutes = sign * (hh * 60 + mm)
            } else {
                i = save
            }
        }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offsetMinutes * 60)
        let total = seconds * 1_000_000 + micros
        return (total, afterProcess(bytes, from: i, lineEnd: lineEnd))
    }

    /// After a timestamp ending at `start`: the index after the process that follows (`name[pid:tid]`
    /// and one space; names may contain spaces, so a short way ahead is looked at), or after the
    /// blanks when there is none.
    private static func afterProcess(_ bytes: [UInt8], from start: Int, lineEnd: Int) -> Int {
        var j = start
        while j < lineEnd, bytes[j] == UInt8(ascii: " ") || bytes[j] == UInt8(ascii: "\t") { j += 1 }
        let limit = min(lineEnd, j + 128)
        var k = j
        while k < limit, bytes[k] != UInt8(ascii: "[") { k += 1 }
        guard k < limit, k > j else { return j }
        var m = k + 1
        var sawDigit = false
        while m < lineEnd, ConsoleValues.isDigit(bytes[m]) || bytes[m] == UInt8(ascii: ":") {
            sawDigit = sawDigit || ConsoleValues.isDigit(bytes[m])
            m += 1
        }
        guard sawDigit, m < lineEnd, bytes[m] == UInt8(ascii: "]") else { return j }
        return m + 1 < lineEnd && bytes[m + 1] == UInt8(ascii: " ") ? m + 2 : m + 1
    }

    private static let monthNames: [[UInt8]] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        .map { Array($0.utf8) }

    /// A syslog date at `start` (`May  1 ` or `May 01 `: a month's English abbreviation, a day of
    /// one or two digits): the month, the day and the index of the hour that follows.
    private static func syslogDate(_ bytes: [UInt8], at start: Int, lineEnd: Int) -> (month: Int, day: Int, next: Int)? {
        guard start + 6 < lineEnd, let month = monthNames.firstIndex(where: { bytes[start..<start + 3].elementsEqual($0) }),
            bytes[start + 3] == UInt8(ascii: " ")
        else { return nil }
        var i = start + 4
        if bytes[i] == UInt8(ascii: " ") { i += 1 }
        var day = 0
        var count = 0
        while i < lineEnd, ConsoleValues.isDigit(bytes[i]), count < 2 {
            day = day * 10 + Int(bytes[i] - 48)
            i += 1
            count += 1
        }
        guard count > 0, (1...31).contains(day), i < lineEnd, bytes[i] == UInt8(ascii: " ") else { return nil }
        return (month + 1, day, i + 1)
    }

    /// Days since 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
