import PushModel

/// Parts of an input's outputs that are the same bytes in every format that writes them: `data`'s members
/// (`"name":value,...`), the tap action and the buttons (action objects in the Acoustic layout, in both
/// `apns` and `android-expandable`). The first format of an input that writes a part writes it; the
/// others copy it: every format of an input writes into one buffer, and a part is a range of it.
struct SharedParts {
    /// Where an emitter wrote the parts it wrote itself, in the buffer.
    struct Ranges {
        var data: Range<Int>? = nil
        var action: Range<Int>? = nil
        var actions: Range<Int>? = nil
    }

    /// The parts written so far.
    var written = Ranges()
    /// The lengths of `data`'s member names, as ``ReservedKeys`` tells them apart (every bit when a name
    /// is escaped): found once per input, so that each format's check can skip names none of its
    /// reserved ones could be.
    var dataNameLengths: UInt64 = ~0

    /// Keeps the parts an emitter wrote that no earlier format had.
    mutating func keep(_ parts: Ranges) {
        written.data = written.data ?? parts.data
        written.action = written.action ?? parts.action
        written.actions = written.actions ?? parts.actions
    }

    /// The name lengths of `data`'s members (none when there is no `data`).
    static func nameLengths(of data: InputValue?, _ document: JSONDocument) -> UInt64 {
        guard let data else { return 0 }
        var lengths: UInt64 = 0
        for (name, _) in document.members(data.token) {
            let token = document.tokens[name]
            lengths |= token.isEscaped ? ~0 : ReservedKeys.lengthBit(Int(token.length))
        }
        return lengths
    }
}
