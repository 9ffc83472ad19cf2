import ArgumentParser
import EventLog
import ResponderBus
import ResponderBusExplore
import ResponderBusPlatform
import ResponderBusReplay

/// `responder-bus explore`: generated sessions through the pipeline, checked against the
/// properties every pipeline keeps; each property broken shrunk to the smallest session that
/// breaks it, written as a log, its report and a line that reproduces it.
struct ExploreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explore",
        abstract: "Check the pipeline against generated sessions, and shrink each one that breaks a property to the smallest that still does.",
        discussion: """
            Generates sessions — devices and orientations, system, third-party, hardware, floating, undocked and split \
            keyboards, forms in scroll views, tables and chat bars, taps, Return, rotations, dismissals, growing \
            text views, app switches — and replays each through the pipeline (the built-in plugins, less --disable, \
            any --plugin, --plugin-command and project file), checking after every settled turn that: the focused \
            field is not covered (coverage); the screen is put back when the keyboard covers nothing (restored); \
            nothing moves twice for one change (one-move); no two plugins conflict (no-conflict); no plugin fails \
            (no-fault); a second run decides the same (deterministic). The first session that breaks each \
            property is shrunk to the smallest that still breaks it (fewest events, fewest views, plainest \
            values) and written to --out: PROPERTY.jsonl (a log ready for `responder-bus test`), PROPERTY.html \
            (its report) and a project file that makes `test` check the properties and expect the failure. \
            The same --seed gives the same sessions and, with --count, the same findings. \
            Exit 0 when nothing broke, 1 when a property broke, 64 bad usage, 78 a plugin that cannot be loaded.

            Examples:
              responder-bus explore --time 60
              responder-bus explore --seed 42 --count 20000
              responder-bus explore --plugin .build/debug/\(LibraryNames.file("MyAvoidance")) --disable KeyboardAvoidance --time 30
              responder-bus explore --seed 1234567 --count 1        # one session alone: a finding's reproduction
            """)

    @OptionGroup(title: "Pipeline") var pipeline: PipelineOptions

    @Option(help: "The seed (a number from 0 to 18446744073709551615). Default: a new one, printed on the first line.")
    var seed: UInt64?

    @Option(help: "Check this many sessions.")
    var count: Int?

    @Option(help: ArgumentHelp("Check for this long, in seconds (default 10 when --count is not given).", valueName: "seconds"))
    var time: Double?

    @Option(help: "Threads checking sessions (default: the processors online).")
    var jobs: Int?

    @Option(
        help: ArgumentHelp(
            "Check only this property (repeatable): \(SessionProperty.builtins.map(\.name).joined(separator: ", ")).", valueName: "name"))
    var property: [String] = []

    @Option(help: ArgumentHelp("Generate sessions on this device only (repeatable): a name or a size, as new-session takes it.", valueName: "name"))
    var device: [String] = []

    @Option(
        help: ArgumentHelp(
            "Put the fields only in this container (repeatable): \(GeneratedSession.Container.allCases.map(\.rawValue).joined(separator: ", ")); a plugin that leaves scroll views to another explores --container none.",
            valueName: "name"))
    var container: [GeneratedSession.Container] = []

    @Option(help: ArgumentHelp("The most steps a generated session takes (1 to 100, default 8).", valueName: "n"))
    var maxSteps: Int = 8

    @Option(help: ArgumentHelp("Where the findings go (made when there is one).", valueName: "folder"))
    var out: String = "explore-findings"

    func validate() throws {
        if let count, count < 1 { throw ValidationError("--count must be at least 1, got \(count)") }
        if let time, !(time > 0 && time <= 86_400) { throw ValidationError("--time must be more than 0 and at most 86400 seconds, got \(time)") }
        if let jobs, !(1...1024).contains(jobs) { throw ValidationError("--jobs must be between 1 and 1024, got \(jobs)") }
        if !(1...100).contains(maxSteps) { throw ValidationError("--max-steps must be between 1 and 100, got \(maxSteps)") }
        for name in property where SessionProperty.builtin(named: name) == nil {
            throw ValidationError("unknown property '\(name)'; the properties are \(SessionProperty.builtins.map(\.name).joined(separator: ", "))")
        }
        for name in device where Device.named(name) == nil {
            throw ValidationError("unknown device '\(name)'; the devices are \(Device.knownNames), or give a size such as 390x844")
        }
    }

    func run() throws {
        let pipeline = try pipeline.pipeline(forSessionsIn: ".")
        do throws(PipelineError) {
            try pipeline.probeCommands()
        } catch {
            complain(error.message)
            throw ExitCode(error.exitCode)
        }
        let seed = self.seed ?? Self.freshSeed()
        var explorer = Explorer(
            seed: seed, properties: property.isEmpty ? SessionProperty.builtins : property.compactMap(SessionProperty.builtin(named:)),
            generator: SessionGenerator(devices: device.compactMap(Device.named), maxSteps: maxSteps, containers: container),
            workers: jobs ?? max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        explorer.shrinkRuns = 3_000
        let output = Output()
        output.line("exploring with seed \(seed): \(Self.pipelineText(pipeline)); \(budgetText)")
        output.flush()
        let line = ProgressLine()
        let report: ExplorationReport
        do {
            report = try explorer.explore(count: count, seconds: count == nil ? (time ?? 10) : time, makeTarget: { PipelineTarget(pipeline) }) {
                line.show("  \($0.checked) sessions, \($0.failing) failing, \(Int($0.seconds)) s")
            }
        } catch let error as PipelineError {
            line.finish()
            complain(error.message)
            throw ExitCode(error.exitCode)
        }
        line.finish()
        do {
            try ExploreFindings(report: report, pipeline: pipeline, folder: out, reproduction: reproduction).write(to: output)
        } catch let error as OutputError {
            // Said apart from the findings' exit (1): the folder or a file cannot be written.
            output.flush()
            throw error.reported()
        }
        output.flush()
        if let error = output.error { throw error.reported() }
        if !report.findings.isEmpty { throw Exit.checkFailed }
    }

    private var budgetText: String {
        switch (count, time) {
        case (let count?, let time?): "\(count) sessions or \(JSONText.number(time)) s"
        case (let count?, nil): "\(count) sessions"
        default: "\(JSONText.number(time ?? 10)) s"
        }
    }

    /// The command line that checks session `seed` alone: this one's arguments without the
    /// budget, the workers, the properties, the seed and the folder, then `--seed SEED --count 1`
    /// and a folder of its own beside this run's (`explore-findings-SEED`), so that running it
    /// leaves this run's findings as they are.
    func reproduction(seed: UInt64) -> String {
        Self.reproduction(of: Array(CommandLine.arguments.dropFirst()), seed: seed) + " --out " + Self.quoted("\(out)-\(seed)")
    }

    /// The options a reproduction leaves out, each with its value.
    static let runOptions: Set<String> = ["--seed", "--count", "--time", "--jobs", "--property", "--out"]

    static func reproduction(of arguments: [String], seed: UInt64) -> String {
        (["responder-bus"] + without(runOptions, in: arguments).map(quoted) + ["--seed", "\(seed)", "--count", "1"]).joined(separator: " ")
    }

    /// `arguments` without the options named in `options`, each with its value (`--seed 7` and
    /// `--seed=7` alike).
    static func without(_ options: Set<String>, in arguments: [String]) -> [String] {
        var kept: [String] = []
        var skipValue = false
        for argument in arguments {
            if skipValue {
                skipValue = false
            } else if options.contains(argument) {
                skipValue = true
            } else if let equals = argument.firstIndex(of: "="), options.contains(String(argument[..<equals])) {
                continue
            } else {
                kept.append(argument)
            }
        }
        return kept
    }

    /// `word` as a POSIX shell reads it back.
    static func quoted(_ word: String) -> String { PipelineDescription.shellWord(word) }

    /// The pipeline in words: `TextViewOrdering → FieldAdvancing → KeyboardAvoidance`, then the
    /// libraries and commands.
    static func pipelineText(_ pipeline: ReplayPipeline) -> String {
        let description = pipeline.description
        let names =
            BuiltinPlugins.names.filter { !description.disabled.contains($0) } + description.libraries.map(\.path)
            + description.commands.map { $0.command.joined(separator: " ") }
        return names.isEmpty ? "no plugins" : names.joined(separator: " → ")
    }

    static func freshSeed() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var random = SeededRandom(seed: UInt64(truncatingIfNeeded: now.tv_sec) &* 1_000_000_007 &+ UInt64(truncatingIfNeeded: now.tv_nsec))
        return random.next() % 1_000_000_000
    }
}

extension GeneratedSession.Container: ExpressibleByArgument {}
