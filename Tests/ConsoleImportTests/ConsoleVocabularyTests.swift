import ResponderBus
import Testing

@testable import ConsoleImport

/// The importer's share of the one event vocabulary (EventLogTests' `EventVocabularyTests` checks
/// the bus's, the log's and the parser's names against `BuiltinEvent`).
@Suite("One event vocabulary: the console importer's names agree with BuiltinEvent")
struct ConsoleVocabularyTests {
    @Test("the importer knows each keyboard event by UIKit's notification name")
    func uikitNames() {
        for entry in BuiltinEvent.allCases {
            guard let uikit = entry.uikitNotificationName else { continue }
            let word = ConsoleWord.classify(Array(uikit.utf8)[...])
            guard case .keyboardName(let event) = word else {
                Issue.record("\(uikit) is not a keyboard name to the importer: \(word)")
                continue
            }
            #expect(event.rawValue == entry.name)
        }
    }
}
