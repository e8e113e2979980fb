import Testing

@testable import PushTranslation

/// The `custom` keys' ordinals (their bits in a key set) against their declaration order.
@Suite struct CustomKeyOrdinalTests {
    @Test func eachOrdinalIsTheKeysPositionInAllCases() {
        for (position, key) in CustomKey.allCases.enumerated() { #expect(key.ordinal == position, "\(key)") }
        #expect(CustomKey.allCases.count <= 32)
    }
}
