import EventLog
import ResponderBus

/// A session that broke a property, made as small as it goes while still breaking it.
public struct Shrunk: Sendable {
    /// The smallest session found.
    public var session: GeneratedSession
    /// How it breaks the property.
    public var failure: PropertyFailure
    /// How many smaller sessions were tried.
    public var tried: Int
    /// How many of those still broke it and were kept.
    public var kept: Int
}

extension Explorer {
    /// Shrinks `session`, which breaks `property`, to the smallest session that still breaks it:
    /// fewest steps, fewest fields and containers, the plainest keyboard, device and fields, the
    /// roundest numbers. Each try is a whole session, checked as ``check(_:on:)`` checks; the first
    /// that still breaks the property is kept, and the tries start again from it, until none does
    /// or ``shrinkRuns`` have run.
    ///
    /// - Returns: `nil` when `session` does not break `property` (a fault that does not come back).
    public func shrink(_ session: GeneratedSession, breaking property: String, on target: any ExplorationTarget) throws -> Shrunk? {
        guard var failure = try check(session, on: target).first(where: { $0.property == property }) else { return nil }
        var current = session
        var tried = 0
        var kept = 0
        var improved = true
        while improved && tried < shrinkRuns {
            improved = false
            let size = current.size
            for candidate in smaller(than: current) where candidate.size.lexicographicallyPrecedes(size) {
                tried += 1
                if let found = try check(candidate, on: target).first(where: { $0.property == property }) {
                    current = candidate
                    failure = found
                    kept += 1
                    improved = true
                    break
                }
                if tried >= shrinkRuns { break }
            }
        }
        return Shrunk(session: current, failure: failure, tried: tried, kept: kept)
    }

    /// Smaller sessions than `session`, the biggest cuts first, all of them sessions the
    /// generator could have made: its devices (of the same idiom, so that an iPad's keyboard
    /// stays on an iPad) and its containers.
    func smaller(than session: GeneratedSession) -> [GeneratedSession] {
        let devices = (generator.devices.isEmpty ? Device.all : generator.devices).filter { $0.idiom == session.device.idiom }
        let containers = generator.containers.isEmpty ? GeneratedSession.Container.allCases : generator.containers
        var result: [GeneratedSession] = []
        result += Self.fewerSteps(session)
        result += Self.fewerFields(session)
        result += Self.plainer(session, device: devices.first, containers: containers)
        result += Self.roundedSteps(session)
        return result
    }

    /// The session without a run of its steps: halves, quarters, … then each step.
    private static func fewerSteps(_ session: GeneratedSession) -> [GeneratedSession] {
        var result: [GeneratedSession] = []
        // A single step is tried away too: a failure on the scene alone needs none.
        var size = session.steps.count == 1 ? 1 : session.steps.count / 2
        while size >= 1 {
            var start = 0
            while start < session.steps.count {
                var copy = session
                copy.steps.removeSubrange(start..<min(start + size, copy.steps.count))
                result.append(copy)
                start += size
            }
            size /= 2
        }
        return result
    }

    /// The session without a group, or without a field (and the taps on it).
    private static func fewerFields(_ session: GeneratedSession) -> [GeneratedSession] {
        var result: [GeneratedSession] = []
        for group in session.groups.indices where session.groups.count > 1 {
            var copy = session
            copy.groups.remove(at: group)
            result.append(copy.withoutTapsOnMissingFields())
        }
        for group in session.groups.indices {
            for field in session.groups[group].fields.indices where session.fields.count > 1 {
                var copy = session
                copy.groups[group].fields.remove(at: field)
                if copy.groups[group].fields.isEmpty { copy.groups.remove(at: group) }
                result.append(copy.withoutTapsOnMissingFields())
            }
        }
        return result
    }

    /// The session with one thing made plainer: a container, the keyboard, the device, the
    /// orientation, the placement, a field.
    private static func plainer(_ session: GeneratedSession, device: Device?, containers: [GeneratedSession.Container]) -> [GeneratedSession] {
        var result: [GeneratedSession] = []
        func with(_ change: (inout GeneratedSession) -> Void) {
            var copy = session
            change(&copy)
            result.append(copy)
        }
        for group in session.groups.indices where session.groups[group].container != .none {
            if containers.contains(.none) { with { $0.groups[group].container = .none } }
            if session.groups[group].container == .nestedScrollView || session.groups[group].container == .tableCells,
                containers.contains(.scrollView)
            {
                with { $0.groups[group].container = .scrollView }
            }
        }
        if case .thirdParty(let heights) = session.keyboard, heights.count > 1 {
            for index in heights.indices.dropLast() {
                with { $0.keyboard = .thirdParty(heights.enumerated().filter { $0.offset != index }.map(\.element)) }
            }
        }
        with { $0.keyboard = .system(predictionBar: false) }
        with { $0.keyboard = .system(predictionBar: true) }
        if let device { with { $0.device = device } }
        with { $0.orientation = .portrait }
        with { $0.placement = .bottom }
        with { $0.lastFieldAction = nil }
        with { $0.tagsReversed = false }
        for group in session.groups.indices {
            for index in session.groups[group].fields.indices {
                let field = session.groups[group].fields[index]
                let plain = GeneratedSession.Field(id: field.id, kind: field.kind)
                with { $0.groups[group].fields[index] = plain }
                if field.kind != .text { with { $0.groups[group].fields[index] = GeneratedSession.Field(id: field.id, kind: .text) } }
            }
        }
        return result
    }

    /// The session with a step's numbers rounder: its gap 0.5 s, a growth of 20 points.
    private static func roundedSteps(_ session: GeneratedSession) -> [GeneratedSession] {
        var result: [GeneratedSession] = []
        for index in session.steps.indices {
            if session.steps[index].after != 0.5 && index > 0 {
                var copy = session
                copy.steps[index].after = 0.5
                result.append(copy)
            }
            if case .grow(let by) = session.steps[index].action, by != 20 {
                var copy = session
                copy.steps[index].action = .grow(20)
                result.append(copy)
            }
        }
        return result
    }
}

extension GeneratedSession {
    /// How big the session is, for the shrinker, compared in order: its records (events), steps,
    /// fields, groups, containers, keyboard, device, orientation, placement, unusual fields, unround
    /// numbers and last-field action. A shrink keeps only a session smaller by this measure, so it
    /// ends.
    var size: [Int] {
        let containers = groups.reduce(0) { total, group in
            total + (GeneratedSession.Container.allCases.firstIndex(of: group.container) ?? 0)
        }
        let keyboardRank: Int =
            switch keyboard {
            case .system(let bar): bar ? 1 : 0
            case .hardware: 2
            case .thirdParty(let heights): 3 + heights.count
            case .floating: 20
            case .undocked: 21
            case .split: 22
            }
        let unusual = fields.reduce(0) { total, field in
            total + (field.kind == .text ? 0 : 1) + (field.height == Field(id: field.id, kind: field.kind).height ? 0 : 1)
                + (field.isHidden ? 1 : 0) + (field.isEnabled ? 0 : 1) + (field.isTagged ? 0 : 1)
        }
        let unround = steps.enumerated().reduce(0) { total, step in
            var count = step.offset > 0 && step.element.after != 0.5 ? 1 : 0
            if case .grow(let by) = step.element.action, by != 20 { count += 1 }
            return total + count
        }
        return [
            records().count, steps.count, fields.count, groups.count, containers, keyboardRank,
            Device.all.firstIndex(of: device) ?? Device.all.count, orientation == .portrait ? 0 : 1,
            GeneratedSession.Placement.allCases.firstIndex(of: placement).map { $0 == 1 ? 0 : $0 + 1 } ?? 0, unusual, unround,
            lastFieldAction == nil ? 0 : 1, tagsReversed ? 1 : 0,
        ]
    }

    /// The session without the taps on fields it no longer has.
    func withoutTapsOnMissingFields() -> GeneratedSession {
        let ids = Set(fields.map(\.id))
        var copy = self
        copy.steps.removeAll { step in
            if case .tap(let id) = step.action { return !ids.contains(id) }
            return false
        }
        return copy
    }
}
