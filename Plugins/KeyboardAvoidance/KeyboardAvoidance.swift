import ResponderBus

/// Moves the content so that the focused field is not covered by the keyboard, and puts it back
/// when the keyboard goes.
///
/// Decides the root view's origin (`viewShift.originY`: the absolute y origin, the resting origin
/// when unmoved, lower values moved up) and, for a field inside a scroll view, that scroll view's
/// offset and bottom inset (`scroll`). The geometry is ``AvoidanceRule``; this class is the thin
/// adapter that decides when to apply the rule, reading the keyboard from the bus's model
/// (`PluginContext.keyboard`):
///
/// - **Which keyboard covers**: `KeyboardModel.coveredPart` (see `KeyboardInfo.coveredPart(ofScreen:isHide:)`).
///   Another app's keyboard (`isLocal: false`) is ignored unless ``honorsOtherAppsKeyboards``. A
///   keyboard event with no end frame (old iPads' `Did` events) leaves the keyboard as it was.
/// - **Per view**: the focused field's `keyboardDistance` is the gap kept (``defaultGap`` when it
///   sets none), and a field whose `avoidsKeyboard` is off, or that lies inside a view whose
///   `avoidsKeyboard` is off (`ViewNode.isAvoidingKeyboard`), is treated as no field: nothing moves
///   for it. A plugin placed before avoidance sets both with a derived `viewSettings`, which the
///   bus applies to the screen before avoidance decides again.
/// - **Views that follow the keyboard** (`followsKeyboard`, UIKit's `keyboardLayoutGuide`): while
///   the keyboard covers part of the screen, each such view is moved (`viewMove`) so that its
///   bottom sits on the keyboard's top, wherever the root goes; when the keyboard hides, floats or
///   undocks, it goes back to its own frame (the last one its scene or a `setFrame` gave it). A
///   `viewSettings` that turns following off puts the view back too.
/// - **When**: on every keyboard event, first-responder change (`didBeginEditing`,
///   `didEndEditing`, `focusChange`, `resign`), frame change, screen change, view settings and scene. When a
///   `TurnSettling` plugin (text-view ordering) runs before it, it decides once per
///   loop turn, on `turnSettled`, instead (see ``Timing``). Without one, a turn that changes the
///   screen (a rotation) is still decided once, at the end of the turn: one move to the new target,
///   never a restore followed by a recompute.
/// - **Only changes**: `viewShift` is emitted only when the target differs from the current origin,
///   `scroll` only when offset or inset differ; duplicate notifications and `Did` events after their
///   `Will` produce nothing.
/// - **Animation**: a `viewShift` carries the last keyboard event's duration (0.25 s when missing or
///   zero) and raw curve (7 when missing).
public final class KeyboardAvoidance: KeyboardObserving, EditingObserving, EventObserving, TurnSettledObserving {
    /// When avoidance applies its rule.
    public enum Timing: Hashable, Sendable {
        /// On `turnSettled` when a `TurnSettling` plugin runs earlier in the pipeline, otherwise on
        /// every event.
        case automatic
        /// On every event it depends on, at once. A turn of several events is then decided
        /// several times: focus moving between two fields with the keyboard up puts the root back
        /// on `didEndEditing` and moves it again on `didBeginEditing`, two moves for one change
        /// (what `responder-bus explore`'s `one-move` property reports for this setting). For
        /// comparing with plugins that work that way; the default decides once per turn.
        case everyEvent
        /// Only on `turnSettled`.
        case settledTurns
    }

    /// The plugin's name: `"KeyboardAvoidance"`.
    public let name: String
    /// When the rule is applied.
    public var timing: Timing {
        get { when }
        set { when = newValue }
    }
    /// Whether another app's keyboard (`isLocal: false`) is avoided too. Default `false`.
    public var honorsOtherAppsKeyboards: Bool {
        get { honorsOtherApps }
        set {
            honorsOtherApps = newValue
            inputs &+= 1
        }
    }
    /// The gap kept above the keyboard for fields that set no `keyboardDistance`.
    public var defaultGap: Double {
        get { gap }
        set {
            gap = newValue
            inputs &+= 1
        }
    }

    private var when: Timing
    private var honorsOtherApps: Bool
    private var gap: Double
    /// Set from a `screen` event to the end of its loop turn: a rotation is decided once.
    private var screenChangingThisTurn = false
    /// The offset and inset each scroll view had before avoidance changed it; changed only through
    /// ``setRestingScroll(_:of:)`` and ``forgetRestingScroll()``, which count the change in ``inputs``.
    private var restingScroll: [ViewID: (offsetY: Double, bottomInset: Double)] = [:]
    /// Whether ``restingScroll`` holds any: what most decisions ask of it.
    private var hasRestingScroll = false
    /// The frame each view that follows the keyboard had before avoidance moved it (its own
    /// frame, from the scene or a `setFrame`); changed only through ``setFollowerHome(_:of:)``.
    private var followerHomes: [ViewID: Rect] = [:]
    /// Whether ``followerHomes`` holds any: what every decision asks of it (a flag, read without
    /// the dynamic exclusivity check a dictionary's `isEmpty` costs on every decision).
    private var hasFollowerHomes = false
    /// Counts the changes to what a decision reads besides the screen and the keyboard: the
    /// settings and ``restingScroll``.
    private var inputs: UInt64 = 0
    /// What the last decision was made from (see ``DecisionInputs``).
    private var lastDecision: DecisionInputs?
    /// The last reason posted for a field left under the keyboard, `nil` once there is none.
    private var lastExplanation: (why: AvoidanceExplanation, field: ViewID)?
    /// Whether ``lastExplanation`` holds one: what every decision asks of it (a flag, without the
    /// large optional's copy).
    private var hasExplanation = false

    /// What a decision is made from, in a form cheap to compare: the screen (`Screen.identity` and
    /// `Screen.revision`, which moves with every change of its views, first responder, size and
    /// safe area), the part the keyboard covers, and the plugin's own inputs. A decision made
    /// again from the same inputs changes nothing — what it posts changes the screen, and a
    /// decision that posts nothing leaves everything as it found it — so it is skipped: the
    /// `Did` events after their `Will`, a `didBeginEditing` echoing a focus change, an action on
    /// the last field all settle turns that leave these as they were.
    private struct DecisionInputs: Equatable {
        var screen: UInt64
        var revision: UInt64
        var covering: Rect?
        var inputs: UInt64
    }

    private func setRestingScroll(_ resting: (offsetY: Double, bottomInset: Double)?, of id: ViewID) {
        restingScroll[id] = resting
        hasRestingScroll = !restingScroll.isEmpty
        inputs &+= 1
    }

    private func forgetRestingScroll() {
        restingScroll.removeAll()
        hasRestingScroll = false
        inputs &+= 1
    }

    private func setFollowerHome(_ home: Rect?, of id: ViewID) {
        followerHomes[id] = home
        hasFollowerHomes = !followerHomes.isEmpty
        inputs &+= 1
    }

    /// Creates the plugin.
    public init(
        timing: Timing = .automatic, honorsOtherAppsKeyboards: Bool = false,
        defaultGap: Double = AvoidanceRule.defaultGap, name: String = "KeyboardAvoidance"
    ) {
        self.name = name
        when = timing
        gap = defaultGap
        honorsOtherApps = honorsOtherAppsKeyboards
    }

    /// The events other than keyboard and editing events that avoidance depends on.
    public var observedEvents: Set<AnyEventName>? {
        [
            EventName.focusChange.erased, EventName.resign.erased, EventName.setFrame.erased, EventName.screen.erased,
            EventName.scene.erased, EventName.viewSettings.erased,
        ]
    }

    /// The part of the screen the keyboard covers now, as avoidance sees it (another app's keyboard
    /// counted only when ``honorsOtherAppsKeyboards``).
    public func coveredPart(on screen: Screen) -> Rect? {
        screen.keyboard.coveredPart(includingOtherApps: honorsOtherApps)
    }

    // MARK: Keyboard events

    /// Decides on a keyboard event (any of the six) that tells where the keyboard is; the bus has
    /// already noted it in the model.
    public func keyboardEvent(_ event: Event<KeyboardInfo>, context: PluginContext) {
        if KeyboardState.counts(event.payload, isHide: event.name.isHide, followsOtherApps: honorsOtherApps) {
            decideUnlessDeferred(context)
        }
    }

    // MARK: Other events

    /// Decides once a turn settled, when it defers to settled turns.
    public func turnSettled(_ event: Event<TurnSettled>, context: PluginContext) {
        if defersToSettledTurns(context) { decide(context) }
    }

    /// Decides when a field begins editing.
    public func didBeginEditing(_ event: Event<EditingInfo>, context: PluginContext) {
        decideUnlessDeferred(context)
    }

    /// Decides when a field ends editing.
    public func didEndEditing(_ event: Event<EditingInfo>, context: PluginContext) {
        decideUnlessDeferred(context)
    }

    /// Decides on focus, frame and screen changes.
    public func observe(_ event: AnyEvent, context: PluginContext) {
        if event.name == EventName.scene {
            forgetRestingScroll()
            if hasFollowerHomes {
                followerHomes.removeAll()
                hasFollowerHomes = false
                inputs &+= 1
            }
        } else if hasFollowerHomes, let change = event.as(.setFrame), followerHomes[change.payload.view] != nil {
            // The app laid a moved follower out again (a rotation): its new frame is its own.
            setFollowerHome(change.payload.frame, of: change.payload.view)
        }
        if event.name == EventName.screen, !defersToSettledTurns(context), !screenChangingThisTurn {
            // Rotation: iOS sends the screen change, frame changes and a willHide/willShow pair (or
            // two) in one turn. Decide once at its end: one move, never a restore then a recompute.
            screenChangingThisTurn = true
            context.loop.runAtEndOfTurn { [weak self] in
                guard let self else { return }
                self.screenChangingThisTurn = false
                self.decide(context)
            }
            return
        }
        decideUnlessDeferred(context)
    }

    private func defersToSettledTurns(_ context: PluginContext) -> Bool {
        switch when {
        case .automatic: context.turnsAreSettled
        case .everyEvent: false
        case .settledTurns: true
        }
    }

    private func decideUnlessDeferred(_ context: PluginContext) {
        if !defersToSettledTurns(context) && !screenChangingThisTurn { decide(context) }
    }

    // MARK: Deciding

    /// Puts back the scroll views avoidance changed, but `kept`.
    private func restoreScrollViews(except kept: [ViewNode], on screen: Screen, _ context: PluginContext) {
        // In the order of their ids: a dictionary's own order differs from run to run, and two
        // scroll views put back in another order are other decisions (found by `explore`).
        for (id, resting) in restingScroll.sorted(by: { $0.key < $1.key })
        where !kept.contains(where: { $0.id == id }) {
            setRestingScroll(nil, of: id)
            if let node = screen.view(id), node.contentOffset.y != resting.offsetY || node.contentInset.bottom != resting.bottomInset {
                context.post(.scroll, ScrollChange(view: id, contentOffsetY: resting.offsetY, bottomInset: resting.bottomInset))
            }
        }
    }

    /// Applies the rule to the current state and emits what changed.
    private func decide(_ context: PluginContext) {
        decide(context, on: context.screen)
    }

    private func decide(_ context: PluginContext, on screen: Screen) {
        let covering = coveredPart(on: screen)
        // The screen's revision as this decision starts: what it posts may change the screen
        // before it returns (outside a dispatch, a post is delivered at once), and the next
        // decision must then look again.
        let revision = screen.revision
        if let last = lastDecision, last.revision == revision, last.covering == covering, last.inputs == inputs,
            last.screen == screen.identity
        {
            return
        }
        defer {
            lastDecision = DecisionInputs(screen: screen.identity, revision: revision, covering: covering, inputs: inputs)
        }
        var field: ViewNode? = screen.firstResponder
        let hasFocus = field != nil
        // A hidden field, or one whose settings (or an enclosing view's) turn avoidance off for it,
        // is as no field.
        if let focused = field, !focused.isVisible || !screen.isAvoidingKeyboard(focused) { field = nil }
        // The scroll views around the field, nearest first (most fields are in none).
        let scrollViews = field?.enclosingScrollView == nil ? [] : field?.ancestors.filter { $0.kind == .scrollView } ?? []

        // A scroll view avoidance changed that no longer holds the field goes back first.
        if hasRestingScroll {
            restoreScrollViews(except: scrollViews, on: screen, context)
        }

        // Where the root and the field's scroll views go, and what limited them.
        var rootOffsetY = 0.0
        var scrolls: [ScrollChange] = []
        var limitedFrame: Rect?
        if let field {
            if !scrollViews.isEmpty {
                (rootOffsetY, scrolls, limitedFrame) = target(for: field, in: scrollViews, covering: covering, on: screen)
            } else if let covering {
                // A field outside any scroll view (the usual case, decided on every settled turn)
                // takes the rule's root target directly; the rule keeps the whole need unless one
                // of its limits won (by more than half a point), which is explained out of line.
                let frame = screen.frameInScreen(of: field, unmoved: true)
                let gap = field.keyboardDistance ?? self.gap
                rootOffsetY = AvoidanceRule.rootTarget(
                    fieldMinY: frame.minY, fieldMaxY: frame.maxY, gap: gap, keyboardTop: covering.minY,
                    screenHeight: screen.size.height, safeTop: screen.safeArea.top)
                if rootOffsetY > covering.minY - (frame.maxY + gap) + 0.5 { limitedFrame = frame }
            }
        }
        var moved = false

        for scroll in scrolls {
            guard let node = screen.view(scroll.view) else { continue }
            if covering != nil, restingScroll[scroll.view] == nil {
                setRestingScroll((node.contentOffset.y, node.contentInset.bottom), of: scroll.view)
            } else if covering == nil {
                setRestingScroll(nil, of: scroll.view)
            }
            if node.contentOffset.y != scroll.contentOffsetY || node.contentInset.bottom != scroll.bottomInset {
                context.post(.scroll, scroll)
                moved = true
            }
        }

        let target = screen.restingRootOriginY + rootOffsetY
        if screen.root != nil, target != screen.rootOriginY {
            let animation = self.animation(on: screen)
            context.post(.viewShift, ViewShift(originY: target, duration: animation.effectiveDuration, curve: animation.effectiveCurve))
            moved = true
        }
        if hasFollowerHomes || screen.hasKeyboardFollowers {
            moved = placeFollowers(covering: covering, rootShift: target - screen.rootOriginY, on: screen, context) || moved
        }
        // Why the focused field stays under the keyboard, when it may: a limit of the rule held
        // it, the rule left it out (opted out), or the keyboard covers nothing (not docked).
        if limitedFrame != nil || hasExplanation || (hasFocus && (field == nil || covering == nil)) {
            explain(
                limitedFrame: limitedFrame, rootOffsetY: rootOffsetY, covering: covering, avoided: field != nil, moved: moved, on: screen,
                context)
        }
    }

    /// The root's offset and the scroll views' changes for the focused `field` in `scrollViews`
    /// (nearest first), and the field's frame (measured with its scroll views where avoidance puts
    /// them) when a limit of the rule held them short. The rule is applied to the nearest scroll
    /// view, then, with the field where that one scrolled it, to each one around it, as
    /// IQKeyboardManager walks up the chain: a field in a scroll view nested in another (a short
    /// inner list in a long form) is scrolled by the outer one when the inner one cannot scroll it
    /// far enough. Out of line: most fields are in no scroll view.
    @inline(never)
    private func target(
        for field: ViewNode, in scrollViews: [ViewNode], covering: Rect?, on screen: Screen
    ) -> (rootOffsetY: Double, scrolls: [ScrollChange], limitedFrame: Rect?) {
        let gap = field.keyboardDistance ?? self.gap
        // Measured as if its scroll views were still at rest.
        var frame = screen.frameInScreen(of: field, unmoved: true)
        for scrollView in scrollViews {
            let resting = restingScroll[scrollView.id] ?? (scrollView.contentOffset.y, scrollView.contentInset.bottom)
            frame = frame.offsetBy(dx: 0, dy: scrollView.contentOffset.y - resting.offsetY)
        }
        var scrolls: [ScrollChange] = []
        var rootOffsetY = 0.0
        for (index, scrollView) in scrollViews.enumerated() {
            let resting = restingScroll[scrollView.id] ?? (scrollView.contentOffset.y, scrollView.contentInset.bottom)
            var scrollFrame = screen.frameInScreen(of: scrollView, unmoved: true)
            for outer in scrollViews[(index + 1)...] {
                let outerResting = restingScroll[outer.id]?.offsetY ?? outer.contentOffset.y
                scrollFrame = scrollFrame.offsetBy(dx: 0, dy: outer.contentOffset.y - outerResting)
            }
            let placement = ScrollPlacement(
                id: scrollView.id, frame: scrollFrame, restingOffsetY: resting.offsetY, restingBottomInset: resting.bottomInset,
                contentHeight: scrollView.contentSize.height)
            let decision = AvoidanceRule.decide(
                covering: covering, field: FieldPlacement(frame: frame, gap: gap, scrollView: placement), screen: screen.size,
                safeTop: screen.safeArea.top)
            if let scroll = decision.scroll {
                frame = frame.offsetBy(dx: 0, dy: resting.offsetY - scroll.contentOffsetY)
                scrolls.append(scroll)
            }
            rootOffsetY = decision.rootOffsetY
        }
        guard let covering, rootOffsetY > covering.minY - (frame.maxY + gap) + 0.5 else {
            return (rootOffsetY, scrolls, nil)
        }
        return (rootOffsetY, scrolls, frame)
    }

    /// Says why the focused field stays under the keyboard, if it does (``explain(_:field:moved:_:)``):
    /// the rule's limit for a field measured at `limitedFrame`, or why nothing moved for it.
    @inline(never)
    private func explain(
        limitedFrame: Rect?, rootOffsetY: Double, covering: Rect?, avoided: Bool, moved: Bool, on screen: Screen, _ context: PluginContext
    ) {
        let focused = screen.firstResponder
        var why: AvoidanceExplanation?
        if let limitedFrame, let covering, let focused {
            why = shortfall(
                of: limitedFrame, gap: focused.keyboardDistance ?? gap, rootOffsetY: rootOffsetY, covering: covering, on: screen)
        } else if let focused, !avoided || covering == nil {
            why = AvoidanceExplanation.unmovedField(focused, covering: covering, on: screen)
        }
        explain(why, field: focused?.id, moved: moved, context)
    }

    /// Why the root stops at `rootOffsetY` for a field at `frame` (unmoved, its scroll view at the
    /// offset avoidance chose) keeping `gap`: the limit of the rule that held it, and by how much.
    @inline(never)
    private func shortfall(of frame: Rect, gap: Double, rootOffsetY: Double, covering: Rect, on screen: Screen) -> AvoidanceExplanation? {
        guard
            let limit = AvoidanceRule.limit(
                fieldMinY: frame.minY, fieldMaxY: frame.maxY, gap: gap, keyboardTop: covering.minY,
                screenHeight: screen.size.height, safeTop: screen.safeArea.top)
        else { return nil }
        let shortfall = AvoidanceExplanation.Shortfall(
            need: frame.maxY + gap - covering.minY, moved: -rootOffsetY, gap: gap,
            coveredBy: frame.offsetBy(dx: 0, dy: rootOffsetY).coveredHeight(by: covering),
            belowScreen: max(0, frame.maxY - screen.size.height))
        return .limited(limit, shortfall)
    }

    /// Posts why the focused field stays under the keyboard (`why`), once for each new reason or
    /// move (`moved`: this decision posted one, which a covered-field check reads the reason
    /// after); forgets the last reason when there is none.
    private func explain(_ why: AvoidanceExplanation?, field: ViewID?, moved: Bool, _ context: PluginContext) {
        guard let why, let field else {
            lastExplanation = nil
            hasExplanation = false
            return
        }
        if !moved, let last = lastExplanation, last.why == why, last.field == field { return }
        lastExplanation = (why, field)
        hasExplanation = true
        context.post(.diagnostic, why.diagnostic(field: field))
    }

    /// The keyboard event whose duration and curve a move takes.
    @inline(__always)
    private func animation(on screen: Screen) -> KeyboardInfo {
        let model = screen.keyboard
        return (honorsOtherApps ? model.anyApp.latest : model.ownApp.latest) ?? KeyboardInfo()
    }

    /// Puts each view that follows the keyboard on the keyboard's top while it covers a part of
    /// the screen, and back on its own frame otherwise. `rootShift` is how far the root is about to
    /// move (its `viewShift` is not applied yet): a follower's place is measured after it.
    @discardableResult
    private func placeFollowers(covering: Rect?, rootShift: Double, on screen: Screen, _ context: PluginContext) -> Bool {
        let followers = screen.keyboardFollowers
        var moves: [ViewMove] = []
        let animation = self.animation(on: screen)
        // A view that no longer follows (or is gone) goes back to its own frame.
        // In the order of their ids, as scroll views are put back: a dictionary's order differs
        // from run to run.
        for (id, home) in followerHomes.sorted(by: { $0.key < $1.key }) where !followers.contains(where: { $0.id == id }) {
            setFollowerHome(nil, of: id)
            if let node = screen.view(id), node.frame != home { moves.append(ViewMove(view: id, frame: home)) }
        }
        for follower in followers {
            let home = followerHomes[follower.id] ?? follower.frame
            var target = home
            if let covering {
                if followerHomes[follower.id] == nil { setFollowerHome(home, of: follower.id) }
                let bottom = screen.frameInScreen(of: follower).maxY + rootShift
                target = follower.frame.offsetBy(dx: 0, dy: covering.minY - bottom)
            } else if followerHomes[follower.id] != nil {
                setFollowerHome(nil, of: follower.id)
            }
            if target != follower.frame { moves.append(ViewMove(view: follower.id, frame: target)) }
        }
        for var move in moves {
            move.duration = animation.effectiveDuration
            move.curve = animation.effectiveCurve
            context.post(.viewMove, move)
        }
        return !moves.isEmpty
    }
}
