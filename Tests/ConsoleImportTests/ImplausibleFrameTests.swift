import EventLog
import ResponderBus
import Testing

@testable import ConsoleImport

/// Issue 33, item 6: implausible keyboard frames are said at import, with line and column, and kept.
@Suite("Implausible keyboard frames: said at import where they are printed, and imported as they are")
struct ImplausibleFrameTests {
    let portrait = Size(width: 375, height: 667)

    @Test("the rule: wider than the screen, or with an area and entirely off it; the hidden place and empty frames are plausible")
    func rule() {
        func why(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> String? {
            KeyboardFramePlausibility.problem(with: Rect(x: x, y: y, width: w, height: h), on: portrait)
        }
        #expect(why(0, 451, 375, 216) == nil, "docked")
        #expect(why(0, 667, 375, 216) == nil, "the hidden keyboard's place, just below")
        #expect(why(0, 667, 375, 0) == nil, "no area: covers nothing")
        #expect(why(0, 0, 0, 0) == nil)
        #expect(why(100, 300, 200, 100) == nil, "a floating keyboard inside the screen")
        #expect(why(0, 451, 667, 216) == "is wider (667) than the 375×667 screen")
        #expect(why(-216, 0, 216, 667) == "lies entirely off the 375×667 screen, to its left")
        #expect(why(375, 0, 216, 667)?.hasPrefix("lies entirely off the 375×667 screen, to its right") == true)
        #expect(why(0, -216, 375, 216) == "lies entirely off the 375×667 screen, above it")
        // A landscape frame on the portrait screen: it fits the screen turned the other way.
        #expect(
            why(0, 375, 667, 162)
                == "is wider (667) than the 375×667 screen; it fits the 667×375 screen: a frame in the other orientation's coordinates?")
        #expect(
            why(0, 800, 375, 216)
                == "lies entirely off the 375×667 screen, below it, past the hidden keyboard's place")
    }

    @Test("a console with a frame of the other orientation: said at the frame's line and column, the notification kept")
    func saidAndKept() throws {
        let console = """
            2024-05-01 12:00:00.000 App[1:2] show {
                UIKeyboardFrameEndUserInfoKey = "NSRect: {{0, 451}, {375, 216}}";
            }
            2024-05-01 12:00:01.000 App[1:2] show {
                UIKeyboardFrameEndUserInfoKey = "NSRect: {{0, 213}, {667, 162}}";
            }
            """
        let result = ConsoleImporter(options: .init(screen: portrait)).importDump(console)
        let problems = result.problems.filter { $0.kind == .implausibleKeyboardFrame }
        let problem = try #require(problems.first, "\(result.problems)")
        #expect(problems.count == 1)
        #expect(problem.line == 5)
        #expect(problem.column == 37)
        #expect(problem.message.contains("[0, 213, 667, 162]"))
        #expect(problem.message.contains("the other orientation's coordinates?"))
        #expect(problem.message.contains("(the screen is given)"))
        let ends = result.records.compactMap { record -> Rect? in
            if case .keyboard(_, let info) = record.event { return info.end }
            return nil
        }
        #expect(ends == [Rect(x: 0, y: 451, width: 375, height: 216), Rect(x: 0, y: 213, width: 667, height: 162)], "both kept")
    }
}
