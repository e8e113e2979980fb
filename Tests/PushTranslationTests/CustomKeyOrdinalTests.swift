import Testing

@testable import PushTranslation

/// The `custom` keys' ordinals (their bits in a key set) against their declaration order, and the key
/// set that gates the validator's alias and loc-args rules.
@Suite struct CustomKeyOrdinalTests {
    @Test func eachOrdinalIsTheKeysPositionInAllCases() {
        for (position, key) in CustomKey.allCases.enumerated() { #expect(key.ordinal == position, "\(key)") }
        #expect(CustomKey.allCases.count <= 32)
    }

    @Test func theRuleKeysHoldEveryAliasAndEveryLocArgsSpelling() {
        let ruleKeys = PayloadValidator.ruleKeys
        for (alias, _) in PayloadValidator.aliases { #expect(ruleKeys.contains(alias), "\(alias)") }
        for rule in PayloadValidator.argsNeedKey { #expect(ruleKeys.contains(rule.args), "\(rule.args)") }
    }
}
