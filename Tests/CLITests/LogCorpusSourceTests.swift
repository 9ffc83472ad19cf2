import Foundation
import ResponderBusTesting
import Testing

/// `LogCorpus+Bundled.swift` is generated from the bundled example and the importer's golden logs;
/// this keeps it from drifting when either changes.
@Suite("The testing kit's corpus matches its sources")
struct LogCorpusSourceTests {
    @Test("the example session and every imported dump in the corpus equal their source files")
    func corpusMatchesSources() throws {
        let example = try #require(LogCorpus.named("sign-up-session"))
        #expect(example.text + "\n" == (try String(contentsOfFile: CLI.example, encoding: .utf8)))
        let golden = try FileManager.default.contentsOfDirectory(atPath: CLI.golden.path)
            .filter { $0.hasPrefix("import-") && $0.hasSuffix(".jsonl") }
        #expect(!golden.isEmpty)
        for file in golden {
            let name = "ios-" + file.dropFirst("import-".count).dropLast(".jsonl".count)
            let entry = try #require(LogCorpus.named(name), "\(name) is missing from the corpus; regenerate LogCorpus+Bundled.swift")
            let source = try String(contentsOf: CLI.golden.appendingPathComponent(file), encoding: .utf8)
            #expect(entry.text + "\n" == source, "\(name) differs from \(file); regenerate LogCorpus+Bundled.swift")
        }
    }
}
