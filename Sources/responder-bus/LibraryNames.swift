import ResponderBusExternal

/// The plugin library file names the command's help and messages give: what SwiftPM builds on the
/// system the command runs on (`libX.so` on Linux, `libX.dylib` on macOS).
enum LibraryNames {
    /// `lib<Name>.so`, or `lib<Name>.dylib`.
    static let pattern = PluginLibrary.fileName(forPlugin: "<Name>")
    /// `lib<NAME>.so`, or `lib<NAME>.dylib`: the placeholder spelled as `new-plugin`'s argument is.
    static let upperPattern = PluginLibrary.fileName(forPlugin: "<NAME>")

    /// The library file of the plugin `name`: `libFocusReporter.so`, or `libFocusReporter.dylib`.
    static func file(_ name: String) -> String {
        PluginLibrary.fileName(forPlugin: name)
    }
}
