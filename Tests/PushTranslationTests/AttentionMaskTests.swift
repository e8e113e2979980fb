import Testing

@testable import PushTranslation

/// The attention mask itself, against a byte-by-byte reference: every byte value in every position of a
/// word, alone and followed by every other kind of byte (a borrow runs upwards from a match, so only
/// the lowest flagged byte must be exact).
@Suite struct AttentionMaskTests {
    private static func needsLook(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80
    }

    private static func word(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
    }

    /// The position of the first byte of `bytes` that needs a look, as the mask gives it (8 for none).
    private static func firstFlagged(_ bytes: [UInt8]) -> Int {
        let mask = JSONScanner.attentionMask(word(bytes))
        return mask == 0 ? 8 : mask.trailingZeroBitCount >> 3
    }

    @Test func everyByteInEveryPositionIsFlaggedExactlyWhenItNeedsALook() {
        for value in 0...255 {
            for position in 0..<8 {
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 8)
                bytes[position] = UInt8(value)
                #expect(
                    Self.firstFlagged(bytes) == (Self.needsLook(UInt8(value)) ? position : 8),
                    "byte \(value) at \(position)")
            }
        }
    }

    @Test func theLowestFlaggedByteIsTheFirstThatNeedsALookWhateverFollows() {
        let samples: [UInt8] = [
            0x00, 0x01, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x7E, 0x7F, 0x80, 0xC3, 0xFF,
        ]
        for first in samples {
            for second in samples {
                for position in 0..<7 {
                    var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 8)
                    bytes[position] = first
                    bytes[position + 1] = second
                    let expected = Self.needsLook(first) ? position : Self.needsLook(second) ? position + 1 : 8
                    #expect(Self.firstFlagged(bytes) == expected, "\(first), \(second) at \(position)")
                }
            }
        }
    }
}
