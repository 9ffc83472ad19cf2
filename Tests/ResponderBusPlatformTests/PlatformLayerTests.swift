import Foundation
import ResponderBusPlatform
import Testing

/// A value a thread writes and the test reads after joining it (the join orders the two).
private final class Slot<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}

/// A folder of its own under the temporary folder, its symbolic links resolved.
private func scratchFolder() throws -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rb-platform-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return SystemFiles.resolvedPath(folder)
}

/// Starts `/bin/sh -c script` with `posix_spawn`, not reaped by anyone but the test.
private func spawnShell(_ script: String) throws -> pid_t {
    let words: [String] = ["/bin/sh", "-c", script]
    let arguments: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
    let environment: [UnsafeMutablePointer<CChar>?] = [strdup("PATH=/usr/bin:/bin"), nil]
    defer { for pointer in arguments + environment { free(pointer) } }
    var pid: pid_t = 0
    let rc = arguments.withUnsafeBufferPointer { argv in
        environment.withUnsafeBufferPointer { envp in posix_spawn(&pid, "/bin/sh", nil, nil, argv.baseAddress!, envp.baseAddress!) }
    }
    if rc != 0 { throw POSIXError(POSIXErrorCode(rawValue: rc) ?? .EINVAL) }
    return pid
}

@Suite("The platform layer: threads")
struct SystemThreadTests {
    @Test("a started thread runs its closure, on another thread, and join waits for it")
    func startAndJoin() throws {
        let ran = Slot<UInt?>(nil)
        let thread = try #require(SystemThread.start { ran.value = SystemThread.currentID })
        #expect(thread.join() == 0)
        #expect(ran.value != nil && ran.value != SystemThread.currentID)
    }

    @Test("a thread's name, set from the thread, reads back; its kernel id is its own and is known while it lives")
    func nameAndKernelID() throws {
        let seen = Slot<(name: String?, id: UInt64?, exists: Bool?)>((nil, nil, nil))
        let thread = try #require(
            SystemThread.start {
                SystemThread.nameCurrent("rb.layer.test")
                let id = SystemThread.currentKernelID
                seen.value = (SystemThread.currentName, id, id.flatMap { SystemThread.exists(kernelID: $0) })
            })
        thread.join()
        #expect(seen.value.name == "rb.layer.test")
        let id = try #require(seen.value.id)
        #expect(id != SystemThread.currentKernelID)
        // Darwin keeps no entry per thread to look an id up in (`exists` says nil there).
        if LoadedImages.isDyld {
            #expect(seen.value.exists == nil)
        } else {
            #expect(seen.value.exists == true)
        }
    }
}

@Suite("The platform layer: processes", .serialized)
struct SystemProcessTests {
    @Test("this program's path is the file of the image the test code is in")
    func executablePath() throws {
        let path = try #require(SystemProcess.executablePath())
        #expect(path.hasPrefix("/"))
        #expect(FileManager.default.isExecutableFile(atPath: path))
        #if !canImport(Darwin)
            // On Linux the test code is the program; on macOS it is a bundle a runner loaded.
            #expect(path == SystemFiles.resolvedPath(try #require(LoadedImages.path(containing: #dsohandle))))
        #endif
    }

    @Test("a process runs until killed; a killed one, a zombie or reaped, does not")
    func running() throws {
        #expect(SystemProcess.isRunning(getpid()))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sleep")
        process.arguments = ["30"]
        try process.run()
        let pid = process.processIdentifier
        #expect(SystemProcess.isRunning(pid))
        kill(pid, SIGKILL)
        let deadline = ContinuousClock.now + .seconds(5)
        while SystemProcess.isRunning(pid), ContinuousClock.now < deadline { usleep(10_000) }
        #expect(!SystemProcess.isRunning(pid))
        process.waitUntilExit()
        #expect(!SystemProcess.isRunning(-1))
    }

    @Test("a child's exit is seen without reaping it: waitpid still finds its status")
    func childExitWithoutReaping() throws {
        let pid = try spawnShell("exit 3")
        let deadline = ContinuousClock.now + .seconds(5)
        while !SystemProcess.childHasExited(pid), ContinuousClock.now < deadline { usleep(1000) }
        #expect(SystemProcess.childHasExited(pid))
        // Still a zombie, so still there to reap, with its status.
        #expect(SystemProcess.childHasExited(pid))
        var status: Int32 = 0
        #expect(waitpid(pid, &status, 0) == pid)
        #expect((status >> 8) & 0xff == 3)
        #expect(!SystemProcess.childHasExited(pid))
    }

    @Test("a child that still runs has not exited")
    func runningChildHasNotExited() throws {
        let pid = try spawnShell("sleep 30")
        #expect(!SystemProcess.childHasExited(pid))
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        #expect(status & 0x7f == SIGKILL)
    }

    @Test("the peak resident memory is in bytes: at least what is resident now, at most the machine's memory")
    func peakMemory() throws {
        // Read in this order: the peak, read later, is at least any size the process had before.
        let now = try #require(SystemProcess.residentBytes())
        let peak = SystemProcess.peakResidentBytes()
        #expect(now > 1 << 20)
        // Kibibytes taken for bytes would be a thousandth of the resident size; bytes taken for
        // kibibytes a thousand times the machine's memory.
        #expect(peak >= now, "peak \(peak), resident \(now)")
        #expect(peak <= Int(ProcessInfo.processInfo.physicalMemory))
    }
}

@Suite("The platform layer: files and descriptors")
struct SystemFilesTests {
    @Test("a pipe with bytes in it is ready to read, an empty one to write")
    func waitUntilReady() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer { for end in ends { close(end) } }
        SystemFiles.waitUntilReady(ends[1], forWriting: true)
        #expect(write(ends[1], "x", 1) == 1)
        SystemFiles.waitUntilReady(ends[0])
        var byte: UInt8 = 0
        #expect(read(ends[0], &byte, 1) == 1 && byte == UInt8(ascii: "x"))
    }

    @Test("case folding is said as the file system behaves: a name in another case finds the file, or not")
    func caseFolding() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try #require(FileManager.default.createFile(atPath: folder + "/Out.html", contents: Data()))
        let foundInOtherCase = FileManager.default.fileExists(atPath: folder + "/out.html")
        #expect(SystemFiles.foldsCase(inFolder: folder) == foundInOtherCase)
    }

    @Test("a name that is not UTF-8 is said to be taken exactly when one can be made")
    func nonUTF8Names() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let accepts = SystemFiles.acceptsNonUTF8Names(inFolder: folder)
        let name = Array((folder + "/caf").utf8) + [0xFF, 0]
        let made = name.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT, 0o600) } }
        if made >= 0 { close(made) }
        #expect(accepts == (made >= 0))
        // The probe leaves nothing behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).count == (made >= 0 ? 1 : 0))
    }

    @Test("SIGPIPE is marked off on a pipe's write end where the system marks descriptors (Darwin)")
    func noSigPipe() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer { for end in ends { close(end) } }
        #expect(SystemFiles.raiseNoSigPipe(onWritesTo: ends[1]) == LoadedImages.isDyld)
    }

    @Test("the first line of a file, without its line break; nil when there is no file")
    func firstLine() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "one\ntwo\n".write(toFile: folder + "/f", atomically: true, encoding: .utf8)
        #expect(SystemFiles.firstLine(ofFile: folder + "/f") == "one")
        #expect(SystemFiles.firstLine(ofFile: folder + "/none") == nil)
    }
}

@Suite("The platform layer: the dynamic loader")
struct LoadedImagesTests {
    @Test("a library's file is named as SwiftPM names it here")
    func libraryNames() {
        #expect(LoadedImages.libraryFile("FocusReporter") == (LoadedImages.isDyld ? "libFocusReporter.dylib" : "libFocusReporter.so"))
    }

    @Test("the image holding this code is a file, mapped from the inode its path names")
    func imageOfAddress() throws {
        let path = try #require(LoadedImages.path(containing: #dsohandle))
        var info = stat()
        try #require(stat(path, &info) == 0)
        #expect(LoadedImages.inode(ofImageLoadedFrom: path) == UInt64(info.st_ino))
        #expect(LoadedImages.inode(ofImageLoadedFrom: path + ".not-loaded") == nil)
    }

    @Test("a symbol is looked up in the whole process")
    func symbols() {
        #expect(LoadedImages.symbol("malloc") != nil)
        #expect(LoadedImages.symbol("responder_bus_no_such_symbol") == nil)
    }

    @Test("the library a refused dlopen missed is read from either loader's words")
    func missingLibrary() {
        #expect(
            LoadedImages.missingLibrary(inLoadError: "libA.so: cannot open shared object file: No such file or directory", dyld: false) == "libA.so")
        #expect(LoadedImages.missingLibrary(inLoadError: "/p/libA.so: invalid ELF header", dyld: false) == nil)
        let dyld =
            "dlopen(/p/libP.dylib, 0x0006): Library not loaded: @rpath/libA.dylib\n  Referenced from: <UUID> /p/libP.dylib\n  Reason: tried: '/p/libA.dylib' (no such file)"
        #expect(LoadedImages.missingLibrary(inLoadError: dyld, dyld: true) == "libA.dylib")
        #expect(LoadedImages.missingLibrary(inLoadError: "Library not loaded: /usr/lib/libZ.1.dylib\n", dyld: true) == "libZ.1.dylib")
        #expect(LoadedImages.missingLibrary(inLoadError: "dlopen(/p/x, 0x0006): tried: '/p/x' (not a mach-o file)", dyld: true) == nil)
    }
}
