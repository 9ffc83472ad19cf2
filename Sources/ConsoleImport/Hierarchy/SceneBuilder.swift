import ResponderBus

/// Turns a ``HierarchyDump`` into the model's views: a ``ViewSpec`` tree, keyed back to the
/// printed addresses.
///
/// - Kinds: `UITextField` and its subclasses → `textField`; `UITextView` and its subclasses →
///   `textView`; `UIScrollView`, `UITableView`, `UICollectionView`, their subclasses and any view
///   that prints a `contentOffset` → `scrollView`; `UIButton` and its subclasses (and the other
///   `UIControl`s a user taps: `UISegmentedControl`, `UISwitch`, `UIStepper`) → `button`;
///   `UILabel` and its subclasses → `label`; the rest → `view`. UIKit's private scrollers
///   (`UIWebScrollView`, `_UIWebViewScrollView`, `UIScroller`), WebKit's `WKScrollView` and
///   Texture's nodes (`ASEditableTextNode` → `textView`, `ASTextNode` → `label`, `ASButtonNode`
///   → `button`, `ASScrollNode`, `ASTableNode`, `ASCollectionNode` and their views →
///   `scrollView`) are known by name. An app's class is known by
///   the `baseClass = …` UIKit prints for it (its nearest UIKit class, which decides alone); a
///   UIKit subclass by its name (`UISearchBarTextField`); a class with neither is guessed from the
///   end of its name (`MyApp.PaddedField` → `textField`), which is reported once per class.
///   ``ConsoleImporter/Options/kinds`` settles a class.
/// - The keyboard's own windows and views (`UITextEffectsWindow`, `UIRemoteKeyboardWindow`,
///   `UIInputSetContainerView`, `UIInputSetHostView`, iOS 7's `UIPeripheralHostView`,
///   `UIKeyboard…`, `UIKB…`) are not the app's:
///   they and everything under them are left out.
/// - Ids: the `accessibilityIdentifier` when the dump prints one, else `Class@0xADDR`; made
///   unique with `#2`, `#3` when a dump repeats one. An address printed again (however it is
///   spelled: ``AddressTable``) is said; an editing notification of it goes to the first view.
/// - Hidden: `hidden = YES` or `alpha = 0`; disabled: `userInteractionEnabled = NO` or
///   `enabled = NO`.
/// - Secure (a password field, ``ViewSpec/isSecure``): a text input whose entry prints
///   `secureTextEntry = YES` (or `isSecureTextEntry`, `:` for `=`, `true` for `YES`), or, when it
///   prints neither, a view imported as a text field whose class name says `Secure`
///   (`MyApp.SecureTextField`, `_TtC5MyApp15SecureTextField`). UIKit's `-description` never prints
///   the flag and a password field's class is plain `UITextField`, so most dumps mark no field
///   secure; a placeholder such as `Password` is not taken as a sign.
struct SceneBuilder {
    /// Classes the caller settled (`--kind CLASS=KIND`).
    var kinds: [String: ViewKind]
    /// How deep a view may sit below its dump's root: what the log reader accepts
    /// (`RecordParser.maxDepth`). Deeper views are left out, and said.
    static let maxDepth = 255
    /// Views left out of the scenes built so far, each reported once per dump.
    var problems: [ImportProblem] = []
    /// Classes whose kind was guessed from their name, in the order first seen.
    private(set) var guessed: [(className: String, kind: ViewKind, line: Int)] = []
    private var guessedNames: Set<String> = []
    /// The classes of ``kinds`` that views of the scenes built so far have.
    private(set) var settledClasses: Set<String> = []

    init(kinds: [String: ViewKind] = [:]) {
        self.kinds = kinds
    }

    /// One dump's views.
    struct Scene {
        /// The root view.
        var root: ViewSpec
        /// The view id of each printed address (the first view printed with it).
        var addresses: AddressTable
        /// How many views and left-out keyboard views it has.
        var viewCount: Int
        /// Its text fields' and text views' ids, in the order printed.
        var textInputIDs: [ViewID]
        var keyboardViewCount: Int
        /// The root's class, and its address (a later dump with the same root address shows the
        /// same screen).
        var rootClass: String
        var rootAddress: String
        /// Whether the root is a window, whose frame is the screen.
        var isWindow: Bool
        /// Whether the root's frame is its place in the window (the dump prints it: EarlGrey's
        /// `AX.frame`, Texture's `frameInWindow`, an XCUITest element's frame), rather than its
        /// place in its superview.
        var rootPlacedInWindow = false

        /// The view id of a printed address.
        func id(ofAddress address: String) -> ViewID? { addresses[address] }

        /// The frame of every view, by id (for a later dump of the same screen, whose moved views
        /// are compared).
        func framesByID() -> [ViewID: Rect] {
            var frames: [ViewID: Rect] = [:]
            frames.reserveCapacity(viewCount)
            var stack = [root]
            while let view = stack.popLast() {
                frames[view.id] = view.frame
                stack += view.children
            }
            return frames
        }

        /// The kind of the view with `id`, found by walking the tree (for `--focus`, once).
        func kind(of id: ViewID) -> ViewKind? {
            var stack = [root]
            while let view = stack.popLast() {
                if view.id == id { return view.kind }
                stack += view.children
            }
            return nil
        }

        /// The text fields and text views a user could have been editing: neither hidden (nor
        /// inside a hidden view) nor disabled, in the order printed.
        func editableTextInputs() -> [ViewSpec] {
            editableTextInputsPlaced().map(\.view)
        }

        /// ``editableTextInputs()`` with each one's frame on the screen (its frame moved by its
        /// ancestors' origins and scroll offsets).
        func editableTextInputsPlaced() -> [(view: ViewSpec, onScreen: Rect)] {
            guard !textInputIDs.isEmpty else { return [] }
            var found: [(ViewSpec, Rect)] = []
            var stack = [(root, Point.zero)]
            while let (view, origin) = stack.popLast() {
                guard !view.isHidden else { continue }
                let placed = Rect(
                    x: origin.x + view.frame.origin.x, y: origin.y + view.frame.origin.y, width: view.frame.size.width,
                    height: view.frame.size.height)
                if view.kind.isTextInput, view.isEnabled { found.append((view, placed)) }
                let offset = view.contentOffset ?? .zero
                let inner = Point(x: placed.origin.x - offset.x, y: placed.origin.y - offset.y)
                stack += view.children.reversed().map { ($0, inner) }
            }
            return found
        }
    }

    /// Builds the scene of a dump; `nil` when its root is the keyboard's own.
    mutating func scene(of dump: HierarchyDump) -> Scene? {
        var building = SceneInProgress(expectedViews: dump.entries.count)
        for entry in dump.entries { add(entry, to: &building) }
        return finish(&building)
    }

    /// The addresses a dump printed more than once, and the ids it gave to more than one view, to
    /// be said once each: the views after the first keep their class and address (or are named
    /// `#2`, `#3`), and a notification of the address goes to the first.
    struct Renames {
        enum Key: Hashable {
            case address(String)
            case id(ViewID)
        }
        private var order: [Key] = []
        private var byKey: [Key: (line: Int, column: Int, first: ViewID, last: ViewID, count: Int)] = [:]

        /// A view printed with an address printed before, named `id`.
        mutating func noteAddress(_ address: String, named id: ViewID, entry: HierarchyEntry) {
            note(.address(AddressTable.spelling(of: address)), named: id, entry: entry)
        }

        /// A view whose id (an accessibilityIdentifier) another view has, renamed `renamed`.
        mutating func noteID(_ id: ViewID, renamed: ViewID, entry: HierarchyEntry) {
            note(.id(id), named: renamed, entry: entry)
        }

        private mutating func note(_ key: Key, named id: ViewID, entry: HierarchyEntry) {
            if let seen = byKey[key] {
                byKey[key] = (seen.line, seen.column, seen.first, id, seen.count + 1)
            } else {
                order.append(key)
                byKey[key] = (entry.line, entry.column, id, id, 2)
            }
        }

        /// One note per address or id, at the first view after the first.
        func problems() -> [ImportProblem] {
            order.compactMap { key in
                guard let seen = byKey[key] else { return nil }
                let later = seen.count == 2 ? "the later one is named \(seen.last)" : "the later ones are named \(seen.first) to \(seen.last)"
                let message =
                    switch key {
                    case .address(let address):
                        "the address \(address) is printed \(seen.count) times in this dump; \(later), and an editing notification of \(address) goes to the first"
                    case .id(let id):
                        "the id \(id) is given to \(seen.count) views of this dump (the accessibilityIdentifier they print); \(later)"
                    }
                return ImportProblem(kind: .renamedViews, line: seen.line, column: seen.column, message: message)
            }
        }
    }

    // MARK: Kinds

    /// The keyboard's own windows and views.
    static func isKeyboardView(_ className: String) -> Bool {
        // Every one is UIKit's: an app's class is not looked up at all.
        guard className.utf8.first == UInt8(ascii: "U") || className.utf8.first == UInt8(ascii: "_") else { return false }
        if keyboardClassNames.contains(className) { return true }
        return ["UIKeyboard", "UIKB", "_UIKB", "_UIKeyboard"].contains { className.hasPrefix($0) }
    }

    private static let keyboardClassNames: Set<String> = [
        "UITextEffectsWindow", "UIRemoteKeyboardWindow", "UIInputSetContainerView", "UIInputSetHostView",
        "UICompatibilityInputViewController", "UIInputWindowController", "_UIRemoteKeyboardPlaceholderView",
        // iOS 5 to 7: the keyboard's host view in the text-effects window.
        "UIPeripheralHostView",
    ]

    private static let scrollClasses: Set<String> = ["UIScrollView", "UITableView", "UICollectionView"]

    /// The model's kind for an entry (see the type's discussion).
    mutating func kind(of entry: HierarchyEntry) -> ViewKind {
        let name = entry.className
        if !kinds.isEmpty, let settled = kinds[name] {
            settledClasses.insert(name)
            return settled
        }
        if let known = Self.knownKind(name, baseClass: entry.baseClass) { return known }
        if entry.contentOffset != nil { return .scrollView }
        // What the view says it is to accessibility, over what its name suggests (React Native's
        // `RCTTextView` is a label).
        if let traitKind = entry.traitKind, !name.hasPrefix("UI"), !name.hasPrefix("_UI") { return traitKind }
        // An app's own class (not UIKit's): guessed from its name, and said so once.
        guard !name.hasPrefix("UI"), !name.hasPrefix("_UI"), let guess = Self.guess(name) else { return .view }
        if guessedNames.insert(name).inserted { guessed.append((name, guess, entry.line)) }
        return guess
    }

    /// The kind UIKit's own names say, or `nil`. A printed `baseClass` (the nearest UIKit class of
    /// an app's class) decides alone.
    static func knownKind(_ name: String, baseClass: String?) -> ViewKind? {
        if let baseClass { return uikitKind(baseClass) ?? .view }
        return uikitKind(name) ?? frameworkKinds[name]
    }

    /// Classes of other frameworks whose kind is known: Texture's (AsyncDisplayKit's) nodes and
    /// views, and WebKit's scroll view.
    private static let frameworkKinds: [String: ViewKind] = [
        "ASEditableTextNode": .textView, "ASTextNode": .label, "ASTextNode2": .label, "ASButtonNode": .button,
        "ASScrollNode": .scrollView, "ASTableNode": .scrollView, "ASTableView": .scrollView, "ASCollectionNode": .scrollView,
        "ASCollectionView": .scrollView, "ASPagerNode": .scrollView, "WKScrollView": .scrollView,
    ]

    /// The kind of a UIKit class by its name: the text inputs and the scroll views, with their
    /// UIKit subclasses (`UISearchBarTextField`, `UISearchTextField`).
    private static func uikitKind(_ name: String) -> ViewKind? {
        // Only UIKit's own names are known; an app's `…TextView` may be any view (React Native's
        // `RCTTextView` is a label), so it is a guess.
        let isUIKit = name.hasPrefix("UI") || name.hasPrefix("_UI")
        if name == "UITextField" || (isUIKit && name.hasSuffix("TextField")) { return .textField }
        if name == "UITextView" || (isUIKit && name.hasSuffix("TextView")) { return .textView }
        // UIKit's private scrollers are scroll views too, by name, when they print no offset:
        // `UIWebScrollView`, `_UIWebViewScrollView`, iPhone OS 2's `UIScroller`.
        if scrollClasses.contains(name) || (isUIKit && (name.hasSuffix("ScrollView") || name.hasSuffix("Scroller"))) { return .scrollView }
        if name == "UIButton" || (isUIKit && name.hasSuffix("Button")) || controlClasses.contains(name) { return .button }
        if name == "UILabel" || (isUIKit && name.hasSuffix("Label")) { return .label }
        return nil
    }

    private static let controlClasses: Set<String> = ["UISegmentedControl", "UISwitch", "UIStepper"]

    /// Whether an entry of `kind` is a password field (see the type's discussion): what it prints
    /// decides; otherwise a text field whose class name has `Secure` in it (case-sensitive, so that
    /// `InsecureField` is not one).
    static func isSecure(_ entry: HierarchyEntry, kind: ViewKind) -> Bool {
        guard kind.isTextInput else { return false }
        if let printed = entry.isSecureTextEntry { return printed }
        return kind == .textField && entry.className.contains("Secure")
    }

    /// A guess from the end of an app's class name: `…Field` → text field, `…TextView`/`…TextArea`/
    /// `…Editor` → text view, `…ScrollView`/`…TableView`/`…CollectionView` → scroll view, `…Button`
    /// → button, `…Label` → label.
    static func guess(_ name: String) -> ViewKind? {
        let last = name.split(separator: ".").last.map(String.init) ?? name
        if last.hasSuffix("Field") { return .textField }
        if last.hasSuffix("TextView") || last.hasSuffix("TextArea") || last.hasSuffix("Editor") { return .textView }
        if last.hasSuffix("ScrollView") || last.hasSuffix("TableView") || last.hasSuffix("CollectionView") { return .scrollView }
        if last.hasSuffix("Button") { return .button }
        if last.hasSuffix("Label") { return .label }
        return nil
    }
}
