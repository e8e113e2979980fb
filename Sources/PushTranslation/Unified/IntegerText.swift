/// What JSON number text says as an integer in SPEC's sense (no fraction, no exponent).
enum IntegerText: Equatable {
    /// It has a fraction or an exponent.
    case notInteger
    /// An integer outside `Int64`.
    case outsideInt64
    /// An integer and its value (`-0` is 0).
    case value(Int64)

    /// Reads valid RFC 8259 number text.
    init(_ text: UnsafeBufferPointer<UInt8>) {
        var index = 0
        let negative = text.first == UInt8(ascii: "-")
        if negative { index = 1 }
        // Up to 18 digits cannot overflow: no overflow checks (most numbers are short).
        if text.count &- index <= 18 {
            var value: Int64 = 0
            while index < text.count {
                let digit = text[index] &- UInt8(ascii: "0")
                guard digit < 10 else {
                    self = .notInteger
                    return
                }
                value = value &* 10 &+ Int64(digit)
                index &+= 1
            }
            self = .value(negative ? 0 &- value : value)
            return
        }
        // Accumulate negatively so that Int64.min fits.
        var value: Int64 = 0
        var overflow = false
        while index < text.count {
            let byte = text[index]
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else {
                self = .notInteger
                return
            }
            let (times, timesOverflow) = value.multipliedReportingOverflow(by: 10)
            let (next, nextOverflow) = times.subtractingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
            overflow = overflow || timesOverflow || nextOverflow
            value = next
            index += 1
        }
        if overflow || (!negative && value == .min) {
            self = .outsideInt64
        } else {
            self = .value(negative ? value : -value)
        }
    }
}
