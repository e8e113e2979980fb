/// Finds the first byte that breaks UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF).
enum UTF8Validator {
    /// The offset of the first invalid byte, or `nil` when all of `bytes` is valid UTF-8.
    static func firstInvalidOffset(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = 0
        let count = bytes.count
        let base = UnsafeRawPointer(bytes.baseAddress)
        while index < count {
            // Eight ASCII bytes at a time.
            if let base, index + 8 <= count,
                base.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
            {
                index += 8
                continue
            }
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length = sequenceLength(in: bytes, at: index)
            if length == 0 { return index }
            index += length
        }
        return nil
    }

    /// The length of the well-formed sequence starting at `index`, or 0 when it is ill-formed.
    /// Also gives, for ill-formed input, nothing about how long the bad part is: see ``maximalIllFormedLength``.
    static func sequenceLength(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        let lead = bytes[index]
        let count = bytes.count
        func continuation(_ offset: Int, _ low: UInt8 = 0x80, _ high: UInt8 = 0xBF) -> Bool {
            index + offset < count && bytes[index + offset] >= low && bytes[index + offset] <= high
        }
        switch lead {
        case 0x00...0x7F:
            return 1
        case 0xC2...0xDF:
            return continuation(1) ? 2 : 0
        case 0xE0:
            return continuation(1, 0xA0, 0xBF) && continuation(2) ? 3 : 0
        case 0xE1...0xEC, 0xEE...0xEF:
            return continuation(1) && continuation(2) ? 3 : 0
        case 0xED:
            return continuation(1, 0x80, 0x9F) && continuation(2) ? 3 : 0
        case 0xF0:
            return continuation(1, 0x90, 0xBF) && continuation(2) && continuation(3) ? 4 : 0
        case 0xF1...0xF3:
            return continuation(1) && continuation(2) && continuation(3) ? 4 : 0
        case 0xF4:
            return continuation(1, 0x80, 0x8F) && continuation(2) && continuation(3) ? 4 : 0
        default:
            return 0
        }
    }
}
