import BenchSupport
import Foundation
import PushModel
import PushTranslation

/// `translate-loop`: translates the benchmark mix (or one kind of it), or runs the tokenizer pass over
/// the same bytes, a number of times, and does nothing else: the program `make bench-instructions`
/// runs under `valgrind --tool=callgrind`, which counts the instructions of the two loops exactly (the
/// same count for the same binary and input, whatever else the machine does).
///
/// Usage: translate-loop translate|tokenizer ROUNDS [KIND]

/// Keeps a value from being optimized away.
@inline(never)
func keep<Value>(_ value: Value) { withExtendedLifetime(value) {} }

/// `value`, hidden from the optimizer: each round must really run (a pure call on the same input could
/// be made once for all rounds).
@inline(never) @_optimize(none)
func opaque<Value>(_ value: Value) -> Value { value }

/// One round: every record of the set translated once. A function of its own, so that callgrind counts it alone
/// (`--toggle-collect`).
@inline(never)
func mixRound(_ translator: Translator, _ records: [InputRecord]) {
    for record in records { keep(translator.translate(record, readAtMs: 0)) }
}

/// One round of the tokenizer pass over the same bytes.
@inline(never)
func tokenizerRound(_ payloads: [[UInt8]]) -> Int {
    var tokens = 0
    for payload in payloads { tokens &+= payload.withUnsafeBufferPointer(TokenizerPass.countTokens) }
    return tokens
}

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count >= 2, let mode = arguments.first, let rounds = Int(arguments.dropFirst().first ?? "") else {
    print("usage: translate-loop translate|tokenizer ROUNDS [KIND]")
    exit(64)
}
let kinds =
    arguments.count > 2 ? [PayloadMix.Kind(rawValue: arguments.last ?? "")].compactMap { $0 } : PayloadMix.Kind.allCases
guard !kinds.isEmpty else {
    print("unknown kind; one of \(PayloadMix.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
    exit(64)
}
let records = BenchInput.records(count: 1000, kinds: kinds)
switch mode {
case "translate":
    let translator = Translator()
    for _ in 0..<rounds { mixRound(translator, opaque(records)) }
case "tokenizer":
    let payloads = records.map(\.value)
    for _ in 0..<rounds { keep(tokenizerRound(opaque(payloads))) }
default:
    print("usage: translate-loop translate|tokenizer ROUNDS [KIND]")
    exit(64)
}
