import ConsoleImport
import Dispatch
import EventLog
import ResponderBus
import ResponderBusPlatform
import ResponderBusReplay
import ResponderBusUV

/// `import --follow`: follows a console by name as it grows (like `tail -F`) and writes each event
/// to standard output as it is found, flushed line by line, so that `replay -` downstream decides
/// it at once.
///
/// - The library's `GrowingImport` decides what to write: it is given what was appended and taken
///   from whenever the text has grown and then stayed still for a moment (a dump is printed in one
///   burst), or at least once a second while it keeps growing.
/// - A truncated or replaced console (rotation) is read again from its start (`GrowingImport.restart()`);
///   a deleted one is waited for. Each is said on standard error.
/// - SIGINT or SIGTERM ends it: exit 0.
final class ImportFollower {
    private let path: String
    private var growing: GrowingImport
    private let loop: UVEventLoop
    private let out = Output()
    private var descriptor: Int32 = -1
    private var identity: (device: UInt64, inode: UInt64)?
    private var wroteHeader = false
    private var lastGrowth: Duration = .zero
    private var lastImport: Duration = .zero
    private var importedCount = -1
    private var lastSaid: String?
    private var done = false
    private let finished: () -> Void

    init(path: String, options: ConsoleImporter.Options, loop: UVEventLoop, finished: @escaping () -> Void) {
        self.path = path
        growing = GrowingImport(options: options)
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
        if !wroteHeader, let refused = growing.problems.first(where: { $0.kind == .focusNotFound }) {
            complain("\(path): nothing was written: \(refused.message)")
        } else if !wroteHeader {
            complain(
                "\(path): nothing was written: no keyboard notification with a known screen was found (pass --screen WxH when no docked keyboard frame or window shows it)"
            )
        }
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
        if growing.byteCount != importedCount,
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
        } else if descriptor >= 0, (named.st_mode & S_IFMT) == S_IFREG, Int(named.st_size) < growing.byteCount {
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
            growing.append(appended)
            lastGrowth = loop.now
        }
    }

    private func restart(_ message: String) {
        importNow(final: true)
        complain(message)
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
        growing.restart()
        importedCount = -1
    }

    /// Writes what is new in the text: the header, the first time, and the events found since.
    private func importNow(final: Bool) {
        importedCount = growing.byteCount
        lastImport = loop.now
        let (header, records) = growing.take(final: final)
        if let header {
            wroteHeader = true
            out.line(LogWriter.line(for: header))
            complain("\(path): writing events as they are found (screen \(header.screen), \(header.screenSource ?? "given"))")
        }
        guard header != nil || !records.isEmpty else { return }
        for record in records { out.line(record) }
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
