import EventLog
import ResponderBus
import Testing

@Suite("DerivedVerifier: decisions compared, diagnostics only when asked")
struct DerivedVerifierTests {
    static func diagnostic(_ message: String, views: [ViewID] = [], failure: Diagnostic.Failure? = nil) -> LogRecord {
        LogRecord(
            t: 1, event: .diagnostic(Diagnostic(level: .warning, message: message, failure: failure, views: views)),
            origin: .derived(by: "Warner"))
    }
    static let shift = LogRecord(
        t: 1, event: .viewShift(ViewShift(originY: -20, duration: 0.25, curve: 7)), origin: .derived(by: "KeyboardAvoidance"))

    @Test("by default a changed diagnostic is not a difference; with includingDiagnostics it is, views included")
    func diagnostics() {
        let lenient = DerivedVerifier()
        lenient.addRecorded(Self.diagnostic("old wording", views: ["a"]), at: RecordLocation(line: 3))
        lenient.addProduced(Self.diagnostic("new wording", views: ["b"]))
        lenient.addRecorded(Self.shift, at: RecordLocation(line: 4))
        lenient.addProduced(Self.shift)
        #expect(lenient.firstDifference == nil)
        #expect(lenient.matched == 1)

        let strict = DerivedVerifier(includingDiagnostics: true)
        strict.addRecorded(Self.diagnostic("the same", views: ["a"]), at: RecordLocation(line: 3))
        strict.addProduced(Self.diagnostic("the same", views: ["b"]))
        #expect(strict.firstDifference?.contains("line 3") == true)
    }

    @Test("a diagnostic read back from a log matches the one the bus made, whose typed failure a log does not keep")
    func failureIsNotCompared() {
        let verifier = DerivedVerifier(includingDiagnostics: true)
        verifier.addRecorded(Self.diagnostic("threw"), at: RecordLocation(line: 2))
        verifier.addProduced(Self.diagnostic("threw", failure: .pluginThrew))
        #expect(verifier.firstDifference == nil)
        #expect(verifier.matched == 1)
    }
}
