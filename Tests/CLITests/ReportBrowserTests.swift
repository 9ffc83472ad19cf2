import Foundation
import Testing

/// Headless Chromium from Debian's `chromium` package (CI's `.ci/run` installs it).
enum Chromium {
    /// The `chromium` on the PATH, if any.
    static let executable: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/chromium"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }()

    static let missing =
        "chromium is not installed: the browser test needs headless Chromium (`apt-get install -y chromium`; CI's .ci/run installs it)"

    /// Whether the environment demands the browser tests (`RESPONDER_BUS_REQUIRE_BROWSER=1`, which
    /// `.ci/run` sets): then a missing Chromium fails them instead of skipping them.
    static let required = ProcessInfo.processInfo.environment["RESPONDER_BUS_REQUIRE_BROWSER"] == "1"

    /// Whether the browser tests run: Chromium is there, or it is required (and its absence fails).
    static let shouldRun = executable != nil || required

    /// What a skipped browser test says, in `swift test`'s output.
    static let skipNote: Comment =
        "chromium is not installed (`apt-get install -y chromium` runs it; set RESPONDER_BUS_REQUIRE_BROWSER=1 to fail instead)"

    /// Runs headless Chromium with `arguments` and a throw-away profile; nil when it did not finish
    /// within two minutes.
    static func run(_ executable: String, _ arguments: [String]) throws -> CLI.Run? {
        let profile = try reportFolder() + "/profile"
        return try runProcess(
            executable,
            ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--user-data-dir=\(profile)"] + arguments,
            timeout: 120)
    }
}

/// Runs a program, reading its output as it comes; nil when it outlived `timeout` seconds (it is
/// then terminated).
func runProcess(_ executable: String, _ arguments: [String], timeout: Double) throws -> CLI.Run? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let errData = UncheckedData()
    let outData = UncheckedData()
    let readers = [
        Thread { errData.value = err.fileHandleForReading.readDataToEndOfFile() },
        Thread { outData.value = out.fileHandleForReading.readDataToEndOfFile() },
    ]
    for reader in readers { reader.start() }
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning && Date() < deadline { usleep(20_000) }
    if process.isRunning {
        process.terminate()
        process.waitUntilExit()
        return nil
    }
    process.waitUntilExit()
    while errData.value == nil || outData.value == nil { usleep(1000) }
    return CLI.Run(
        status: process.terminationStatus, stdout: String(decoding: outData.value ?? Data(), as: UTF8.self),
        stderr: String(decoding: errData.value ?? Data(), as: UTF8.self))
}

/// What a PNG shows, read by a few lines of Python (zlib; no imaging library needed).
struct PNGSummary: Decodable {
    var width: Int
    var height: Int
    /// Distinct colours.
    var colors: Int
    /// Pixels of each colour asked about, by its hex name.
    var counts: [String: Int]

    static let script = #"""
        import json, struct, sys, zlib
        data = open(sys.argv[1], "rb").read()
        assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
        pos, idat = 8, b""
        while pos < len(data):
            n, = struct.unpack(">I", data[pos:pos + 4]); kind = data[pos + 4:pos + 8]; body = data[pos + 8:pos + 8 + n]; pos += 12 + n
            if kind == b"IHDR": width, height, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            elif kind == b"IDAT": idat += body
        assert depth == 8 and interlace == 0 and ctype in (2, 6), "unexpected PNG layout"
        bpp = 3 if ctype == 2 else 4
        raw = zlib.decompress(idat); stride = width * bpp; prev = bytearray(stride); i = 0
        colors = set(); wanted = {bytes.fromhex(h): h for h in sys.argv[2:]}; counts = {h: 0 for h in sys.argv[2:]}
        for y in range(height):
            f = raw[i]; line = bytearray(raw[i + 1:i + 1 + stride]); i += 1 + stride
            for x in range(stride):
                a = line[x - bpp] if x >= bpp else 0; b = prev[x]; c = prev[x - bpp] if x >= bpp else 0
                if f == 1: line[x] = (line[x] + a) & 255
                elif f == 2: line[x] = (line[x] + b) & 255
                elif f == 3: line[x] = (line[x] + ((a + b) >> 1)) & 255
                elif f == 4:
                    p = a + b - c; pa = abs(p - a); pb = abs(p - b); pc = abs(p - c)
                    line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            for x in range(0, stride, bpp):
                pixel = bytes(line[x:x + 3]); colors.add(pixel)
                if pixel in wanted: counts[wanted[pixel]] += 1
            prev = line
        print(json.dumps({"width": width, "height": height, "colors": len(colors), "counts": counts}))
        """#

    static func read(_ path: String, counting colors: [String]) throws -> PNGSummary? {
        guard
            let python = ["/usr/bin/python3", "/usr/local/bin/python3"].first(where: FileManager.default.isExecutableFile(atPath:))
                ?? which("python3")
        else {
            Issue.record("python3 is not installed: the browser test reads the screenshot with it (apt-get install -y python3)")
            return nil
        }
        let run = try #require(try runProcess(python, ["-c", script, path] + colors, timeout: 120))
        #expect(run.status == 0, "\(run.stderr)")
        return try JSONDecoder().decode(PNGSummary.self, from: Data(run.stdout.utf8))
    }

    static func which(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":").map { "\($0)/\(name)" }.first(where: FileManager.default.isExecutableFile(atPath:))
    }
}

// Skipped, with a note saying what to install, on a machine without Chromium, unless
// RESPONDER_BUS_REQUIRE_BROWSER=1 says the browser is required (CI sets it): then they run and a
// missing Chromium fails them.
@Suite("The report in a real browser (headless Chromium)", .serialized, .enabled(if: Chromium.shouldRun, Chromium.skipNote))
struct ReportBrowserTests {
    @Test("the report loads without script errors, its script runs, and its drawings are in the rendered page and on screen")
    func report() throws {
        guard let chromium = Chromium.executable else {
            Issue.record(Comment(rawValue: Chromium.missing))
            return
        }
        let folder = try reportFolder()
        let report = folder + "/report.html"
        let replay = try CLI.run(["replay", CLI.example, "--disable", "KeyboardAvoidance", "--report", report])
        #expect(replay.status == 0, "\(replay.stderr)")
        let url = URL(fileURLWithPath: report).absoluteString

        // The DOM after loading: the script ran (its marker, the roving tab stops) and no error was
        // logged to the console.
        let dump = try #require(
            try Chromium.run(chromium, ["--enable-logging=stderr", "--v=0", "--dump-dom", url]), "chromium --dump-dom did not finish")
        #expect(dump.status == 0, "\(dump.stderr.suffix(2000))")
        #expect(!dump.stderr.contains("Uncaught"), "\(dump.stderr.components(separatedBy: "\n").filter { $0.contains("CONSOLE") })")
        #expect(!dump.stderr.contains(":ERROR:CONSOLE"))
        let dom = dump.stdout
        #expect(dom.contains("data-report-script=\"ran\""), "the page's script did not run")
        #expect(dom.contains("class=\"js\""))
        let page = try ReportPage(path: report)
        let marks = page.count("<a class=\"mark ")
        #expect(marks > 40)
        #expect(dom.components(separatedBy: "tabindex=\"-1\"").count - 1 == marks - 1, "one tab stop in the timeline, the others by arrow keys")
        #expect(dom.contains("tabindex=\"0\""))
        // The drawings: the timeline, the screens drawn once and shown with <use>, the series.
        #expect(dom.contains("<svg id=\"timeline-chart\""))
        #expect(dom.contains("data-series=\"root\""))
        #expect(dom.components(separatedBy: "<g class=\"rb-state\" id=\"s").count - 1 == (try page.states.count))
        #expect(dom.components(separatedBy: "<use href=\"#s").count - 1 == (try page.usedStates.count))
        #expect(dom.contains("⚠ COVERED"))

        // A screenshot: not one colour, and the timeline's marks and the drawings' colours are in it.
        let png = folder + "/report.png"
        let shot = try #require(
            try Chromium.run(chromium, ["--hide-scrollbars", "--window-size=1280,1400", "--screenshot=\(png)", url]),
            "chromium --screenshot did not finish")
        #expect(shot.status == 0, "\(shot.stderr.suffix(2000))")
        let summary = try #require(try PNGSummary.read(png, counting: ["24408e", "e08a00", "c0180c", "ffffff"]))
        #expect(summary.width == 1280 && summary.height == 1400)
        #expect(summary.colors > 50, "\(summary.colors) colours")
        #expect(summary.counts["24408e", default: 0] > 100, "event marks: \(summary.counts)")
        #expect(summary.counts["e08a00", default: 0] > 20, "decision marks: \(summary.counts)")
        #expect(summary.counts["c0180c", default: 0] > 20, "violation marks: \(summary.counts)")
        #expect(summary.counts["ffffff", default: 0] < summary.width * summary.height / 2 + summary.width * summary.height / 4)
    }

    @Test("render's SVG opens in the browser as an image without errors")
    func renderedFrame() throws {
        guard let chromium = Chromium.executable else {
            Issue.record(Comment(rawValue: Chromium.missing))
            return
        }
        let folder = try reportFolder()
        let frame = folder + "/frame.svg"
        let render = try CLI.run(["render", CLI.example, "--at", "3.26", "--disable", "KeyboardAvoidance", "-o", frame])
        #expect(render.status == 0, "\(render.stderr)")
        let url = URL(fileURLWithPath: frame).absoluteString
        let dump = try #require(try Chromium.run(chromium, ["--dump-dom", url]))
        #expect(dump.status == 0)
        #expect(dump.stdout.contains("<svg"))
        #expect(!dump.stdout.contains("parsererror") && !dump.stdout.contains("error on line"))
        let png = folder + "/frame.png"
        let shot = try #require(try Chromium.run(chromium, ["--hide-scrollbars", "--window-size=500,900", "--screenshot=\(png)", url]))
        #expect(shot.status == 0)
        let summary = try #require(try PNGSummary.read(png, counting: ["c0180c"]))
        #expect(summary.colors > 20)
        #expect(summary.counts["c0180c", default: 0] > 50, "the covered field's red: \(summary.counts)")
    }
}
