/// A sender's option that cannot be used, found at start (a key file missing, unreadable or of the wrong kind,
/// an endpoint that is not an `https` URL, ...): a usage error, which the command line turns into exit 64.
///
/// The message names the option and may name a file, never key material.
public struct SenderOptionError: Error, Hashable, CustomStringConvertible {
    /// The option, as written on the command line (`--apns-key-file`).
    public var option: String
    /// What is wrong with its value.
    public var message: String

    /// Creates an error for `option`.
    public init(option: String, message: String) {
        self.option = option
        self.message = message
    }

    /// `OPTION: MESSAGE`.
    public var description: String { "\(option): \(message)" }
}
