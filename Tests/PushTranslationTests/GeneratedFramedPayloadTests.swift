import PushModel
import PushTranslation
import Testing

/// Property test of SPEC 2's Schema Registry framing: any generated payload (valid, wrong or mutated),
/// framed with any schema id, gives exactly the records of its bare payload, but that a dead letter's value
/// is the whole framed value.
@Suite struct GeneratedFramedPayloadTests {
    @Test func anyFramedPayloadGivesTheRecordsOfItsBarePayload() {
        var generator = PayloadGenerator(state: 2042)
        generator.webSections = false
        var inputs = DifferentialInputs(seed: 2043)
        var outputs = 0
        for index in 0..<3_000 {
            generator.webSections = index % 3 == 0
            generator.valid = index % 2 == 0
            var bare = Array(generator.payload().utf8)
            if index % 5 == 4 { inputs.mutate(&bare) }
            let schemaID = UInt32(truncatingIfNeeded: generator.next())
            let framed = SchemaRegistryFramingTests.framed(bare, schemaID: schemaID)
            let translator = DifferentialInputs.translators[index % DifferentialInputs.translators.count]
            let record = { (value: [UInt8]) in
                InputRecord(
                    topic: "push.unified", partition: 1, offset: Int64(index), key: Array("k\(index)".utf8),
                    value: value, headers: [RecordHeader(name: "trace", text: "t")], timestampMs: 1_700_000_000_000)
            }
            let fromFramed = translator.translation(of: record(framed), readAtMs: 5)
            let fromBare = translator.translation(of: record(bare), readAtMs: 5)
            #expect(fromFramed.records.count == fromBare.records.count)
            for (framedRecord, bareRecord) in zip(fromFramed.records, fromBare.records) {
                #expect(framedRecord.topic == bareRecord.topic && framedRecord.format == bareRecord.format)
                #expect(framedRecord.key == bareRecord.key)
                #expect(framedRecord.headers == bareRecord.headers)
                #expect(Array(framedRecord.value) == (framedRecord.isDeadLetter ? framed : Array(bareRecord.value)))
                if !framedRecord.isDeadLetter { outputs += 1 }
            }
            #expect(fromFramed.deadLetters == fromBare.deadLetters)
            #expect(fromFramed.warnings == fromBare.warnings)
        }
        #expect(outputs > 500, "\(outputs) outputs")
    }
}
