// Any plugin shipped under Plugins/, run out of process: `shipped-plugin-process NAME` serves the
// plugin NAME with ExternalPluginMain, the same source as in process. The tests replay the corpus
// through each, in process and out, and compare what they decide.
import ChatInputBar
import CoveredControlWarner
import FieldAdvancing
import KeyboardAvoidance
import KeyboardNoise
import PasswordGap
import ResponderBus
import ResponderBusExternal
import ResponderBusPlatform
import TextViewOrdering

let makers: [String: () -> any ResponderPlugin] = [
    "KeyboardAvoidance": { KeyboardAvoidance() },
    "FieldAdvancing": { FieldAdvancing() },
    "TextViewOrdering": { TextViewOrdering() },
    "KeyboardNoise": { KeyboardNoise() },
    "CoveredControlWarner": { CoveredControlWarner() },
    "PasswordGap": { PasswordGap() },
    "ChatInputBar": { ChatInputBar() },
]
let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 1, let make = makers[arguments.first!] else {
    let names = makers.keys.sorted().joined(separator: ", ")
    _ = "usage: shipped-plugin-process NAME, one of \(names)\n".withCString { write(2, $0, strlen($0)) }
    exit(64)
}
exit(ExternalPluginMain.run(make()))
