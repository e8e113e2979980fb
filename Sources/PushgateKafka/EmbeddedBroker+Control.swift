extension EmbeddedBroker {
    /// The control commands ``perform(controlCommand:)`` understands, one per line.
    public static let controlCommandHelp = """
        down BROKER                take broker BROKER (1...N) down
        up BROKER                  bring broker BROKER back up
        rtt BROKER MS              delay broker BROKER's responses by MS ms
        error APIKEY CODE [COUNT]  fail the next COUNT (1) APIKEY requests with CODE
                                   (e.g. error Produce NOT_LEADER_FOR_PARTITION 3)
        clear APIKEY               forget APIKEY errors not yet returned
        topic NAME PARTITIONS      create topic NAME with PARTITIONS partitions
        topic-error NAME CODE      answer metadata requests for topic NAME with CODE
                                   (UNKNOWN_TOPIC_OR_PART: as if it did not exist;
                                   NO_ERROR takes the error away)
        """

    /// Performs one control command line (see ``controlCommandHelp``) and answers `ok` or
    /// `error: MESSAGE`. An empty line answers `ok`.
    public func perform(controlCommand line: String) -> String {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let verb = words.first?.lowercased() else { return "ok" }
        do throws(ControlError) {
            switch verb {
            case "down":
                try expect(words, count: 2...2, usage: "down BROKER")
                try run { try setBrokerDown(try broker(words[1])) }
            case "up":
                try expect(words, count: 2...2, usage: "up BROKER")
                try run { try setBrokerUp(try broker(words[1])) }
            case "rtt":
                try expect(words, count: 3...3, usage: "rtt BROKER MS")
                let milliseconds = try number(words[2], "MS", Int32.self)
                try run { try setRoundTripTime(broker: try broker(words[1]), milliseconds: milliseconds) }
            case "error":
                try expect(words, count: 3...4, usage: "error APIKEY CODE [COUNT]")
                let apiKey = try apiKey(words[1])
                let code = try errorCode(words[2])
                let count = words.count == 4 ? try number(words[3], "COUNT", Int.self) : 1
                guard (1...100_000).contains(count) else { throw ControlError("COUNT must be 1...100000") }
                try run { try pushRequestErrors(apiKey: apiKey, errors: Array(repeating: code, count: count)) }
            case "clear":
                try expect(words, count: 2...2, usage: "clear APIKEY")
                let apiKey = try apiKey(words[1])
                try run { try clearRequestErrors(apiKey: apiKey) }
            case "topic-error":
                try expect(words, count: 3...3, usage: "topic-error NAME CODE")
                let code = try errorCode(words[2])
                try run { try setTopicError(words[1], code: code) }
            case "topic":
                try expect(words, count: 3...3, usage: "topic NAME PARTITIONS")
                let partitions = try number(words[2], "PARTITIONS", Int.self)
                guard (1...10_000).contains(partitions) else { throw ControlError("PARTITIONS must be 1...10000") }
                try run { try createTopic(words[1], partitions: partitions) }
            default:
                throw ControlError(
                    "unknown command \(words[0]); commands: down, up, rtt, error, clear, topic, topic-error")
            }
        } catch {
            return "error: \(error.message)"
        }
        return "ok"
    }

    private func run(_ body: () throws -> Void) throws(ControlError) {
        do {
            try body()
        } catch let error as KafkaError {
            throw ControlError(
                error.code == KafkaError.client("").code ? error.message : "\(error.codeName): \(error.message)")
        } catch {
            throw ControlError("\(error)")
        }
    }

    private func expect(_ words: [String], count: ClosedRange<Int>, usage: String) throws(ControlError) {
        guard count.contains(words.count) else { throw ControlError("usage: \(usage)") }
    }

    private func broker(_ word: String) throws(KafkaError) -> Int32 {
        guard let id = Int32(word), id >= 1, id <= brokerCount else {
            throw KafkaError.client("no broker \(word) (brokers are 1...\(brokerCount))")
        }
        return id
    }

    private func errorCode(_ word: String) throws(ControlError) -> Int32 {
        guard let code = KafkaError.code(named: word) else {
            throw ControlError("unknown error code \(word) (librdkafka names, e.g. NOT_LEADER_FOR_PARTITION)")
        }
        return code
    }

    private func apiKey(_ word: String) throws(ControlError) -> Int16 {
        guard let key = KafkaAPIKey.key(named: word) else {
            throw ControlError("unknown API key \(word) (e.g. Produce, Fetch, OffsetCommit, JoinGroup)")
        }
        return key
    }

    private func number<Number: FixedWidthInteger>(_ word: String, _ name: String, _: Number.Type) throws(ControlError)
        -> Number
    {
        guard let value = Number(word), value >= 0 else {
            throw ControlError("\(name) must be a number >= 0, not \(word)")
        }
        return value
    }
}

/// A control command that cannot be performed, with the reason.
private struct ControlError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
