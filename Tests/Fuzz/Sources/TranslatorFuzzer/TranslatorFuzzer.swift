import CLibFuzzer
import Foundation
import PushModel
import PushTranslation

/// Hands the process to libFuzzer (`-sanitize=fuzzer` links it): its flags and corpus directories are
/// this program's arguments, e.g. `TranslatorFuzzer -max_total_time=600 corpus`.
@main
enum TranslatorFuzzer {
    static func main() {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, translatorFuzzerTestOneInput))
    }
}

/// libFuzzer's entry point: translates one input as a Kafka record value and checks what SPEC promises
/// of every translation. A broken promise traps, which libFuzzer reports as a crash with the input.
///
/// Per input, with strict and with lenient settings:
/// - no crash (the address sanitizer also catches memory errors);
/// - every record is an output of a format, on that format's topic, or a dead letter on the dead-letter
///   topic carrying the input's exact bytes; at least one record, and dead letters only after outputs;
/// - a second translation gives the same records, byte for byte.
@_cdecl("LLVMFuzzerTestOneInput")
public func translatorFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let record = InputRecord(
        topic: "push.unified", partition: 3, offset: 17, key: Array("user-1".utf8), value: bytes,
        headers: [RecordHeader(name: "trace-id", text: "t")], timestampMs: 1_700_000_000_000)
    for translator in FuzzTranslators.all {
        let first = translator.translate(record, readAtMs: 1_700_000_000_100)
        check(first, of: bytes, by: translator)
        let second = translator.translate(record, readAtMs: 1_700_000_000_100)
        guard first.map({ $0.jsonLine() }) == second.map({ $0.jsonLine() }) else {
            fuzzFailure("a second translation gave different bytes")
        }
    }
    return 0
}

/// The configurations every input is translated with.
enum FuzzTranslators {
    static let all = [
        Translator(configuration: TranslatorConfiguration()),
        Translator(configuration: TranslatorConfiguration(lenient: true, maxPayloadBytes: 4096)),
    ]
}

private func check(_ records: [OutputRecord], of input: [UInt8], by translator: Translator) {
    let configuration = translator.configuration
    guard !records.isEmpty else { fuzzFailure("no record at all: neither an output nor a dead letter") }
    var seenDeadLetter = false
    for record in records {
        if let format = record.format {
            guard !seenDeadLetter else { fuzzFailure("an output after a dead letter") }
            guard record.topic == configuration.topic(for: format) else {
                fuzzFailure("an output of \(format.rawValue) on topic \(record.topic)")
            }
        } else {
            seenDeadLetter = true
            guard record.topic == configuration.deadLetterTopic else {
                fuzzFailure("a dead letter on topic \(record.topic)")
            }
            guard record.value.elementsEqual(input) else { fuzzFailure("a dead letter whose value is not the input") }
        }
    }
}

/// Stops the fuzzer at the input that broke a promise (libFuzzer keeps it as a crash file).
private func fuzzFailure(_ message: String) -> Never {
    preconditionFailure("translator fuzz check failed: \(message)")
}
