/// The reference of the translation benchmarks: one pass of a minimal JSON tokenizer over the payload
/// bytes, a byte at a time, counting tokens. No validation, no tree, no output: no translator that
/// reads every byte of its input can be faster than this by much. `make bench` reports translation
/// time as a multiple of this pass over the same bytes.
public enum TokenizerPass {
    /// The number of tokens (strings, numbers, literals, structural characters) in `bytes`.
    public static func countTokens(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var tokens = 0
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                while index < count && bytes[index] != UInt8(ascii: "\"") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                index += 1
                tokens += 1
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "t"), UInt8(ascii: "f"),
                UInt8(ascii: "n"):
                while index < count, !isDelimiter(bytes[index]) { index += 1 }
                tokens += 1
            case 0x20, 0x09, 0x0A, 0x0D:
                index += 1
            default:
                index += 1
                tokens += 1
            }
        }
        return tokens
    }

    private static func isDelimiter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: ":"), 0x20, 0x09, 0x0A, 0x0D: true
        default: false
        }
    }
}
