import PushModel
import PushTranslation
import Testing

/// An output keeps its value, its key and the payload texts its headers carry in the buffer the outputs
/// of its input share: what is read back from it is what the input had, an empty key stays empty (not
/// null), escaped texts are decoded, and a value set afterwards leaves the key and the headers as they were.
@Suite struct OutputBufferTests {
    static let payload =
        #"{"id":"n\u00e9","collapse_id":"c\"1","message":{"title":"T","body":"B"},"platform":{"ios":true,"android":true,"web":true},"web":{"topic":"to\u0070ics","navigate":"https://example.com/"}}"#

    static func outputs(key: [UInt8]?) -> [OutputRecord] {
        let input = InputRecord(
            topic: "push.unified", partition: 2, offset: 9, key: key, value: Array(payload.utf8),
            headers: [RecordHeader(name: "trace", text: "t9")], timestampMs: 1_800_000_000_000)
        return Translator().translate(input, readAtMs: 1_800_000_000_000).filter { !$0.isDeadLetter }
    }

    /// The key's and value's bytes as the producer reads them.
    static func producerView(_ record: OutputRecord) -> (key: [UInt8]?, value: [UInt8]) {
        record.withKeyAndValue { key, value in (key.map { Array($0) }, Array(value)) }
    }

    @Test func eachOutputReadsItsOwnValueAndTheInputsKey() throws {
        let outputs = Self.outputs(key: Array("user-9".utf8))
        #expect(outputs.map(\.format) == [.apns, .androidExpandable, .webpush])
        for output in outputs {
            #expect(output.key == Array("user-9".utf8))
            let view = Self.producerView(output)
            #expect(view.key == Array("user-9".utf8))
            #expect(view.value == Array(output.value))
            #expect(output.valueCount == output.value.count)
            #expect(output.value.first == UInt8(ascii: "{") && output.value.last == UInt8(ascii: "}"))
        }
        #expect(Set(outputs.map { Array($0.value) }).count == 3, "each output has a value of its own")
    }

    @Test func anEmptyKeyStaysEmptyAndNoKeyStaysNull() {
        #expect(Self.outputs(key: []).count == 3 && Self.outputs(key: nil).count == 3)
        for output in Self.outputs(key: []) {
            #expect(output.key == [])
            #expect(Self.producerView(output).key == [])
        }
        for output in Self.outputs(key: nil) {
            #expect(output.key == nil)
            #expect(Self.producerView(output).key == nil)
        }
    }

    @Test func escapedTextsAreReadDecoded() throws {
        let outputs = Self.outputs(key: nil)
        let apns = try #require(outputs.first { $0.format == .apns })
        let webpush = try #require(outputs.first { $0.format == .webpush })
        #expect(apns.header("pushgate-id") == "né")
        #expect(apns.header("apns-collapse-id") == #"c"1"#)
        #expect(webpush.header("webpush-topic") == "topics")
        // The headers read one by one (as the producer does) are the list, in its order.
        var read: [RecordHeader] = []
        apns.forEachHeader { name, value in
            read.append(
                RecordHeader(name: String(decoding: name, as: UTF8.self), value: value.map { Array($0) }))
        }
        #expect(read == apns.headers)
        #expect(read.count == apns.headerCount)
    }

    @Test func aValueSetAfterwardsKeepsTheKeyAndTheHeaders() throws {
        var output = try #require(Self.outputs(key: Array("k".utf8)).first)
        let headers = output.headers
        output.value = Array("{}".utf8)[...]
        #expect(Array(output.value) == Array("{}".utf8))
        #expect(output.key == Array("k".utf8))
        #expect(output.headers == headers)
        #expect(Self.producerView(output).value == Array("{}".utf8))
        let rebuilt = OutputRecord(
            topic: output.topic, format: output.format, key: Array("k".utf8), value: Array("{}".utf8),
            headers: headers)
        #expect(output == rebuilt)
    }
    /// Headers set on an output are its headers from then on, whatever is set after them.
    @Test func headersSetBeforeAValueAreKept() throws {
        var output = try #require(Self.outputs(key: Array("k".utf8)).first)
        let custom = [RecordHeader(name: "only", text: "this")]
        output.headers = custom
        output.value = Array("{}".utf8)[...]
        #expect(output.headers == custom)
        #expect(output.key == Array("k".utf8))
        #expect(Array(output.value) == Array("{}".utf8))
    }
}
