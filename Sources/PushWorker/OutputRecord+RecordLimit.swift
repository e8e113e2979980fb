import PushModel

extension OutputRecord {
    /// The record's size as Kafka counts it, near enough: key, value and every header name and value.
    var approximateSize: Int {
        (key?.count ?? 0) + value.count + headers.reduce(0) { $0 + $1.name.utf8.count + ($1.value?.count ?? 0) }
    }

    /// The record as it can be written under a record size limit of `limit` bytes.
    ///
    /// Outputs are at most 4096 bytes, so only a dead letter of an input larger than the limit can be
    /// over it (an input topic may accept larger records than pushgate writes). Such a dead letter keeps
    /// its key and headers, loses its value, and says so in `pushgate-value-omitted` (the original size),
    /// instead of stopping the worker on every restart. A deviation from SPEC section 6 ("value bytes
    /// unchanged") for records that could not be written at all.
    public func fitting(recordLimit limit: Int) -> OutputRecord {
        exceeds(recordLimit: limit) ? withoutValue() : self
    }

    /// Whether the record is a dead letter over a record size limit of `limit` bytes, which
    /// ``fitting(recordLimit:)`` writes without its value.
    func exceeds(recordLimit limit: Int) -> Bool {
        isDeadLetter && approximateSize > limit
    }

    /// The record without its value, with `pushgate-value-omitted: SIZE` saying how large it was.
    func withoutValue() -> OutputRecord {
        var fitted = self
        fitted.value = []
        fitted.headers.append(RecordHeader(name: "pushgate-value-omitted", text: String(value.count)))
        return fitted
    }
}
