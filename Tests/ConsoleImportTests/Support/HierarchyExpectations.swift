import ResponderBus

/// What a person reading a view-hierarchy fixture (`Tests/Fixtures/hierarchy-dumps/`) sees in it,
/// written down by hand from the dump's text — never produced by the importer. The importer's
/// tests compare what it reads with these.
///
/// The counting rules (the same the importer follows):
/// - A **view** is one `<Class: 0xADDR; …>` entry that begins a dump line (after its `|` depth
///   markers, indentation, comment markers or prefixes). Descriptions nested inside another entry's
///   values (`textfield=<UITextField: 0x…>`, `layer = <CALayer: 0x…>`, `gestureRecognizers = <NSArray: 0x…>`)
///   are not views, and neither are lines ending in `(layer)`. An entry that prints no frame is not
///   a view either: a view always prints one (`frame = (x y; w h)`, or `Frame: (x, y, w, h)` after
///   the entry in one app), while a view controller, the application or its delegate printed alone
///   (`<AppDelegate: 0x…>`) prints none.
/// - The keyboard's own windows and views are not app views and are not counted, with everything
///   under them: `UITextEffectsWindow`, `UIRemoteKeyboardWindow`, `UIInputSetContainerView`,
///   `UIInputSetHostView`, `UIKeyboard…`, `UIKB…`, `_UIKB…`, `UIInputWindowController`'s views.
/// - An entry cut off before its closing `>` (the stored text ends mid-entry) is not counted; the
///   whole entries before it are.
/// - A file may hold several dumps (several roots at depth 0, or excerpts): one ``ExpectedDump``
///   each, in the order they appear.
struct HierarchyFixtureExpectation {
    /// The dumps in the file, in order.
    var dumps: [ExpectedDump]
    /// Editing notifications in the same file whose `object` address is a view of one of its
    /// dumps, in order.
    var links: [ExpectedLink] = []
    /// Whether the text is cut off somewhere (by the author's `...`, or where the stored copy ends).
    var cutOff: Bool = false
}

/// One dump: how many views it has, and every text input and scroll view among them, in the order
/// their entries appear.
struct ExpectedDump {
    /// The number of views (see the counting rules on ``HierarchyFixtureExpectation``).
    var views: Int
    /// Every text field, search field and text view (`UITextField`, `UISearchBarTextField`,
    /// `UITextView` and their subclasses; a class is a subclass when the dump prints
    /// `baseClass = UITextField`, or its name ends in `TextField` or `TextView`).
    var inputs: [ExpectedInput] = []
    /// Every scroll view that is not a text view (`UIScrollView`, `UITableView`,
    /// `UICollectionView`, their subclasses, and any other entry that prints a `contentOffset`).
    var scrollViews: [ExpectedScroll] = []
}

/// A text input as its entry shows it.
struct ExpectedInput {
    /// The class name as printed (`UITextField`, `UISearchBarTextField`, `MyApp.PaddedField`).
    var className: String
    /// `.textField` or `.textView`.
    var kind: ViewKind
    /// `frame = (x y; w h)` as printed, in the parent's coordinates.
    var frame: Rect
    /// `tag = N` when printed, else nil.
    var tag: Int? = nil
    /// `hidden = YES`, or `alpha = 0`, on this entry itself.
    var hidden: Bool = false
    /// `false` when this entry prints `userInteractionEnabled = NO` or `enabled = NO`.
    var enabled: Bool = true
    /// `true` when this entry prints `secureTextEntry = YES`, or it is a text field whose class
    /// name says `Secure`. No real dump in the folder does: UIKit never prints the flag.
    var secure: Bool = false
}

/// A scroll view as its entry shows it.
struct ExpectedScroll {
    /// The class name as printed.
    var className: String
    /// `contentOffset: {x, y}` (or `contentOffset = {x, y}`) as printed; `.zero` when not printed.
    var contentOffset: Point = .zero
    /// `contentSize: {w, h}` when printed, else nil.
    var contentSize: Size? = nil
}

/// An editing notification linked to a view of a dump by its `object` address.
struct ExpectedLink {
    /// `true` for a begin-editing notification, `false` for end-editing.
    var isBegin: Bool
    /// The address printed in the notification's `object = <Class: 0xADDR; …>`, as printed (`0x7f9…`).
    var address: String
}

enum HierarchyExpectations {
    /// Every fixture file's expectation, by file name.
    static var all: [String: HierarchyFixtureExpectation] {
        given.merging(collected) { first, _ in first }
    }
}
