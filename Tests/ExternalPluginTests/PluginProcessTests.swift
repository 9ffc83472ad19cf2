import Foundation
import ResponderBusPlatform
import Testing

@testable import ResponderBusExternal

/// The libuv transport under the protocol: a plugin's process and its pipes.
@Suite("A plugin's process and pipes, through libuv")
struct PluginProcessTests {
    @Test("a write bigger than the pipe holds is finished by libuv as the plugin reads it")
    func largeWrite() throws {
        let script = "import sys,time; time.sleep(0.2); d=sys.stdin.buffer.read(1048576); print(len(d)); sys.stdout.flush()"
        let process = try PluginProcess(arguments: ["python3", "-c", script])
        defer { process.terminate(grace: .milliseconds(100)) }
        try process.write([UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20), before: .now + .seconds(10))
        let line = try process.readLine(before: .now + .seconds(10))
        #expect(String(decoding: line, as: UTF8.self) == "1048576")
    }

    @Test("a plugin that reads a big write whole, answers and exits at once: the write is done and the answer read")
    func readAllThenExit() throws {
        // The write's last chunk and the exit can be noticed in one turn of the loop: the write
        // must count as done, not as cut short by the exit.
        let script = "import sys; d=sys.stdin.buffer.read(1048576); sys.stdout.write(str(len(d))+chr(10)); sys.stdout.flush()"
        for _ in 0..<20 {
            let process = try PluginProcess(arguments: ["python3", "-c", script])
            defer { process.terminate(grace: .milliseconds(100)) }
            try process.write([UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20), before: .now + .seconds(10))
            let line = try process.readLine(before: .now + .seconds(10))
            #expect(String(decoding: line, as: UTF8.self) == "1048576")
        }
    }

    @Test("a plugin that never reads its input makes a big write time out, and ends cleanly")
    func stuckWriter() throws {
        let process = try PluginProcess(arguments: ["sleep", "30"])
        let started = ContinuousClock.now
        #expect(throws: ProcessFault(kind: .timedOut, message: "did not finish reading its input in time")) {
            try process.write([UInt8](repeating: 0, count: 1 << 20), before: .now + .milliseconds(300))
        }
        // libuv still holds the rest of that write: another one is refused, not queued behind it.
        #expect(throws: ProcessFault(kind: .timedOut, message: "did not finish reading its input in time")) {
            try process.write([1, 2, 3], before: .now + .seconds(1))
        }
        process.terminate(grace: .zero)
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(process.exitDescription(or: "running") == "was killed by signal 9 (SIGKILL)")
    }

    @Test("an exit libuv is not told of (no thread lets SIGCHLD in) is found by waitpid, status and all")
    func exitWithoutSIGCHLD() throws {
        // The loop is never run here, so libuv's SIGCHLD handling never sees the exit: only the
        // fallback can.
        let handles = try PluginProcessHandles(arguments: ["sh", "-c", "exit 3"])
        defer { handles.close() }
        let deadline = ContinuousClock.now + .seconds(10)
        while !handles.checkExit(), ContinuousClock.now < deadline { usleep(1000) }
        #expect(PluginProcess.describe(handles.exit) == "exited with status 3")
    }

    @Test("killing a wrapper kills the plugin it started too (its process group)")
    func wrapperChildren() throws {
        // `; wait` keeps the shell from exec'ing: the plugin stays its child, as under `swift run`.
        let process = try PluginProcess(arguments: ["sh", "-c", "sleep 60 & echo $!; wait"])
        let child = try #require(Int32(String(decoding: try process.readLine(before: .now + .seconds(10)), as: UTF8.self)))
        process.terminate(grace: .zero)
        #expect(process.exitDescription(or: "running") == "was killed by signal 9 (SIGKILL)")
        // Gone, or a zombie waiting for whichever process adopted it.
        let deadline = ContinuousClock.now + .seconds(5)
        func alive() -> Bool { SystemProcess.isRunning(child) }
        while alive(), ContinuousClock.now < deadline { usleep(10_000) }
        #expect(!alive(), "the wrapper's child \(child) outlived it")
    }

    @Test("a program that does not exist is named with the system's reason")
    func missingProgram() {
        #expect(throws: ProcessFault(kind: .spawn, message: "cannot run 'no-such-plugin-program': No such file or directory")) {
            _ = try PluginProcess(arguments: ["no-such-plugin-program"])
        }
    }
}
