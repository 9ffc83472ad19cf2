import ConsoleImport
import Dispatch
import EventLog
import ResponderBus
import ResponderBusReplay
import ResponderBusUV

#if canImport(Glibc)
    import Glibc
#endif

/// `import --follow`: follows a console by name as it grows (like `tail -F`) and writes each event
/// to standard output as it is found, flushed line by line, so that `replay -` downstream decides
/// it at once.
///
/// - The growing text is imported again whenever it has grown and then stayed still for a moment
///   (a dump is printed in one burst), or at least once a second while it keeps growing; the
///   records past those already written are written. A userInfo cut off at the current end of the
///   text is held back until it is whole; a partial last line is not read yet.
/// - The header is written once the screen is known: `--screen`, or the first docked keyboard
///   frame or dumped window.
/// - A truncated or replaced console (rotation) is read again from its start, its events after
///   those written (times go on from the last one written); a deleted one is waited for. Each is
///   said on standard error.
/// - SIGINT or SIGTERM ends it: exit 0.
final class ImportFollower {
    private let path: String
    private let options: ConsoleImporter.Options
    private let loop: UVEventLoop
    private let out = Output()
    private var descriptor: Int32 = -1
    private var identity: (device: UInt64, inode: UInt64)?
    private var text: [UInt8] = []
    /// Records of the current text already written.
    private var written = 0
    private var headerWritten = false
    /// Added to the times of a text read again after a truncation or rotation.
    private var timeOffset = 0.0
    private var lastT = 0.0
    private var lastGrowth: Duration = .zero
    private var lastImport: Duration = .zero
    private var importedCount = -1
    private var lastSaid: String?
    private var done = false
    private let finished: () -> Void

    init(path: String, options: ConsoleImporter.Options, loop: UVEventLoop, finished: @escaping () -> Void) {
        self.path = path
        self.options = options
        self.loop = loop
        self.finished = finished
    }

    /// Starts following. Loop-confined.
    func start() {
        tick()
    }

    /// Ends it. Loop-confined.
    func stop() {
        guard !done else { return }
        done = true
        importNow(final: true)
        out.flush()
        if descriptor >= 0 { close(descriptor) }
        finished()
    }

    private func say(_ message: String) {
        guard message != lastSaid else { return }
        lastSaid = message
        complain(message)
    }

    private func tick() {
        guard !done else { return }
        look()
        let now = loop.now
        if text.count != importedCount,
            now - lastGrowth >= .milliseconds(150) || now - lastImport >= .seconds(1)
        {
            importNow(final: false)
        }
        loop.schedule(after: .milliseconds(50)) { [self] in tick() }
    }

    /// Opens the console, notices truncation, rotation and deletion, and reads what was appended.
    private func look() {
        var named = stat()
        guard stat(path, &named) == 0 else {
            if descriptor >= 0 { say("\(path) was deleted: waiting for it to come back") } else { say("waiting for \(path) to be created") }
            return
        }
        let id = (UInt64(named.st_dev), UInt64(named.st_ino))
        if descriptor >= 0, let identity, identity != id {
            restart("\(path) was replaced by a new file (rotated?): reading the new one from its start, its events after those written")
        } else if descriptor >= 0, (named.st_mode & S_IFMT) == S_IFREG, Int(named.st_size) < text.count {
            restart("\(path) was truncated: reading it from its start again, its events after those written")
        }
        if descriptor < 0 {
            let opened = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
            guard opened >= 0 else { return }
            descriptor = opened
            identity = id
            lastSaid = nil
        }
        let appended = DescriptorIO.readAvailable(descriptor)
        if !appended.isEmpty {
            text += appended
            lastGrowth = loop.now
        }
    }

    private func restart(_ message: String) {
        importNow(final: true)
        complain(message)
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
        text.removeAll()
        written = 0
        importedCount = -1
        timeOffset = lastT
    }

    /// Imports the text up to its last newline and writes the records past those written.
    private func importNow(final: Bool) {
        importedCount = text.count
        lastImport = loop.now
        let end = final ? text.count : (text.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0)
        guard end > 0 else { return }
        let result = ConsoleImporter(options: options).importDump(Array(text[0..<end]))
        if !headerWritten {
            guard !result.records.isEmpty, result.header.screen.width > 0 else { return }
            out.line(LogWriter.line(for: result.header))
            headerWritten = true
            complain("\(path): writing events as they are found (screen \(result.header.screen), \(result.header.screenSource ?? "given"))")
        }
        // A userInfo cut off at the current end is not whole yet: the record made of its whole keys
        // waits (one with no whole key yet makes none).
        let cutAtEnd = !final && result.problems.contains { $0.kind == .partlyImported && $0.message.contains("end of the input") }
        let stable = cutAtEnd ? result.records.count - 1 : result.records.count
        guard stable > written else { return }
        for var record in result.records[written..<stable] {
            record.t = max(record.t + timeOffset, lastT)
            lastT = record.t
            out.line(record)
        }
        written = stable
        out.flush()
    }
}

extension ImportCommand {
    /// Runs `import --follow` on a libuv loop until SIGINT or SIGTERM.
    func follow(options: ConsoleImporter.Options) throws {
        let loop = UVEventLoop()
        let done = DispatchSemaphore(value: 0)
        let path = dump
        loop.execute {
            let follower = ImportFollower(path: path, options: options, loop: loop) { done.signal() }
            var watch: UVWatch?
            watch = loop.watchSignals([SIGINT, SIGTERM]) { _ in
                watch?.stop()
                follower.stop()
            }
            follower.start()
        }
        done.wait()
        loop.shutdown()
    }
}
