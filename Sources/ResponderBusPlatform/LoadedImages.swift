#if canImport(MachO)
    import MachO
#endif

/// The dynamic loader as the package sees it: what a library file is called, which loaded image
/// (program or library) holds an address and which file an image was mapped from, a symbol looked
/// up in the whole process, and the library a refused `dlopen` was missing.
///
/// Linux reads its mappings from `/proc/self/maps` (path, inode and address range of each); Darwin
/// asks dyld (`dladdr`, and its image list: `_dyld_image_count`, `_dyld_get_image_name`), which
/// knows paths but not inodes, so the inode of a Darwin image is its path's inode when asked.
package enum LoadedImages {
    /// The file name ending of a dynamic library SwiftPM builds here: `.dylib` on Darwin, `.so`
    /// elsewhere.
    package static var libraryExtension: String {
        #if canImport(Darwin)
            ".dylib"
        #else
            ".so"
        #endif
    }

    /// The file name of the dynamic library product `name` (`libName.so`, `libName.dylib`).
    package static func libraryFile(_ name: String) -> String {
        "lib" + name + libraryExtension
    }

    /// The path of the loaded image (the program, or a library) whose mapping holds `address`;
    /// `nil` when none does.
    package static func path(containing address: UnsafeRawPointer) -> String? {
        #if canImport(Darwin)
            var info = Dl_info()
            guard dladdr(address, &info) != 0, let name = info.dli_fname else { return nil }
            return String(cString: name)
        #else
            let value = UInt(bitPattern: address)
            return mappings().first { $0.range.contains(value) }?.path
        #endif
    }

    /// The inode of the file the image loaded from `path` was mapped from, if such an image is
    /// loaded. Linux: the mapping's own inode (what was mapped, even if the path now names another
    /// file). Darwin: the inode `path` names now, for an image dyld lists under that path.
    package static func inode(ofImageLoadedFrom path: String) -> UInt64? {
        #if canImport(Darwin)
            for index in 0..<_dyld_image_count() {
                guard let name = _dyld_get_image_name(index), String(cString: name) == path else { continue }
                var info = stat()
                guard stat(path, &info) == 0 else { return nil }
                return UInt64(info.st_ino)
            }
            return nil
        #else
            return mappings().first { $0.path == path }?.inode
        #endif
    }

    /// The address of the symbol `name` as the whole process sees it: the program's and then its
    /// libraries' (`RTLD_DEFAULT`: a null handle on Linux; on Darwin `(void *)-2`, a macro Swift
    /// does not import).
    package static func symbol(_ name: String) -> UnsafeMutableRawPointer? {
        #if canImport(Darwin)
            dlsym(UnsafeMutableRawPointer(bitPattern: -2), name)
        #else
            dlsym(nil, name)
        #endif
    }

    /// The file name of the library that a refused `dlopen` could not find, from `dlerror`'s
    /// `reason`; `nil` when it was refused for another reason. glibc says `libX.so: cannot open
    /// shared object file: …`; dyld says `Library not loaded: @rpath/libX.dylib` (then where it
    /// looked). `dyld` chooses the wording read (this system's by default; either can be read on
    /// either system, so both are tested on Linux).
    package static func missingLibrary(inLoadError reason: String, dyld: Bool = LoadedImages.isDyld) -> String? {
        if dyld {
            guard let start = index(after: "Library not loaded: ", in: reason) else { return nil }
            let loadPath = reason[start...].prefix { $0 != "\n" && $0 != " " && $0 != "'" }
            let name = loadPath.split(separator: "/").last.map(String.init) ?? ""
            return name.isEmpty ? nil : name
        }
        guard let end = index(of: ": cannot open shared object file", in: reason) else { return nil }
        return String(reason[..<end])
    }

    /// Whether the dynamic loader is Darwin's dyld (Mach-O) rather than an ELF one.
    package static var isDyld: Bool {
        #if canImport(Darwin)
            true
        #else
            false
        #endif
    }

    /// Where `needle` first starts in `text` (this module does without Foundation).
    static func index(of needle: String, in text: String) -> String.Index? {
        var start = text.startIndex
        while start < text.endIndex {
            if text[start...].hasPrefix(needle) { return start }
            start = text.index(after: start)
        }
        return nil
    }

    /// Where the text after the first `needle` in `text` starts.
    static func index(after needle: String, in text: String) -> String.Index? {
        index(of: needle, in: text).map { text.index($0, offsetBy: needle.count) }
    }

    #if !canImport(Darwin)
        /// This process's file mappings (`/proc/self/maps`): address range, inode and path.
        private static func mappings() -> [(range: Range<UInt>, inode: UInt64?, path: String)] {
            var found: [(range: Range<UInt>, inode: UInt64?, path: String)] = []
            _ = SystemFiles.forEachLine(ofFile: "/proc/self/maps") { line in
                // `start-end perms offset device inode    path`
                let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
                guard fields.count == 6 else { return }
                let bounds = fields[0].split(separator: "-").compactMap { UInt($0, radix: 16) }
                guard bounds.count == 2, bounds[0] <= bounds[1] else { return }
                found.append((bounds[0]..<bounds[1], UInt64(fields[4]), String(fields[5].drop { $0 == " " }.prefix { $0 != "\n" })))
            }
            return found
        }
    #endif
}
