import PushModel
import PushTranslation
import Testing

/// Property tests: any byte string yields outputs or dead letters, never a crash, a hang or different bytes.
@Suite struct RobustnessTests {
    /// A small deterministic generator (SplitMix64, ``PayloadGenerator``'s) so failures reproduce.
    typealias Generator = PayloadGenerator

    static let seeds: [String] = [
        ##"{"id":"a","message":{"title":"T","body":"B","ttl":60,"priority":"high"},"data":{"k":[1,2.5,null]},"custom":{"ios_badge":1,"ios_loc_key":"K","ios_loc_args":["x"]},"actions":[{"type":"url","name":"n","value":"https://a.b"}],"expandable":{"type":"text","value":"v"}}"##,
        ##"{"targets":["adobe-carousel"],"message":{"title":"T","body":"B"},"carousel":{"items":[{"image":"https://a.b/1.png","text":"x"},{"image":"https://a.b/2.png"}],"colors":{"title":"#FF0000"}}}"##,
        ##"{"targets":["fb-card"],"message":{"body":"B"},"card":{"size":"small","hero":{"background":{"type":"gif","url":"https://a.b/g.gif"},"content":{"text":"h"}},"actions":{"buttons":[{"content":{"text":"ok"}}]}}}"##,
    ]

    static let alphabet: [UInt8] =
        Array(##"{}[]":,0123456789.-+eE\"ntrufalsu\#u{0}"##.utf8) + [
            0x00, 0x1F, 0x80, 0xC3, 0xA9, 0xED, 0xF0, 0xFF, 0x20,
        ]

    /// Translates twice and checks the second run gives the same records.
    private func checkDeterministic(_ bytes: [UInt8]) {
        let first = Harness.translate(bytes: bytes)
        let second = Harness.translate(bytes: bytes)
        #expect(!first.isEmpty)
        #expect(first == second)
        for deadLetter in first.deadLetters { #expect(Array(deadLetter.value) == bytes) }
    }

    @Test(arguments: 0..<3)
    func mutatedPayloadsNeverCrashAndAreDeterministic(_ seedIndex: Int) {
        var generator = Generator(state: UInt64(seedIndex) &* 7919 &+ 1)
        let seed = Array(Self.seeds[seedIndex].utf8)
        for _ in 0..<1500 {
            var bytes = seed
            for _ in 0..<(1 + generator.below(4)) {
                let position = generator.below(bytes.count)
                switch generator.below(3) {
                case 0: bytes[position] = Self.alphabet[generator.below(Self.alphabet.count)]
                case 1: bytes.remove(at: position)
                default: bytes.insert(Self.alphabet[generator.below(Self.alphabet.count)], at: position)
                }
                if bytes.isEmpty { bytes = [0x7B] }
            }
            checkDeterministic(bytes)
        }
    }

    @Test func randomByteStringsNeverCrash() {
        var generator = Generator(state: 42)
        for _ in 0..<3000 {
            let length = generator.below(64)
            let bytes = (0..<length).map { _ in Self.alphabet[generator.below(Self.alphabet.count)] }
            checkDeterministic(bytes)
        }
    }

    @Test func everyRecordIsOutputOrDeadLetterWithErrors() {
        var generator = Generator(state: 7)
        for _ in 0..<500 {
            var bytes = Array(Self.seeds[generator.below(3)].utf8)
            bytes[generator.below(bytes.count)] = Self.alphabet[generator.below(Self.alphabet.count)]
            for record in Harness.translate(bytes: bytes) {
                if record.isDeadLetter {
                    #expect(!record.problems.isEmpty)
                    #expect(record.header("__connect.errors.exception.message")?.contains(": ") == true)
                } else {
                    #expect(record.value.count <= 4096)
                    #expect(record.value.first == UInt8(ascii: "{"))
                }
            }
        }
    }
}
