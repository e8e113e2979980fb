import Testing

@testable import PushModel

/// The decimal text pushgate writes for header numbers (`pushgate-source`, `apns-expiration`, ...).
@Suite struct DecimalTextTests {
    @Test(
        arguments: [
            0, 7, 9, 10, 11, 99, 100, 101, 12_345, 999_999, 1_000_000, -1, -10, -987_654_321, 999_999_999_999_999_999,
            1_000_000_000_000_000_000, Int64.max, Int64.min, Int64.min + 1,
        ] as [Int64])
    func writesWhatStringWrites(_ value: Int64) {
        let expected = String(value)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { buffer in
            buffer.initialize(repeating: UInt8(ascii: "#"))
            let count = DecimalText.write(value, into: buffer, at: 2)
            #expect(String(decoding: buffer[2..<2 + count], as: UTF8.self) == expected)
            #expect(buffer[0] == UInt8(ascii: "#") && buffer[1] == UInt8(ascii: "#"), "nothing before `at`")
            #expect(2 + count == buffer.count || buffer[2 + count] == UInt8(ascii: "#"), "nothing after")
        }
        var appended: [UInt8] = []
        DecimalText.append(value, to: &appended)
        #expect(String(decoding: appended, as: UTF8.self) == expected)
    }
}
