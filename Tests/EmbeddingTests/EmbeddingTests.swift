import Foundation
import ResponderBusPlatform
import ResponderBusTesting
import Testing

/// The example package `Examples/Embedding` — four programs a dependent could write — built once
/// as a package of its own over this repository, and run: `session-checker` against
/// `responder-bus test`, `import-report` on a real console, `live-service` on the libuv loop,
/// `live-ingest` against `responder-bus replay`.
@Suite("Examples/Embedding: built as a dependent package and run", .serialized)
struct EmbeddingTests {
    static let article = "Sources/ResponderBusReplay/ResponderBusReplay.docc/EmbeddingResponderBus.md"
    static let programs = [
        "Examples/Embedding/Sources/session-checker/main.swift", "Examples/Embedding/Sources/live-service/main.swift",
        "Examples/Embedding/Sources/import-report/main.swift", "Examples/Embedding/Sources/live-ingest/main.swift",
    ]

    @Test("the article's four programs are Examples/Embedding's, word for word, and it names every library product")
    func article() throws {
        let article = try String(contentsOf: Run.repository.appendingPathComponent(Self.article), encoding: .utf8)
        let blocks = article.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "```\n")[0] }
        for program in Self.programs {
            let source = try String(contentsOf: Run.repository.appendingPathComponent(program), encoding: .utf8)
            #expect(blocks.contains(source), "\(Self.article) and \(program) differ: change both")
        }
        let manifest = try String(contentsOf: Run.repository.appendingPathComponent("Package.swift"), encoding: .utf8)
        let products = manifest.matches(of: #/\.library\(name: "([^"]+)"/#).map { String($0.output.1) }
        #expect(products.count >= 13)
        for product in products {
            #expect(article.contains(#".product(name: "\#(product)", package: "ResponderBus")"#), "the article does not list \(product)")
        }
    }

    @Test("the example package builds with `swift build` (once per test run)")
    func builds() throws {
        _ = try ExamplePackage.binaries()
    }

    @Test("session-checker prints, writes and exits with what `responder-bus test` does, timings aside")
    func sessionChecker() throws {
        let binaries = try ExamplePackage.binaries()
        let folder = try Run.temporaryFolder("sessions")
        let examples = Run.repository.appendingPathComponent("Sources/responder-bus/Examples")
        let signUp = try String(contentsOf: examples.appendingPathComponent("sign-up-session.jsonl"), encoding: .utf8)
        #expect(signUp.contains(#""originY":-129,"#))
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("nested"), withIntermediateDirectories: true)
        let sessions = [
            "sign-up-session.jsonl": signUp,  // passes
            "nested/sign-up-session.jsonl": signUp,  // passes, in a folder of its own
            // A recorded decision edited: avoidance derives -129, the log says -130.
            "sign-up-edited.jsonl": signUp.replacingOccurrences(of: #""originY":-129,"#, with: #""originY":-130,"#),
            // Its 427 pt text view stays 18 pt under the keyboard: the coverage check fails it.
            "imported-textview-375x667.jsonl": try String(
                contentsOf: examples.appendingPathComponent("imported-textview-375x667.jsonl"), encoding: .utf8),
            "not-a-log.jsonl": "not a log\n",  // unreadable
        ]
        for (name, text) in sessions { try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        let results = try Run.temporaryFolder("results")

        let cli = try Run.program(Run.cli, ["test", folder.path, "--junit", results.appendingPathComponent("cli.xml").path])
        let checker = try Run.program(
            binaries.appendingPathComponent("session-checker"), [folder.path, "--junit", results.appendingPathComponent("checker.xml").path])
        #expect(cli.status == 1, "\(cli.stderr)")
        #expect(checker.status == cli.status, "\(checker.stderr)")
        let lines = Masked.lines(checker.stdout)
        #expect(lines == Masked.lines(cli.stdout))
        #expect(
            lines == [
                "FAIL  sessions/imported-textview-375x667.jsonl: check: the focused field was left covered 1 time; the first at t 0.25: "
                    + "'UITextView@0x105836000' is covered by 18 pt (field [26, 0, 343, 427], keyboard top 409); why: 'UITextView@0x105836000' "
                    + "stays covered by 18 pt: the field is taller than the room between the safe area's top (y 0) and the keyboard, so "
                    + "avoidance keeps its top in view: the root moves up 230 pt, not the 268 pt its bottom with its 20 pt gap needs (the top clamp)",
                "pass  sessions/nested/sign-up-session.jsonl (43 events, 10 derived, … ms)",
                "UNREADABLE  sessions/not-a-log.jsonl: unreadable: line 1, column 1: line 1 is not a header: expected '{' "
                    + "(each line is one JSON object), found 'n'",
                "FAIL  sessions/sign-up-edited.jsonl: verify: derived event #3 differs: the log has "
                    + #"{"by":"KeyboardAvoidance","curve":7,"duration":0.25,"event":"viewShift","origin":"derived","originY":-130,"t":3} (line 15); "#
                    + #"the replay derived {"by":"KeyboardAvoidance","curve":7,"duration":0.25,"event":"viewShift","origin":"derived","originY":-129,"t":3}"#,
                "pass  sessions/sign-up-session.jsonl (43 events, 10 derived, … ms)",
                "5 sessions: 2 passed, 2 failed, 1 unreadable; 132 events in …",
            ], "\(checker.stdout)")
        let junit = try Masked.junit(String(contentsOf: results.appendingPathComponent("checker.xml"), encoding: .utf8))
        #expect(junit == (try Masked.junit(String(contentsOf: results.appendingPathComponent("cli.xml"), encoding: .utf8))))
        #expect(junit.contains(#"<testsuites name="responder-bus test" tests="5" failures="2" errors="1" skipped="0" time="…">"#))
    }

    @Test("import-report replays a real console and window from memory: the report and the frame `responder-bus` makes of its import, no log")
    func importReport() throws {
        let binaries = try ExamplePackage.binaries()
        let fixtures = Run.repository.appendingPathComponent("Tests/Fixtures")
        let name = "05-swift-iphone6-375x667-begin216-end258.txt"
        let console = fixtures.appendingPathComponent("ios-logs/" + name).path
        let window = fixtures.appendingPathComponent("hierarchy-dumps/03-monkeydev-cycript-pviews-375x667-textview-multiline-text-value.txt").path
        let folder = try Run.temporaryFolder("import")
        let run = try Run.program(
            binaries.appendingPathComponent("import-report"),
            [console, "--scene", window, "--focus", "0x105836000", "-o", "report.html", "--frame-at", "0.3", "--svg", "frame.svg"],
            in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "\(name): 3 records replayed, 2 derived; wrote report.html\n")
        // Nothing but the report and the frame: no log was written on the way.
        #expect(try FileManager.default.subpathsOfDirectory(atPath: folder.path).sorted() == ["frame.svg", "report.html"])

        let html = try String(contentsOf: folder.appendingPathComponent("report.html"), encoding: .utf8)
        #expect(html.hasPrefix("<!DOCTYPE html>") && html.hasSuffix("</html>\n"))
        // Self-contained: nothing is fetched; its links and `url(…)`s point inside the page.
        for reference in ["src=", "<link", "@import"] {
            #expect(!html.contains(reference), "the report refers to something outside it: \(reference)")
        }
        for reference in ["url(", "href=\""] {
            #expect(html.components(separatedBy: reference).dropFirst().allSatisfy { $0.hasPrefix("#") }, "\(reference) outside the page")
        }
        // Every record is a row: the three imported, then avoidance's decision and why the text
        // view stays covered (the top clamp).
        let rows = try html.matches(of: Regex(#"<tr id="r\d+" class="(ext|dec)"><td>\d+</td><td>[^<]*</td><td>([^<]*)</td>"#)).map {
            "\($0.output[1].substring ?? "") \($0.output[2].substring ?? "")"
        }
        #expect(rows == ["ext scene", "ext keyboardWillChangeFrame", "ext didBeginEditing", "dec viewShift", "dec diagnostic"])
        #expect(html.contains("textView UITextView"))

        // The same bytes as `responder-bus import` to a log of the console's name, then `replay --report`
        // and `render --at 0.3`.
        let cli = try Run.temporaryFolder("cli")
        let log = cli.appendingPathComponent(name).path
        let imported = try Run.program(Run.cli, ["import", console, "--scene", window, "--focus", "0x105836000", "-o", log])
        #expect(imported.status == 0, "\(imported.stderr)")
        let report = cli.appendingPathComponent("report.html").path
        #expect(try Run.program(Run.cli, ["replay", log, "--report", report]).status == 0)
        #expect(try String(contentsOfFile: report, encoding: .utf8) == html)
        let frame = cli.appendingPathComponent("frame.svg").path
        #expect(try Run.program(Run.cli, ["render", log, "--at", "0.3", "-o", frame]).status == 0)
        let svg = try String(contentsOf: folder.appendingPathComponent("frame.svg"), encoding: .utf8)
        #expect(svg.contains("UITextView@0x105836000 · textView"))
        #expect(try String(contentsOfFile: frame, encoding: .utf8) == svg)
    }

    @Test("live-service: four producer threads, the built-in plugins on the libuv loop, consumers awaiting; it ends by itself")
    func liveService() throws {
        let binaries = try ExamplePackage.binaries()
        let run = try Run.program(binaries.appendingPathComponent("live-service"), [], timeout: 60)
        #expect(run.status == 0, "\(run.stderr)")
        // 4 × 250 keyboard events received, and each Return in fields 1–4 a FieldAdvancing decision.
        #expect(
            run.stdout == """
                received 1000 keyboard events and 1000 decisions from 4 threads
                loop closed cleanly: true

                """)
    }
}

extension EmbeddingTests {
    @Test(
        "live-ingest: five devices' sessions pushed from threads into one libuv loop decide, each, exactly what `responder-bus replay --format jsonl` does; its stream and its halfway report work mid-session"
    )
    func liveIngest() throws {
        let binaries = try ExamplePackage.binaries()
        let examples = Run.repository.appendingPathComponent("Sources/responder-bus/Examples")
        let folder = try Run.temporaryFolder("devices")
        // The example twice (two devices with one session), the imported text view, two corpus logs.
        var logs = [
            examples.appendingPathComponent("sign-up-session.jsonl").path, examples.appendingPathComponent("imported-textview-375x667.jsonl").path,
        ]
        let copy = folder.appendingPathComponent("second-device.jsonl")
        try FileManager.default.copyItem(atPath: logs[0], toPath: copy.path)
        logs.append(copy.path)
        for entry in LogCorpus.all.filter({ $0.text.contains("didBeginEditing") }).prefix(2) {
            let path = folder.appendingPathComponent("\(entry.name).jsonl")
            try entry.text.write(to: path, atomically: true, encoding: .utf8)
            logs.append(path.path)
        }
        let run = try Run.program(binaries.appendingPathComponent("live-ingest"), logs, timeout: 120)
        #expect(run.status == 0, "\(run.stderr)")
        let sections = run.stdout.components(separatedBy: "\n").split { line in logs.contains { line.hasPrefix($0 + ": ") } }
        let headings = run.stdout.components(separatedBy: "\n").filter { line in logs.contains { line.hasPrefix($0 + ": ") } }
        #expect(headings.count == logs.count, "\(run.stdout)")
        for (index, log) in logs.enumerated() where index < headings.count {
            #expect(headings[index].hasPrefix(log + ": "), "in the order given")
            let cli = try Run.program(Run.cli, ["replay", log, "--format", "jsonl"])
            let expected = cli.stdout.components(separatedBy: "\n").filter { !$0.isEmpty && !$0.contains(#""event":"summary""#) }
            let got = index < sections.count ? sections[index].filter { !$0.isEmpty } : []
            #expect(got == expected, "\(log): the device's decisions are the CLI's")
            let numbers = headings[index].matches(of: /(\d+) decisions halfway, (\d+) in all/).first
            let halfway = numbers.flatMap { Int($0.output.1) } ?? -1
            #expect(numbers.flatMap { Int($0.output.2) } == expected.count, "\(headings[index])")
            #expect(halfway >= 0 && halfway <= expected.count, "\(headings[index])")
            if log == logs[0] { #expect(halfway > 0 && halfway < expected.count, "the example decides in both halves: \(headings[index])") }
        }
    }
}

/// `swift package responder-bus …`, the command plugin a dependent package gets, run in
/// Examples/Embedding (whose `sessions/` holds the bundled example) with the example's scratch
/// folder, after its build.
@Suite("swift package responder-bus: the command plugin in a dependent package", .serialized)
struct CommandPluginTests {
    static let package = Run.repository.appendingPathComponent("Examples/Embedding")

    @Test("the package's sessions/ holds the bundled example as it is")
    func sessionsAreTheExample() throws {
        let bundled = try Data(contentsOf: Run.repository.appendingPathComponent("Sources/responder-bus/Examples/sign-up-session.jsonl"))
        #expect(try Data(contentsOf: Self.package.appendingPathComponent("sessions/sign-up-session.jsonl")) == bundled)
    }

    /// As a user on Linux types it: no sandbox, so no `--allow-writing-to-package-directory` (on
    /// macOS the plugin asks for it).
    @Test("`swift package responder-bus test --junit out.xml` tests sessions/: the command's lines, and JUnit with paths relative to the package")
    func testsSessions() throws {
        _ = try ExamplePackage.binaries()
        let junit = Self.package.appendingPathComponent("out.xml")
        defer { try? FileManager.default.removeItem(at: junit) }
        let plugin = try Run.program(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "swift", "package", "--disable-build-manifest-caching", "--package-path", Self.package.path, "--scratch-path",
                Run.repository.appendingPathComponent(".build-embedding").path, "responder-bus", "test", "--junit", "out.xml",
            ], in: Run.repository, timeout: 1800)
        #expect(plugin.status == 0, "\(plugin.stdout)\(plugin.stderr)")
        // The command's own lines, run by hand in the package's folder.
        let cli = try Run.program(Run.cli, ["test", "sessions", "--junit", "/dev/null"], in: Self.package)
        #expect(cli.status == 0, "\(cli.stderr)")
        let lines = Masked.lines(cli.stdout)
        #expect(!lines.isEmpty)
        #expect(Masked.lines(plugin.stdout).suffix(lines.count) == lines[...], "\(plugin.stdout)")
        let written = try String(contentsOf: junit, encoding: .utf8)
        #expect(written.contains(#"file="sessions/sign-up-session.jsonl""#), "\(written)")
        #expect(!written.contains(Self.package.path), "paths relative to the package")
    }

    @Test("a failing command fails `swift package responder-bus`")
    func failureIsPassedOn() throws {
        _ = try ExamplePackage.binaries()
        let plugin = try Run.program(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "swift", "package", "--disable-build-manifest-caching", "--package-path", Self.package.path, "--scratch-path",
                Run.repository.appendingPathComponent(".build-embedding").path, "responder-bus", "replay", "sessions/missing.jsonl",
            ], in: Run.repository, timeout: 1800)
        #expect(plugin.status == 1)
        // SwiftPM passes what a plugin (and so the command) writes to standard error on to its own
        // standard output.
        #expect(plugin.stdout.contains("cannot open 'sessions/missing.jsonl'"), "\(plugin.stdout)")
        #expect(plugin.stderr.contains("responder-bus replay exited with status 66"), "\(plugin.stderr)")
    }
}

/// The example package, built once per test process into `.build-embedding`.
enum ExamplePackage {
    struct BuildFailed: Error, CustomStringConvertible {
        var description: String
    }

    /// The folder the three programs were built into; the build's failure, with SwiftPM's output.
    static func binaries() throws -> URL { try built.get() }

    private static let built: Result<URL, BuildFailed> = {
        let scratch = Run.repository.appendingPathComponent(".build-embedding")
        // Without manifest caching: SwiftPM then sees files added to ResponderBus (the path
        // dependency) since the scratch folder's last build, instead of compiling a stale list.
        let arguments = [
            "build", "--disable-build-manifest-caching", "--package-path", Run.repository.appendingPathComponent("Examples/Embedding").path,
            "--scratch-path", scratch.path,
        ]
        let start = Date()
        let run: Run
        do {
            run = try Run.program(URL(fileURLWithPath: "/usr/bin/env"), ["swift"] + arguments, in: Run.repository, timeout: 1800)
        } catch {
            return .failure(BuildFailed(description: "swift \(arguments.joined(separator: " ")) could not run: \(error)"))
        }
        guard run.status == 0 else {
            return .failure(BuildFailed(description: "swift \(arguments.joined(separator: " ")) exited \(run.status):\n\(run.stdout)\(run.stderr)"))
        }
        print("Examples/Embedding built in \(Int(Date().timeIntervalSince(start))) s")
        return .success(scratch.appendingPathComponent("debug"))
    }()
}

/// Masks what differs from run to run: the timings.
enum Masked {
    /// Standard output's lines, each session's time (`12 ms)`, `1.5 s)`) and the summary's time,
    /// rate and jobs (`in …`) masked.
    static func lines(_ text: String) -> [String] {
        text.split(separator: "\n").map {
            String($0).replacing(#/, [0-9.]+ m?s\)$/#, with: ", … ms)").replacing(#/ events in .*$/#, with: " events in …")
        }
    }

    /// JUnit with every `time="…"` masked.
    static func junit(_ text: String) -> String {
        text.replacing(#/time="[^"]*"/#, with: #"time="…""#)
    }
}

/// A program run to its end.
struct Run {
    var status: Int32
    var stdout: String
    var stderr: String

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `responder-bus`, built beside this test bundle (the test code's own image: an executable on
    /// Linux, a bundle's binary in `….xctest/Contents/MacOS` on macOS).
    static let cli: URL = {
        let image = LoadedImages.path(containing: #dsohandle) ?? CommandLine.arguments[0]
        var folder = URL(fileURLWithPath: image).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("responder-bus")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return folder.appendingPathComponent("responder-bus")
    }()

    /// Runs `program` with `arguments` in `folder`, and waits for it (at most `timeout` seconds: then
    /// it is killed and the test fails).
    static func program(_ program: URL, _ arguments: [String], in folder: URL? = nil, timeout: Double = 300) throws -> Run {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        if let folder { process.currentDirectoryURL = folder }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let errData = Collected()
        let reader = Thread { errData.value = err.fileHandleForReading.readDataToEndOfFile() }
        reader.start()
        let watchdog = Thread {
            let deadline = Date().addingTimeInterval(timeout)
            while process.isRunning && Date() < deadline { usleep(20_000) }
            if process.isRunning {
                errData.timedOut = true
                process.terminate()
            }
        }
        watchdog.start()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while errData.value == nil { usleep(1000) }
        #expect(!errData.timedOut, "\(program.lastPathComponent) did not end within \(Int(timeout)) s")
        return Run(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData.value ?? Data(), as: UTF8.self))
    }

    /// A new folder for one test's files, removed when the test process exits.
    static func temporaryFolder(_ name: String) throws -> URL {
        let url = root.appendingPathComponent("\(name)-\(UUID().uuidString.prefix(8))").appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private static let root: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("responder-bus-embedding-tests-\(getpid())")
        atexit {
            try? FileManager.default.removeItem(
                at: FileManager.default.temporaryDirectory.appendingPathComponent("responder-bus-embedding-tests-\(getpid())"))
        }
        // Made and resolved, as the programs print the paths they resolve (macOS's /var is /private/var).
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return URL(fileURLWithPath: SystemFiles.resolvedPath(url.path))
    }()
}

/// What the reading threads hand back.
final class Collected: @unchecked Sendable {
    var value: Data?
    var timedOut = false
}
