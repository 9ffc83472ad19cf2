extension ExternalPlugin.Configuration {
    /// Splits a command line into words the way a POSIX shell would — blanks separate words;
    /// single quotes keep everything literally; double quotes keep blanks, with a backslash escaping a double
    /// quote, a backslash, a dollar sign or a backquote; a backslash outside quotes keeps the next character — without expanding
    /// anything (no variables, globs, pipes or redirections) and without running a shell.
    ///
    /// ```swift
    /// try ExternalPlugin.Configuration.words(of: "python3 'my plugin.py' --gap=8")
    /// // ["python3", "my plugin.py", "--gap=8"]
    /// ```
    ///
    /// - Throws: ``ExternalPluginError/Code/cannotStart`` for an unterminated quote, a trailing
    ///   backslash or an empty command.
    public static func words(of commandLine: String) throws(ExternalPluginError) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var characters = commandLine.makeIterator()
        while let character = characters.next() {
            switch character {
            case " ", "\t", "\n":
                if inWord { words.append(current) }
                current = ""
                inWord = false
            case "'":
                inWord = true
                var closed = false
                while let next = characters.next() {
                    if next == "'" {
                        closed = true
                        break
                    }
                    current.append(next)
                }
                guard closed else { throw ExternalPluginError(.cannotStart, "unterminated single quote in '\(commandLine)'") }
            case "\"":
                inWord = true
                var closed = false
                while let next = characters.next() {
                    if next == "\"" {
                        closed = true
                        break
                    }
                    if next == "\\" {
                        guard let escaped = characters.next() else { break }
                        if !["\"", "\\", "$", "`"].contains(escaped) { current.append("\\") }
                        current.append(escaped)
                        continue
                    }
                    current.append(next)
                }
                guard closed else { throw ExternalPluginError(.cannotStart, "unterminated double quote in '\(commandLine)'") }
            case "\\":
                guard let escaped = characters.next() else {
                    throw ExternalPluginError(.cannotStart, "a backslash ends '\(commandLine)'")
                }
                inWord = true
                current.append(escaped)
            default:
                inWord = true
                current.append(character)
            }
        }
        if inWord { words.append(current) }
        guard !words.isEmpty else { throw ExternalPluginError(.cannotStart, "the plugin command is empty") }
        return words
    }
}
