import ResponderBus

extension HierarchyExpectations {
    /// The expectations for the fixtures collected for issue 16 from public sources (files 36 on), written by hand from
    /// reading each dump (see ``HierarchyFixtureExpectation`` for the counting rules).
    static let collected: [String: HierarchyFixtureExpectation] = [:]
}
