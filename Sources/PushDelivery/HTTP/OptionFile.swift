import Foundation

/// Reading a file an option names (a key, credentials, CA certificates) at start, with errors that name the option.
public enum OptionFile {
    /// The largest file read: key and certificate files are a few kilobytes.
    public static let sizeLimit = 1 << 20

    /// The bytes of the file at `path`, or an error naming `option` and saying whether the file is missing,
    /// unreadable or too large.
    public static func read(_ path: String, option: String) throws(SenderOptionError) -> [UInt8] {
        guard !path.isEmpty else { throw SenderOptionError(option: option, message: "no file named") }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw SenderOptionError(option: option, message: "\(path): no such file")
        }
        guard !isDirectory.boolValue else { throw SenderOptionError(option: option, message: "\(path) is a directory") }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw SenderOptionError(option: option, message: "\(path): cannot be read (permission denied?)")
        }
        defer { try? handle.close() }
        let data: Data?
        do {
            data = try handle.read(upToCount: sizeLimit + 1)
        } catch {
            throw SenderOptionError(option: option, message: "\(path): cannot be read")
        }
        let bytes = Array(data ?? Data())
        guard bytes.count <= sizeLimit else {
            throw SenderOptionError(option: option, message: "\(path) is larger than \(sizeLimit) bytes")
        }
        return bytes
    }
}
