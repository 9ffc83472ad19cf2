import ChatInputBar
import CoveredControlWarner
import EventLog
import FieldAdvancing
import Foundation
import KeyboardAvoidance
import KeyboardNoise
import PasswordGap
import ResponderBus
import ResponderBusExternal
import ResponderBusPlatform
import ResponderBusReplay
import ResponderBusTesting
import Testing
import TextViewOrdering

/// `shipped-plugin-process`, built beside the test bundle (the test code's own image: an executable
/// on Linux, a bundle's binary in `….xctest/Contents/MacOS` on macOS).
private let shippedPluginProcess: String = {
    let image = LoadedImages.path(containing: #dsohandle) ?? CommandLine.arguments[0]
    var folder = URL(fileURLWithPath: image).resolvingSymlinksInPath().deletingLastPathComponent()
    for _ in 0..<4 {
        let candidate = folder.appendingPathComponent("shipped-plugin-process")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate.path }
        folder = folder.deletingLastPathComponent()
    }
    return "shipped-plugin-process"
}()

/// A plugin under Plugins/: its name, how to make it in process, and the pipeline it runs in (the
/// built-ins it is placed against stay; a built-in runs alone, so that moving it out of process
/// does not move it in the pipeline).
private struct Shipped: Sendable, CustomTestStringConvertible {
    let name: String
    let make: @Sendable () -> any ResponderPlugin
    let isBuiltin: Bool
    var testDescription: String { name }

    static let all: [Shipped] = [
        Shipped(name: "KeyboardAvoidance", make: { KeyboardAvoidance() }, isBuiltin: true),
        Shipped(name: "FieldAdvancing", make: { FieldAdvancing() }, isBuiltin: true),
        Shipped(name: "TextViewOrdering", make: { TextViewOrdering() }, isBuiltin: true),
        Shipped(name: "KeyboardNoise", make: { KeyboardNoise() }, isBuiltin: false),
        Shipped(name: "CoveredControlWarner", make: { CoveredControlWarner() }, isBuiltin: false),
        Shipped(name: "PasswordGap", make: { PasswordGap() }, isBuiltin: false),
        Shipped(name: "ChatInputBar", make: { ChatInputBar() }, isBuiltin: false),
    ]

    /// The pipeline with the plugin in process.
    var inProcess: PipelineDescription {
        isBuiltin
            ? PipelineDescription(disabled: Set(BuiltinPlugins.names).subtracting([name]))
            : PipelineDescription(plugins: [PluginMaker(make)])
    }

    /// The same pipeline with the plugin served by `shipped-plugin-process`.
    var outOfProcess: PipelineDescription {
        let command = ExternalPlugin.Configuration(command: [shippedPluginProcess, name], timeout: .seconds(10))
        return isBuiltin
            ? PipelineDescription(disabled: Set(BuiltinPlugins.names), commands: [command])
            : PipelineDescription(commands: [command])
    }
}

/// The decisions (and diagnostics) a replay of `text` through `description` derives, as log lines.
private func decisions(of text: String, through description: PipelineDescription) throws -> (lines: [String], result: ReplayResult) {
    final class Lines: ReplaySink {
        var lines: [String] = []
        func decided(_ record: consuming LogRecord) { lines.append(LogWriter.line(for: record)) }
    }
    let reader = LogReader(bytes: Array(text.utf8))
    let lines = Lines()
    let session = try ReplaySession(pipeline: ReplayPipeline(description), header: try reader.readHeader(), sinks: [lines])
    let result = session.finish(session.replay(reader, readAhead: false))
    return (lines.lines, result)
}

/// The chat session of the plugin kits' examples: the one ChatInputBar decides on.
private let chatSession: (name: String, text: String) = {
    let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let text = (try? String(contentsOf: repository.appendingPathComponent("PluginKits/sessions/chat-input-bar.jsonl"), encoding: .utf8)) ?? ""
    return ("chat-input-bar", text)
}()

@Suite("Every plugin under Plugins/ decides out of process what it decides in process")
struct ShippedPluginsOutOfProcessTests {
    @Test("on every corpus session, byte for byte, placed where its preferredPosition says", arguments: Shipped.all)
    fileprivate func sameDecisions(_ plugin: Shipped) throws {
        var derivedByPlugin = 0
        for entry in LogCorpus.all.map({ (name: $0.name, text: $0.text) }) + [chatSession] {
            let inProcess = try decisions(of: entry.text, through: plugin.inProcess)
            let outOfProcess = try decisions(of: entry.text, through: plugin.outOfProcess)
            #expect(outOfProcess.result.externalPlugins == [plugin.name], "\(entry.name)")
            #expect(outOfProcess.result.pluginFaults.isEmpty, "\(entry.name): \(outOfProcess.result.pluginFaults)")
            #expect(outOfProcess.result.plugins == inProcess.result.plugins, "\(entry.name): the same pipeline order")
            #expect(outOfProcess.lines == inProcess.lines, "\(entry.name)")
            derivedByPlugin += inProcess.lines.count { $0.contains("\"by\":\"\(plugin.name)\"") }
        }
        #expect(derivedByPlugin > 0, "the corpus gives \(plugin.name) something to decide")
    }
}
