/// Why bytes are not an acceptable JSON document: `invalid_json` or `too_deep`, with the byte offset.
struct JSONParseFailure: Error, Equatable {
    /// Which parse code the failure maps to.
    enum Kind: Equatable {
        /// Not RFC 8259 JSON, trailing data, a duplicate member name or an unpaired surrogate.
        case invalidJSON
        /// A value at depth 65 or more.
        case tooDeep
        /// A string holds bytes that are not UTF-8 (the parse stage then finds the first such byte).
        case invalidUTF8
    }

    /// The kind of failure.
    let kind: Kind
    /// The byte offset (0-based) where the problem was found.
    let offset: Int
    /// A message a person can act on, naming the byte offset.
    let message: String
}
