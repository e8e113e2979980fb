import Testing

@testable import PushTranslation

/// The scanner's duplicate filter gives the member names of each object of the unified payload bits of
/// their own: a payload that uses only the contract's names has none of them compared with the others.
@Suite struct NameBitTests {
    private static func bits<Key: JSONKey>(_: Key.Type) -> [String: UInt64] {
        Dictionary(
            uniqueKeysWithValues: Key.allCases.map { key in
                let bytes = Array(key.rawValue.utf8)
                return (
                    key.rawValue,
                    JSONScanner.nameBit(length: bytes.count, first: bytes[0], last: bytes[bytes.count - 1])
                )
            })
    }

    private static func distinct<Key: JSONKey>(_ type: Key.Type) -> Bool {
        let bits = bits(type)
        return Set(bits.values).count == bits.count
    }

    @Test func theNamesOfEachObjectHaveBitsOfTheirOwn() {
        #expect(Self.distinct(TopLevelKey.self))
        #expect(Self.distinct(PlatformKey.self))
        #expect(Self.distinct(MessageKey.self))
        #expect(Self.distinct(CustomKey.self))
        #expect(Self.distinct(WebKey.self))
        #expect(Self.distinct(ActionKey.self))
        #expect(Self.distinct(ExpandableKey.self))
        #expect(Self.distinct(CarouselKey.self))
        #expect(Self.distinct(CarouselItemKey.self))
        #expect(Self.distinct(CarouselColorKey.self))
        #expect(Self.distinct(CardKey.self))
        #expect(Self.distinct(HeroKey.self))
        #expect(Self.distinct(CardBodyKey.self))
        #expect(Self.distinct(BackgroundKey.self))
        #expect(Self.distinct(StyledTextKey.self))
        #expect(Self.distinct(CardActionsKey.self))
        #expect(Self.distinct(CardButtonKey.self))
        #expect(Self.distinct(LiveActivityKey.self))
    }
}
