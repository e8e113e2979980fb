import PushModel

/// What an emitter made of a notification: the value bytes, or the emit-stage errors that stop it.
struct Emission {
    /// The value bytes (empty when there are errors).
    var value: [UInt8]
    /// Emit-stage errors; any makes the format a dead letter.
    var errors: [Diagnostic]
    /// Format warnings (`overridden_field`, `text_too_long`).
    var warnings: [Diagnostic]
}

/// Writes one output format from the IR.
protocol Emitter: Sendable {
    /// The format this emitter writes.
    var format: OutputFormat { get }
    /// Writes the format's value, or reports why it cannot.
    func emit(_ notification: PushNotification) -> Emission
}

/// The per-format size limit shared by APNs and FCM.
enum PayloadLimit {
    /// 4096 bytes.
    static let bytes = 4096

    /// `payload_too_large` when `value` is over the limit.
    static func check(_ value: [UInt8], format: OutputFormat) -> Diagnostic? {
        guard value.count > bytes else { return nil }
        return Diagnostic(
            .payloadTooLarge, at: "",
            "the \(format.rawValue) payload would be \(value.count) bytes; the limit is \(bytes). Shorten the text or data")
    }
}

/// Data members the format writes itself and so may not come from `data`.
struct ReservedKeys {
    let names: Set<String>
    let prefix: String?

    /// Compares UTF-8 bytes: `String.hasPrefix` compares grapheme clusters, so `adb_` followed by a
    /// combining mark would slip through.
    private func hasReservedPrefix(_ name: String) -> Bool {
        guard let prefix else { return false }
        return name.utf8.starts(with: prefix.utf8)
    }

    func check(_ data: JSONObject, format: OutputFormat) -> [Diagnostic] {
        var errors: [Diagnostic] = []
        for member in data.members where names.contains(member.name) || hasReservedPrefix(member.name) {
            errors.append(
                Diagnostic(
                    .reservedKey, at: JSONPointer.appending("/data", member.name),
                    "\(format.rawValue) writes \"\(JSONParser.printable(member.name))\" itself; rename this data member"))
        }
        return errors
    }
}
