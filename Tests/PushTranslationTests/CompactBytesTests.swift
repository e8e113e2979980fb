import Testing

@testable import PushTranslation

/// ``JSONDocument/compactBytes(_:)``: a value is copied from the input only when its bytes are exactly
/// what the writer would write (no white space, no escape inside); anything else is written token by token.
@Suite struct CompactBytesTests {
    /// The compact bytes of the top-level value of `json` as text, or `nil`; and what the writer writes for it.
    private static func compactAndWritten(_ json: String) -> (compact: String?, written: String) {
        let bytes = Array(json.utf8)
        return bytes.withUnsafeBufferPointer { input in
            let tokens = UnsafeMutablePointer<JSONToken>.allocate(capacity: input.count)
            defer { tokens.deallocate() }
            guard case .success(let count) = JSONScanner.scan(input, into: tokens) else {
                Issue.record("not JSON: \(json)")
                return (nil, "")
            }
            let document = JSONDocument(bytes: input, tokens: UnsafeBufferPointer(start: tokens, count: count))
            let compact = document.compactBytes(0).map { String(decoding: $0, as: UTF8.self) }
            var writer = JSONWriter()
            writer.value(0, document)
            return (compact, writer.withBytes { String(decoding: $0, as: UTF8.self) })
        }
    }

    @Test(arguments: [
        #"{"a":1,"b":[true,false,null],"c":{"d":"é","e":[]},"f":{}}"#, #"[]"#, #"{}"#, #"[[[["x"]]],-1.5e3]"#,
        #""text""#, #"12"#,
    ])
    func compactValuesAreTheirOwnBytesAndWhatTheWriterWrites(json: String) {
        let (compact, written) = Self.compactAndWritten(json)
        #expect(compact == json)
        #expect(written == json)
    }

    @Test(arguments: [
        #"{ "a":1}"#, #"{"a" :1}"#, #"{"a": 1}"#, #"{"a":1 }"#, #"{"a":1 ,"b":2}"#, #"{"a":1, "b":2}"#, #"[1 ]"#,
        #"[ 1]"#, #"[1, 2]"#, #"{"a":[ ]}"#, #"{"a":{ }}"#,
    ])
    func valuesWithWhiteSpaceAreWrittenTokenByToken(json: String) {
        let (compact, written) = Self.compactAndWritten(json)
        #expect(compact == nil)
        #expect(written == json.filter { $0 != " " })
    }

    /// Escapes are decoded and written again the canonical way, which may differ from the input's.
    @Test(arguments: [#"{"\u0061":1}"#, #"{"a":"\n"}"#, #"["a\/b"]"#, #"[{"a":["\"x"]}]"#])
    func valuesWithEscapesAreWrittenTokenByToken(json: String) {
        #expect(Self.compactAndWritten(json).compact == nil)
    }
}
