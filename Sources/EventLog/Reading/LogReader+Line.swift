import ResponderBus

extension LogReader {
    /// Reads one record line of the log format on its own, with the rules of a log's lines: for
    /// messages that carry records one at a time (the out-of-process plugin protocol).
    ///
    /// Unknown fields are ignored, as in a log. Warnings a log reader reports before a record (an
    /// unknown view kind, say) are dropped: the record is returned as a log reader would return it.
    ///
    /// - Parameters:
    ///   - bytes: the line, without its line break.
    ///   - line: the line number errors name.
    /// - Throws: ``LogReadError`` naming the column and the reason, as for a log's line; a header
    ///   line is refused (``LogReadError/Code/invalidValue``).
    public static func record(line bytes: [UInt8], number line: Int = 1) throws(LogReadError) -> LogRecord {
        try record(line: bytes[...], number: line)
    }

    /// Reads one record line held in part of a buffer, without copying it (as the form that takes
    /// a whole array does).
    public static func record(line bytes: ArraySlice<UInt8>, number line: Int = 1) throws(LogReadError) -> LogRecord {
        let result = LineBytes.with(bytes) { buffer -> Result<Item?, LogReadError> in
            var parser = RecordParser(buffer, line: line, endsFile: false)
            var lastT = 0.0
            do throws(LogReadError) {
                return .success(try record(from: &parser, after: &lastT))
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(.record(let record, _)): return record
        case .success(.problem(let error)), .failure(let error): throw error
        case .success(nil): throw LogReadError(.missingField, line: line, column: 1, "the line holds no record")
        }
    }
}

extension LogEvent {
    /// Posts the event as one derived by the plugin whose `context` this is (as
    /// `PluginContext.post(_:_:style:coalescing:)` would); nothing once the plugin has been removed.
    public func post(from context: PluginContext) {
        switch self {
        case .keyboard(let name, let info): context.post(name, info)
        case .didBeginEditing(let info): context.post(.didBeginEditing, info)
        case .didEndEditing(let info): context.post(.didEndEditing, info)
        case .returnKey(let info): context.post(.returnKey, info)
        case .scene(let info): context.post(.scene, info)
        case .setFrame(let info): context.post(.setFrame, info)
        case .screen(let info): context.post(.screen, info)
        case .viewShift(let info): context.post(.viewShift, info)
        case .scroll(let info): context.post(.scroll, info)
        case .focusChange(let info): context.post(.focusChange, info)
        case .action(let info): context.post(.action, info)
        case .resign(let info): context.post(.resign, info)
        case .viewSettings(let info): context.post(.viewSettings, info)
        case .viewMove(let info): context.post(.viewMove, info)
        case .diagnostic(let info): context.post(.diagnostic, info)
        }
    }

    /// The views the event names that must exist on the screen for the bus to apply it (`view`,
    /// a focus change's `from` and `to`, a diagnostic's `views` excepted: they may name views
    /// that are gone).
    public var namedViews: [ViewID] {
        switch self {
        case .didBeginEditing(let info), .didEndEditing(let info): [info.view]
        case .returnKey(let info): [info.view]
        case .setFrame(let change): [change.view]
        case .scroll(let change): [change.view]
        case .focusChange(let change): [change.from, change.to].compactMap { $0 }
        case .resign(let info): [info.view]
        case .viewSettings(let info): [info.view]
        case .viewMove(let info): [info.view]
        default: []
        }
    }
}
