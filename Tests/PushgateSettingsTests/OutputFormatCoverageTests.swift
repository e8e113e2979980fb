import Foundation
import PushModel
import PushTranslation
import PushgateMetrics
import PushgateSettings
import Testing

/// Every output format reaches every place that must know it. The compiler points to each `switch` over
/// ``OutputFormat``; these are the places it cannot see: files, the page, labels and deployment topics.
@Suite("Every output format is known everywhere it must be")
struct OutputFormatCoverageTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// SPEC section 1's record order is the declaration order, and `order` agrees with it.
    @Test func allCasesIsTheRecordOrderOfTheSpec() {
        #expect(
            OutputFormat.allCases.map(\.rawValue) == [
                "apns", "adobe-carousel", "fb-card", "android-expandable", "fcm", "webpush",
            ])
        for (index, format) in OutputFormat.allCases.enumerated() { #expect(format.order == index, "\(format)") }
        #expect(Array(OutputFormatSet(OutputFormat.allCases.reversed())) == OutputFormat.allCases)
        for format in OutputFormat.allCases {
            let set = OutputFormatSet([format])
            #expect(Array(set) == [format], "a set of \(format) alone iterates to it")
        }
    }

    /// A format's name is spelled twice in Swift: its raw value, and ``OutputFormat/headerValue`` (static
    /// bytes for the headers of every record); outputs and dead letters write the second.
    @Test(arguments: OutputFormat.allCases)
    func theHeadersSpellTheFormatAsItsRawValue(_ format: OutputFormat) throws {
        #expect("\(format.headerValue)" == format.rawValue)
        let headers = OutputHeaders(
            forwarded: [], sourceTopic: "push.unified", sourcePartition: 0, sourceOffset: 7, id: nil, format: format,
            dryRun: false, warnings: nil, apns: nil
        ).list(in: [])
        #expect(Self.value(of: "pushgate-format", in: headers) == format.rawValue, "an output's pushgate-format")
        let input = InputRecord(
            topic: "push.unified", partition: 0, offset: 7, key: nil, value: Array("{}".utf8), timestampMs: nil)
        let refused = OutputRecord(topic: format.defaultTopic, format: format, key: nil, value: [1], headers: [])
        let deadLetter = try #require(Translator().deadLetter(replacing: refused, of: input, reason: "too large"))
        #expect(
            Self.value(of: "pushgate-format", in: deadLetter.headers) == format.rawValue,
            "a dead letter's pushgate-format")
    }

    /// Every `apns-*` and `webpush-*` header a golden output carries is among its format's ``headerNames``
    /// (what `pushgate formats` lists).
    @Test func theGoldenOutputsCarryOnlyTheHeadersTheCatalogueNames() throws {
        let folder = Self.root.appendingPathComponent("Tests/PushTranslationTests/Golden")
        var seen = 0
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path)
        where file.hasSuffix(".expected.jsonl") {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") {
                // Only the members before the value: a value may hold numbers Foundation cannot represent (1e400).
                let head = line.range(of: #","value":"#).map { line[..<$0.lowerBound] + "}" } ?? line
                let record = try #require(try JSONSerialization.jsonObject(with: Data(head.utf8)) as? [String: Any])
                guard let name = record["format"] as? String, let format = OutputFormat(rawValue: name) else {
                    continue
                }
                let headers = try #require(record["headers"] as? [[Any]])
                for case let header as String in headers.compactMap(\.first)
                where header.hasPrefix("apns-") || header.hasPrefix("webpush-") {
                    seen += 1
                    #expect(format.headerNames.contains(header), "\(file): \(format) writes \(header)")
                }
            }
        }
        #expect(seen > 0)
    }

    static func value(of name: String, in headers: [RecordHeader]) -> String? {
        headers.first { $0.name == name }?.value.map { String(decoding: $0, as: UTF8.self) }
    }

    @Test(arguments: OutputFormat.allCases)
    func theFormatHasASchema(_ format: OutputFormat) throws {
        let schema = try Self.text("Schemas/\(format.rawValue).schema.json")
        #expect(schema.contains("\"$schema\""))
    }

    @Test(arguments: OutputFormat.allCases)
    func theFormatHasGoldenOutputs(_ format: OutputFormat) throws {
        let folder = Self.root.appendingPathComponent("Tests/PushTranslationTests/Golden")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            $0.hasSuffix(".expected.jsonl")
        }
        let marker = "\"format\":\"\(format.rawValue)\""
        let goldens = try files.filter {
            try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8).contains(marker)
        }
        #expect(goldens.count >= 3, "\(format): \(goldens.count) golden cases")
    }

    @Test(arguments: OutputFormat.allCases)
    func thePlaygroundDrawsTheFormat(_ format: OutputFormat) throws {
        let script = try Self.text("Sources/PushgateHTTP/Resources/playground/playground.js")
        #expect(script.contains("case \"\(format.rawValue)\":"), "the page's preview switch has no case for \(format)")
    }

    @Test(arguments: OutputFormat.allCases)
    func theFormatHasAProducedCounter(_ format: OutputFormat) async throws {
        let metrics = PrometheusMetrics()
        var buffer: [UInt8] = []
        metrics.registry.emit(into: &buffer)
        let exposition = String(decoding: buffer, as: UTF8.self)
        #expect(exposition.contains("pushgate_records_produced_total{format=\"\(format.rawValue)\"}"))
    }

    @Test(arguments: OutputFormat.allCases)
    func theDeploymentsCreateAndNameTheFormatsTopic(_ format: OutputFormat) throws {
        let compose = try Self.text("deploy/docker-compose.yml")
        let configMap = try Self.text("deploy/kubernetes/configmap.yaml")
        let mapping = "\(format.rawValue)=\(format.defaultTopic)"
        #expect(
            compose.contains(" \(format.defaultTopic) ") || compose.contains(" \(format.defaultTopic);"),
            "compose creates \(format.defaultTopic)")
        #expect(compose.contains(mapping))
        #expect(configMap.contains(mapping))
    }

    /// The schemas that name every format: the payload's `targets`, the output headers and the dead letters.
    @Test(arguments: OutputFormat.allCases)
    func theSchemasNameTheFormat(_ format: OutputFormat) throws {
        for schema in ["unified-payload", "output-headers", "dead-letter"] {
            let text = try Self.text("Schemas/\(schema).schema.json")
            #expect(text.contains("\"\(format.rawValue)\""), "Schemas/\(schema).schema.json does not name \(format)")
        }
    }

    /// The model of the real client parsers checks every format's records (`check_record`).
    @Test(arguments: OutputFormat.allCases)
    func theConformanceModelChecksTheFormat(_ format: OutputFormat) throws {
        let model = try Self.text("Tests/Conformance/real_parsers.py")
        #expect(model.contains("if fmt == \"\(format.rawValue)\":"), "real_parsers.check_record has no \(format)")
    }

    /// The pages take the formats from the binary (`{{formats.js}}`, written by the server): the editor's
    /// Android checkboxes and the scripts that read and set them name no format by hand.
    @Test(arguments: OutputFormat.allCases)
    func thePagesTakeTheFormatFromTheBinary(_ format: OutputFormat) throws {
        let folder = "Sources/PushgateHTTP/Resources/playground/"
        let console = "Sources/PushgateConsole/Resources/console/"
        for page in [folder + "playground.html", console + "console.html"] {
            #expect(try Self.text(page).contains("{{formats.js}}"), "\(page) does not include the formats")
        }
        #expect(try !Self.text(folder + "editor.html").contains("fmt-\(format.rawValue)"))
        #expect(try !Self.text(console + "console.js").contains("fmt-\(format.rawValue)"))
        #expect(try !Self.text(folder + "playground.js").contains("[\"\(format.rawValue)\""))
    }

    /// `pushgate formats` lists every format once, in record order, with its topic, platform and headers.
    @Test func theCatalogueListsEveryFormatInRecordOrder() throws {
        let data = Data(OutputFormat.catalogueJSON.utf8)
        let listed = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        #expect(listed.map { $0["name"] as? String } == OutputFormat.allCases.map(\.rawValue))
        for (entry, format) in zip(listed, OutputFormat.allCases) {
            #expect(entry["topic"] as? String == format.defaultTopic)
            #expect(entry["platform"] as? String == format.platform.rawValue)
            #expect((entry["headers"] as? [String])?.contains("apns-push-type") == format.isDeliveredByAPNs)
            #expect(format.isAndroidFormat == (format.platform == .android), "\(format)")
        }
    }
}
