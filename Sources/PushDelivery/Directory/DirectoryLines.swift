/// The JSON Lines of `pushgate devices` (SPEC 10.8): one `{"id":DEVICE_ID, ..value}` per device, read by
/// `put` and written by `list`.
public enum DirectoryLines {
    /// One line of `put`, checked: the record to write.
    public struct Registration: Sendable, Hashable {
        /// The record's key: the device id.
        public var id: String
        /// The record's value: the line's object without its `id` member, every other member written as
        /// the line gave it, in its order.
        public var value: [UInt8]
    }

    /// The record that `line` asks `put` to write, or the first rule it breaks: the line must be a JSON
    /// object with a string `id` (the key, 1..512 UTF-8 bytes); the rest of it must be a valid value.
    public static func registration(_ line: [UInt8], parser: DirectoryRecordParser) -> Result<
        Registration, DirectoryViolation
    > {
        let json: DirectoryJSON
        do {
            json = try DirectoryJSON.read(line)
        } catch {
            return .failure(.value(error.pointer, error.message))
        }
        guard case .object(let members) = json else { return .failure(.value("", "must be a JSON object")) }
        guard case .string(let id)? = json["id"] else {
            return .failure(.value("/id", json["id"] == nil ? "is required (the device id)" : "must be a string"))
        }
        let value = object(members.filter { $0.name != "id" }, in: line)
        switch parser.entry(key: Array(id.utf8), value: value) {
        case .device: return .success(Registration(id: id, value: value))
        case .invalid(_, let violation):
            if case .key = violation.place { return .failure(.value("/id", violation.rule)) }
            return .failure(violation)
        case .tombstone: return .failure(.value("", "must be a JSON object"))
        }
    }

    /// The line `list` prints for the device `id` whose value is `value`: `id` first, then the value's
    /// members as they were written (a member of the value named `id` is left out). `nil` when `value` is
    /// not a JSON object.
    public static func line(id: String, value: [UInt8]) -> [UInt8]? {
        guard case .object(let members)? = try? DirectoryJSON.read(value) else { return nil }
        var line = Array("{\"id\":".utf8)
        JSONText.appendString(id, to: &line)
        for member in members where member.name != "id" {
            line.append(UInt8(ascii: ","))
            line += value[member.bytes]
        }
        line.append(UInt8(ascii: "}"))
        return line
    }

    /// A JSON object of `members` of `text`, each written as it is there.
    private static func object(_ members: [DirectoryJSON.Member], in text: [UInt8]) -> [UInt8] {
        var object: [UInt8] = [UInt8(ascii: "{")]
        for (index, member) in members.enumerated() {
            if index > 0 { object.append(UInt8(ascii: ",")) }
            object += text[member.bytes]
        }
        object.append(UInt8(ascii: "}"))
        return object
    }
}

/// JSON text written by hand, for the few strings `pushgate devices` writes.
enum JSONText {
    /// Appends `text` as a JSON string: `"` and `\` escaped, control characters as `\u00XX`.
    static func appendString(_ text: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                output += [UInt8(ascii: "\\"), byte]
            case 0x00..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                output += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            default:
                output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
