import CLibUV

/// libuv's words for an error code, through the `_r` functions into a buffer of the caller's (the
/// plain ones allocate, and never free, a string for unknown codes).
///
/// Invariants (ResponderBusUV's audited layer): the buffer is a temporary allocation of 256 bytes,
/// zeroed, of which libuv is lent all but the last, so the text always ends with a NUL; it is read
/// into a `String` before the allocation ends. Any thread.
enum UVErrorText {
    /// libuv's name for `code` (`uv_err_name_r`), such as `ENOENT`.
    static func name(_ code: Int32) -> String {
        text { uv_err_name_r(code, $0, $1) }
    }

    /// libuv's message for `code` (`uv_strerror_r`), such as `no such file or directory`.
    static func message(_ code: Int32) -> String {
        text { uv_strerror_r(code, $0, $1) }
    }

    private static func text(_ fill: (UnsafeMutablePointer<CChar>, Int) -> UnsafeMutablePointer<CChar>?) -> String {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 256) { buffer in
            buffer.initialize(repeating: 0)
            let base = buffer.baseAddress!
            _ = fill(base, buffer.count - 1)
            return String(cString: base)
        }
    }
}
