/// Why ``Bus/register(_:at:)`` refused a plugin.
public struct PluginRegistrationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: Hashable, Sendable {
            case duplicateName, unknownAnchor, noCapability
        }
        private let value: Value

        /// A plugin with the same name is already registered.
        public static let duplicateName = Code(value: .duplicateName)
        /// The plugin named in `.before`/`.after` is not registered.
        public static let unknownAnchor = Code(value: .unknownAnchor)
        /// The plugin conforms to none of the capability protocols, so it would never be called.
        public static let noCapability = Code(value: .noCapability)

        /// The code's name.
        public var description: String { String(describing: value) }
    }

    /// The kind of failure.
    public let code: Code
    /// What went wrong and what to do.
    public let message: String

    /// An error of `code` saying `message`.
    package init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    /// Compares by code only.
    public static func == (a: Self, b: Self) -> Bool { a.code == b.code }
    /// Hashes the code only.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// The message.
    public var description: String { message }
}
