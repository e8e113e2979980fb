import Testing

@testable import PushTranslation

/// The hand-managed buffers of `UnsafeBuffers/` check their invariants in debug builds: a use that breaks
/// one stops the process instead of reading or writing memory it does not own.
@Suite struct UnsafeBufferInvariantTests {
    @Test func aWriterGivesBackWhatWasWrittenAndGrowsPastItsCapacity() {
        var writer = JSONWriter(capacity: 16)
        writer.beginObject()
        writer.key("text")
        writer.string(String(repeating: "x", count: 40))
        writer.endObject()
        let start = writer.beginOutput()
        writer.appendWritten(0..<start)
        let one = "{\"text\":\"\(String(repeating: "x", count: 40))\"}"
        #expect(String(decoding: writer.bytes, as: UTF8.self) == one + one)
        #expect(writer.bytes(from: start) == Array(one.utf8))
    }

    @Test func everyKeyOfATableIsFoundAsItselfAndNoOtherName() {
        for key in CustomKey.allCases {
            #expect(Array(key.rawValue.utf8).withUnsafeBufferPointer { CustomKey.keyTable.match($0) } == key)
        }
        #expect(Array("nope".utf8).withUnsafeBufferPointer { CustomKey.keyTable.match($0) } == nil)
    }

    #if DEBUG
        @Test func readingAWriterPastWhatWasWrittenStopsInDebugBuilds() async {
            await #expect(processExitsWith: .failure) {
                var writer = JSONWriter(capacity: 16)
                writer.append(UInt8(ascii: "x"))
                _ = writer.bytes(from: 2)
            }
        }

        @Test func copyingBytesNotYetWrittenStopsInDebugBuilds() async {
            await #expect(processExitsWith: .failure) {
                var writer = JSONWriter(capacity: 16)
                writer.append(UInt8(ascii: "x"))
                writer.appendWritten(0..<4)
            }
        }
    #endif
}
