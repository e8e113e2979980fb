import Foundation
import PushModel
import PushTranslation
import Testing

@testable import PushgateHTTP

@Suite("Playground API")
struct PlaygroundRoutesTests {
    static let timestamp: Int64 = 1_700_000_000_000
    /// The repository's folder.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// The example payloads, one per line of `examples/payloads.jsonl` (a link to the resource file).
    static let examples: [String] =
        ((try? String(contentsOf: repository.appendingPathComponent("examples/payloads.jsonl"), encoding: .utf8)) ?? "")
        .split(separator: "\n").map(String.init)
    /// The page and examples of this build, read once.
    static let resources = Result { () throws(PlaygroundResourceError) in try PlaygroundResources.load() }

    /// Routes over this build's resources.
    static func routes(maxPayloadBytes: Int = TranslatorConfiguration.defaultMaxPayloadBytes) throws -> PlaygroundRoutes
    {
        PlaygroundRoutes(maxPayloadBytes: maxPayloadBytes, resources: try resources.get())
    }

    /// A request body for `payload` with the record options of `pushgate translate --record-*`.
    static func body(_ payload: String, extra: [String: Any] = [:], record: [String: Any] = [:]) -> [UInt8] {
        var recordFields: [String: Any] = ["timestamp_ms": timestamp]
        recordFields.merge(record) { $1 }
        var object: [String: Any] = ["payload": payload, "record": recordFields]
        object.merge(extra) { $1 }
        return Array((try? JSONSerialization.data(withJSONObject: object)) ?? Data())
    }

    /// What `pushgate translate` writes for the same record, as the array the API answers.
    static func expected(_ record: InputRecord, configuration: TranslatorConfiguration = TranslatorConfiguration())
        -> [UInt8]
    {
        let lines = Translator(configuration: configuration).translate(record, readAtMs: timestamp).map {
            $0.jsonLine()
        }
        return Array("[".utf8) + Array(lines.joined(separator: Array(",".utf8))) + Array("]".utf8)
    }

    static func record(_ payload: String, key: String? = nil, headers: [RecordHeader] = [], offset: Int64 = 0)
        -> InputRecord
    {
        InputRecord(
            topic: "push.unified", partition: 0, offset: offset, key: key.map { Array($0.utf8) },
            value: Array(payload.utf8),
            headers: headers, timestampMs: timestamp)
    }

    @Test(arguments: examples)
    func answerIsTheLinesOfTranslateAsOneArray(payload: String) throws {
        let response = try Self.routes().respond(
            method: .POST, uri: "/api/translate", body: Self.body(payload), nowMs: 1)
        #expect(response.status == .ok)
        #expect(response.contentType == "application/json")
        #expect(response.body == Self.expected(Self.record(payload)))
        let records = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [[String: Any]])
        #expect(!records.isEmpty)
        for record in records {
            #expect(record["topic"] is String)
            #expect(record["headers"] is [[Any]])
            #expect(record["value"] != nil)
            #expect((record["format"] is NSNull) == (record["value_base64"] != nil))
        }
    }

    @Test func valueBytesAreTheTranslatorsOutputBytes() throws {
        let payload = #"{"message":{"title":"T","body":"B"},"data":{"total":19.90,"n":1e2}}"#
        let response = try Self.routes().translate(Self.body(payload), nowMs: 1)
        let outputs = Translator().translate(Self.record(payload), readAtMs: Self.timestamp)
        let text = String(decoding: response.body, as: UTF8.self)
        #expect(outputs.count == 2)
        for output in outputs {
            #expect(text.contains(#","value":"# + String(decoding: output.value, as: UTF8.self) + "}"))
        }
        #expect(text.contains(#""total":19.90,"n":1e2"#))
    }

    /// SPEC 2 (version 4): the translator reads a Schema Registry frame for the playground (and the console,
    /// which answers with these routes) too.
    @Test func aFramedPayloadGivesTheOutputsOfItsBarePayload() throws {
        let bare = #"{"message":{"title":"T","body":"B"}}"#
        let response = try Self.routes().translate(Self.body("\u{0}\u{0}\u{0}\u{1}\u{7}" + bare), nowMs: 1)
        #expect(response.body == Self.expected(Self.record(bare)))
        let truncated = try Self.routes().translate(Self.body("\u{0}\u{0}"), nowMs: 1)
        #expect(String(decoding: truncated.body, as: UTF8.self).contains("Schema Registry frame"))
    }

    @Test func recordOptionsAndAndroidFormatsReachTheTranslator() throws {
        let payload = #"{"targets":["fcm"],"message":{"body":"B"},"custom":{"x":1}}"#
        let body = Self.body(
            payload, extra: ["android_formats": ["android-expandable", "fcm"], "lenient": true],
            record: ["key": "user-7", "offset": 42, "headers": [["trace", "abc"], ["empty", NSNull()]]])
        let response = try Self.routes().translate(body, nowMs: 1)
        let record = Self.record(
            payload, key: "user-7",
            headers: [RecordHeader(name: "trace", text: "abc"), RecordHeader(name: "empty", value: nil)],
            offset: 42)
        let configuration = TranslatorConfiguration(
            lenient: true, androidFormats: OutputFormatSet([.androidExpandable, .fcm]))
        #expect(response.body == Self.expected(record, configuration: configuration))
        let text = String(decoding: response.body, as: UTF8.self)
        #expect(text.contains(#""format":"fcm""#))
        #expect(text.contains(#"["pushgate-source","push.unified:0:42"]"#))
        #expect(text.contains(#""key":"user-7""#))
        #expect(text.contains(#"["empty",null]"#))
    }

    @Test(arguments: [
        ("", "not JSON"),
        ("[1]", "the request must be"),
        (#"{"record":{}}"#, "payload is required"),
        (#"{"payload":1}"#, "payload must be a string"),
        (#"{"payload":"{}","record":{"offset":-1}}"#, "record.offset must be 0 or more"),
        (#"{"payload":"{}","record":{"partition":"0"}}"#, "record.partition must be"),
        (#"{"payload":"{}","record":{"headers":[["a"]]}}"#, "record.headers[0] must be [NAME, VALUE]"),
        (#"{"payload":"{}","record":{"headers":{"a":"b"}}}"#, "record.headers must be an array of [NAME, VALUE] pairs"),
        (#"{"payload":"{}","record":{"headers":[["a",1]]}}"#, "record.headers[0][1] must be a string"),
        (#"{"payload":"{}","record":[]}"#, "record must be an object"),
        (#"{"payload":"{}","android_formats":"fcm"}"#, "android_formats must be an array of format names"),
        (#"{"payload":"{}","android_formats":["apns"]}"#, "unknown name 'apns'"),
        (#"{"payload":"{}","android_formats":[]}"#, "at least one"),
        (#"{"payload":"{}","lenient":"yes"}"#, "lenient must be true or false"),
    ])
    func malformedRequestsAre400WithAMessage(body: String, message: String) throws {
        let response = try Self.routes().respond(method: .POST, uri: "/api/translate", body: Array(body.utf8), nowMs: 1)
        #expect(response.status == .badRequest)
        #expect(String(decoding: response.body, as: UTF8.self).contains(message))
    }

    @Test func payloadOverTheLimitIsATooLargeDeadLetterAndTheRequestLimitAddsTheEnvelope() throws {
        let routes = try Self.routes(maxPayloadBytes: 10)
        #expect(routes.maxRequestBytes == 10 + PlaygroundRoutes.envelopeBytes)
        let text = String(
            decoding: routes.translate(Self.body(#"{"message":{"body":"long"}}"#), nowMs: 1).body, as: UTF8.self)
        #expect(text.contains(#"["__connect.errors.exception.class.name","too_large"]"#))
        #expect(routes.tooLarge.status == .payloadTooLarge)
    }

    @Test func pageAndExamplesAreServedAndOtherPathsRefused() throws {
        let routes = try Self.routes()
        let page = routes.respond(method: .GET, uri: "/", body: [], nowMs: 1)
        #expect(page.status == .ok)
        #expect(page.contentType.hasPrefix("text/html"))
        let html = String(decoding: page.body, as: UTF8.self)
        #expect(html.contains("<textarea id=\"payload\""))
        // The only link is the empty icon, so that the browser does not ask for /favicon.ico.
        let withoutIcon = html.replacingOccurrences(of: "<link rel=\"icon\" href=\"data:,\">", with: "")
        #expect(!html.contains("<script src"), "the page loads no script from elsewhere")
        #expect(!withoutIcon.contains("<link"), "the page loads no style from elsewhere")
        #expect(routes.respond(method: .GET, uri: "/nope", body: [], nowMs: 1).status == .notFound)
        #expect(routes.respond(method: .GET, uri: "/api/translate", body: [], nowMs: 1).status == .methodNotAllowed)
        #expect(routes.respond(method: .POST, uri: "/", body: [], nowMs: 1).status == .methodNotAllowed)
        let examples = routes.respond(method: .GET, uri: "/api/examples", body: [], nowMs: 1)
        #expect(try JSONSerialization.jsonObject(with: Data(examples.body)) as? [String] == Self.examples)
    }

    @Test func servedExamplesAreTheExamplesFile() throws {
        let resources = try Self.resources.get()
        #expect(!Self.examples.isEmpty)
        #expect(resources.examples == Self.examples)
    }

    /// `playground.html` with every `{{FILE}}` replaced by that file, without its final newline, and
    /// `{{formats.js}}` by the binary's list of formats.
    @Test func thePageIsTheTemplateWithEveryPartInPlace() throws {
        let folder = Self.repository.appendingPathComponent("Sources/PushgateHTTP/Resources/playground")
        let page = String(decoding: try Self.resources.get().page, as: UTF8.self)
        #expect(page.hasPrefix("<!doctype html>\n"))
        #expect(page.hasSuffix("</script></body></html>"))
        #expect(!page.contains("{{"))
        let template = try String(contentsOf: folder.appendingPathComponent("playground.html"), encoding: .utf8)
        let parts = template.split(separator: "{{").dropFirst().map { String($0.prefix { $0 != "}" }) }
        #expect(
            parts == [
                "playground.css", "editor.html", "formats.js", "pointer.js", "api.js", "playground.js",
                "preview-apple.js", "preview-live-activity.js", "preview-card.js", "preview-android.js",
                "preview-web.js",
            ])
        let formats = String(decoding: PlaygroundPage.withoutFinalNewline(PlaygroundPage.formatsScript), as: UTF8.self)
        #expect(page.contains(formats))
        #expect(formats.hasPrefix("const FORMATS = \(OutputFormat.catalogueJSON);"))
        for part in parts where part != PlaygroundPage.formatsPart {
            var text = try String(contentsOf: folder.appendingPathComponent(part), encoding: .utf8)
            #expect(text.hasSuffix("\n"), "\(part) ends with a newline")
            text.removeLast()
            #expect(page.contains(text), "\(part) is in the page")
        }
        #expect(page.contains("<title>pushgate playground</title><style>*{box-sizing:border-box}"))
        #expect(page.contains("font-size:13px}</style></head><body>\n<header>"))
    }
}
