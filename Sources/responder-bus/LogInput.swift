import EventLog

/// Opens a log and reads its header, exiting 66 when it cannot be read and 65 when the header is
/// bad, with the reason on standard error.
func openLog(_ path: String) throws -> (LogReader, LogHeader) {
    let reader: LogReader
    do {
        reader = try LogReader(path: SystemPath.argument(path))
    } catch {
        complain(error.message)
        throw Exit.noInput
    }
    do {
        return (reader, try reader.readHeader())
    } catch {
        complain("\(path): \(error)")
        throw Exit.dataError
    }
}
