import Foundation
import Testing

/// Golden reference tests: each case's output bytes must match its `.expected.jsonl` exactly.
/// Re-record with `PUSHGATE_RECORD_GOLDEN=1 swift test --filter GoldenTests`, then review the diff.
@Suite struct GoldenTests {
    static let cases = GoldenCase.all()
    static let recording = ProcessInfo.processInfo.environment["PUSHGATE_RECORD_GOLDEN"] == "1"

    @Test func thereAreAtLeastFortyGoldenCases() {
        #expect(Self.cases.count >= 40)
    }

    @Test(arguments: GoldenTests.cases)
    func outputMatchesGoldenBytes(_ golden: GoldenCase) throws {
        let actual = try golden.translatedLines()
        if Self.recording {
            try Data(actual).write(to: golden.expectedURL)
            return
        }
        let expected = try Data(contentsOf: golden.expectedURL)
        let actualText = String(decoding: actual, as: UTF8.self)
        let expectedText = String(decoding: expected, as: UTF8.self)
        #expect(actualText == expectedText, "golden \(golden.name) differs; re-record only after reviewing")
    }

    @Test(arguments: GoldenTests.cases)
    func translationIsDeterministic(_ golden: GoldenCase) throws {
        #expect(try golden.translatedLines() == golden.translatedLines())
    }
}
