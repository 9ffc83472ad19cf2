import ConsoleImport
import EventLog
import Foundation
import ResponderBus

/// A console of one view-hierarchy dump with `views` views, in the shape lldb prints: a window,
/// sections of a table, each with labels and a text field, every entry with its layer.
func makeHierarchyDump(views: Int) -> [UInt8] {
    var text = "(lldb) po [[UIApp keyWindow] recursiveDescription]\n"
    text +=
        "<UIWindow: 0x7f8a10c0b2e0; frame = (0 0; 375 667); gestureRecognizers = <NSArray: 0x600000c4c0f0>; layer = <UIWindowLayer: 0x6000002e5e40>>\n"
    text +=
        "   | <UITableView: 0x7f8a11000000; frame = (0 0; 375 667); clipsToBounds = YES; gestureRecognizers = <NSArray: 0x600000c4c3c0>; layer = <CALayer: 0x6000002e5f80>; contentOffset: {0, 120}; contentSize: {375, 90000}; adjustedContentInset: {20, 0, 0, 0}>\n"
    var made = 2
    var section = 0
    while made < views {
        let cell = String(0x7f8a1200_0000 + made, radix: 16)
        text +=
            "   |    | <UITableViewCell: 0x\(cell); frame = (0 \(section * 44); 375 44); text = 'Row \(section)'; autoresize = W; layer = <CALayer: 0x6000002e\(cell.suffix(4))>>\n"
        made += 1
        for index in 0..<4 where made < views {
            let address = String(0x7f8a1300_0000 + made, radix: 16)
            if index == 3 {
                text +=
                    "   |    |    | <UITextField: 0x\(address); frame = (120 7; 240 30); text = ''; opaque = NO; tag = \(made); layer = <CALayer: 0x6000002f\(address.suffix(4))>>\n"
            } else {
                text +=
                    "   |    |    | <UILabel: 0x\(address); frame = (16 \(index * 10); 100 20); text = 'Label \(made)'; opaque = NO; userInteractionEnabled = NO; layer = <_UILabelLayer: 0x6000002f\(address.suffix(4))>>\n"
            }
            made += 1
        }
        section += 1
    }
    return Array(text.utf8)
}

/// `responder-bus import` of one dump, in the process: reading, building the scene, writing the log.
func importBench(views: Int) -> (Int) -> Void {
    let dump = makeHierarchyDump(views: views)
    let importer = ConsoleImporter()
    return { count in
        for _ in 0..<count {
            let result = importer.importDump(dump)
            precondition(result.summary.views == views, "imported \(result.summary.views) views, not \(views)")
            blackHole(LogWriter.text(header: result.header, records: result.records))
        }
    }
}

func runImportHierarchy(_ results: Results) {
    // Per view, in turns: linear time means the 100,000-view dump costs what 10 of the 10,000 do.
    let small = importBench(views: 10_000)
    let large = importBench(views: 100_000)
    let times = interleavedNsPerOp(rounds: 9, [(iterations: 10, body: small), (iterations: 1, body: large)])
    let (perViewSmall, perViewLarge) = (times[0] / 10_000, times[1] / 100_000)
    // Linear, not flat: the 100,000-view run touches buffers ten times larger (the paste, its
    // blanked copy, the scene, the log line of 15 MB), so page faults and cache misses add 15-25 %
    // per view on a 2-core machine while allocations per view stay the same (the next row).
    results.add(
        Row(
            group: "4 scale", name: "import a 100,000-view hierarchy dump, per view", value: perViewLarge, unit: "ns/view",
            baselineName: "10,000-view dump, per view", baselineValue: perViewSmall, ratio: perViewLarge / perViewSmall,
            goal: "≤1.3× (linear)", met: perViewLarge / perViewSmall <= 1.3))
    let allocationsSmall = mallocsPerOp(iterations: 2, small) / 10_000
    let allocationsLarge = mallocsPerOp(iterations: 1, large) / 100_000
    results.add(
        Row(
            group: "4 scale", name: "import a 100,000-view hierarchy dump, allocations per view", value: allocationsLarge,
            unit: "allocs/view", baselineName: "10,000-view dump", baselineValue: allocationsSmall,
            ratio: allocationsLarge / allocationsSmall, goal: "≤1.2× (linear)", met: allocationsLarge / allocationsSmall <= 1.2))
}
