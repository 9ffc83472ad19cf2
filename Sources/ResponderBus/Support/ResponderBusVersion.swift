/// The version of the ResponderBus package: what `responder-bus --version` prints, from this one
/// place.
///
/// Semantic versioning; before 1.0, a minor version may change the public API.
public enum ResponderBusVersion {
    /// The version, such as `0.4.0`.
    public static let string = "0.4.0"
}
