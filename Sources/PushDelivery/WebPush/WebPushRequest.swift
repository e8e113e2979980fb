/// The headers SPEC 10.5 sends with a web push, but `Authorization` (which the sender adds with the key's current
/// token): `TTL`, `Urgency` and `Topic` from the record's `webpush-*` headers when present, then
/// `Content-Encoding: aes128gcm` and `Content-Type: application/octet-stream`.
public enum WebPushRequest {
    /// Record header → request header, in the order sent.
    public static let copiedHeaders = [
        ("webpush-ttl", "TTL"), ("webpush-urgency", "Urgency"), ("webpush-topic", "Topic"),
    ]

    /// The headers of a push of `record`; `nil` when a copied header's bytes cannot be a header value (control
    /// characters, bytes outside ASCII): the push is then `rejected` with `invalid_header`.
    public static func headers(for record: DeliveredRecord) -> [(name: String, value: String)]? {
        var headers: [(name: String, value: String)] = []
        for (source, name) in copiedHeaders {
            guard let header = record.headers.first(where: { $0.name == source }) else { continue }
            guard APNsRequest.isHeaderValue(header.value) else { return nil }
            headers.append((name: name, value: String(decoding: header.value, as: UTF8.self)))
        }
        return headers + [
            (name: "Content-Encoding", value: "aes128gcm"), (name: "Content-Type", value: "application/octet-stream"),
        ]
    }
}
