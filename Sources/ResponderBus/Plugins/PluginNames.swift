/// Finding the name someone meant among the plugins' names.
package enum PluginNames {
    /// `"; did you mean 'KeyboardAvoidance'?"` when one of `names` is near `name` (a few typing
    /// mistakes, or only letter case, apart), or an empty string.
    package static func suggestion(for name: String, among names: [String]) -> String {
        nearest(to: name, among: names).map { "; did you mean '\($0)'?" } ?? ""
    }

    /// The name in `names` nearest to `name`, if one is near enough: at most a third of its letters
    /// apart (at least 1, at most 3), ignoring letter case.
    package static func nearest(to name: String, among names: [String]) -> String? {
        let wanted = Array(name.lowercased())
        let limit = min(3, max(1, wanted.count / 3))
        var best: (name: String, distance: Int)?
        for candidate in names {
            let distance = editDistance(wanted, Array(candidate.lowercased()))
            if distance <= limit, distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        return best?.name
    }

    /// The Levenshtein distance between two strings of characters.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
