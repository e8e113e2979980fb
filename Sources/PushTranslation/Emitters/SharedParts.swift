import PushModel

/// Parts of an input's outputs that are the same bytes in every format that writes them: `data`'s members
/// (`"name":value,...`), the tap action and the buttons (action objects in the Acoustic layout, in both
/// `apns` and `android-expandable`). The first format of an input that writes a part writes it; the
/// others copy it out of that format's value.
struct SharedParts {
    /// A part a format wrote: that format's value and where the part is in it.
    struct Written {
        let value: [UInt8]
        let range: Range<Int>
    }

    /// Where an emitter wrote the parts it wrote itself, in its value.
    struct Ranges {
        var data: Range<Int>? = nil
        var action: Range<Int>? = nil
        var actions: Range<Int>? = nil
    }

    /// `data`'s members, once a format has written them.
    var data: Written? = nil
    /// The tap action (`notification-action`), once a format has written it.
    var action: Written? = nil
    /// The buttons (`category-actions`, `expandable-actions`), once a format has written them.
    var actions: Written? = nil
    /// The lengths of `data`'s member names, as ``ReservedKeys`` tells them apart (every bit when a name
    /// is escaped): found once per input, so that each format's check can skip names none of its
    /// reserved ones could be.
    var dataNameLengths: UInt64 = ~0

    /// Keeps the parts `emission` wrote that no earlier format had.
    mutating func keep(_ emission: Emission) {
        let parts = emission.parts
        if data == nil, let range = parts.data { data = Written(value: emission.value, range: range) }
        if action == nil, let range = parts.action { action = Written(value: emission.value, range: range) }
        if actions == nil, let range = parts.actions { actions = Written(value: emission.value, range: range) }
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
