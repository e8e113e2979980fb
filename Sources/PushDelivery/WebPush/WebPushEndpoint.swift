import Foundation

/// A subscription's endpoint read strictly, before anything connects to it (SPEC 10.5): an `https` URL whose host
/// is a lowercase DNS name, a dotted-quad IPv4 address or a bracketed IPv6 address, with an optional port.
///
/// Whatever could make the host compared differ from the host connected to is refused, not interpreted: user
/// information (`user@`), a backslash, percent-encoding or characters outside ASCII in the host (IDNA is not
/// applied: a push service's host is written in ASCII, `xn--` labels included), an empty label or a trailing dot,
/// a numeric host that is not a canonical dotted quad (`127.1`, `0x7f.0.0.1`, `2130706433`), an IPv6 zone, an empty
/// or out-of-range port, a fragment, spaces and control characters. The URL requested is rebuilt from the parts
/// read (``url``), so that the client cannot read another host out of it.
public struct WebPushEndpoint: Sendable, Hashable {
    /// The host, lowercase; an IPv6 address keeps its brackets (`[::1]`).
    public let host: String
    /// The port when the URL names one.
    public let port: Int?
    /// The path and query, from the first `/` (at least `/`): the subscription's capability, never logged.
    public let pathAndQuery: String

    /// The endpoint's origin, as VAPID's `aud` names it: `https://HOST`, with `:PORT` unless it is 443.
    public var origin: String {
        guard let port, port != 443 else { return "https://" + host }
        return "https://\(host):\(port)"
    }

    /// The URL requested: the origin (with the port as written) and the path.
    public var url: String {
        "https://" + host + (port.map { ":\($0)" } ?? "") + pathAndQuery
    }

    /// Reads `text`; `nil` when it is not an endpoint of the form above.
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }), !bytes.contains(UInt8(ascii: "\\")),
            !bytes.contains(UInt8(ascii: "#")), bytes.count > 8,
            String(decoding: bytes[0..<8], as: UTF8.self).lowercased() == "https://"
        else { return nil }
        let rest = bytes[8...]
        let authorityEnd = rest.firstIndex(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") })
        let authority = Array(rest[..<(authorityEnd ?? rest.endIndex)])
        let path = String(decoding: rest[(authorityEnd ?? rest.endIndex)...], as: UTF8.self)
        guard !authority.contains(UInt8(ascii: "@")), !authority.contains(UInt8(ascii: "%")) else { return nil }
        let hostText: String
        let portText: String?
        if authority.first == UInt8(ascii: "[") {
            guard let close = authority.firstIndex(of: UInt8(ascii: "]")) else { return nil }
            hostText = String(decoding: authority[...close], as: UTF8.self)
            let after = authority[(close + 1)...]
            if after.isEmpty {
                portText = nil
            } else {
                guard after.first == UInt8(ascii: ":") else { return nil }
                portText = String(decoding: after.dropFirst(), as: UTF8.self)
            }
        } else {
            let parts = authority.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
            guard parts.count <= 2 else { return nil }
            hostText = String(decoding: parts[0], as: UTF8.self)
            portText = parts.count == 2 ? String(decoding: parts[1], as: UTF8.self) : nil
        }
        guard let host = Self.canonicalHost(hostText) else { return nil }
        var port: Int?
        if let portText {
            guard (1...5).contains(portText.utf8.count), portText.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                let number = Int(portText), (1...65535).contains(number)
            else { return nil }
            port = number
        }
        self.host = host
        self.port = port
        self.pathAndQuery = path.hasPrefix("/") ? path : "/" + path
        // Defence in depth: the URL parser the HTTP client uses must read the same host out of the rebuilt URL.
        guard let parsed = URL(string: url)?.host, Self.unbracketed(parsed.lowercased()) == Self.unbracketed(host)
        else { return nil }
    }

    /// `text` as a host this type accepts, lowercased (IPv6 in brackets); `nil` when it is not one.
    public static func canonicalHost(_ text: String) -> String? {
        let lower = text.lowercased()
        let bytes = Array(lower.utf8)
        guard !bytes.isEmpty, bytes.count <= 253 else { return nil }
        if bytes.first == UInt8(ascii: "[") {
            guard bytes.count > 2, bytes.last == UInt8(ascii: "]") else { return nil }
            let inner = bytes.dropFirst().dropLast()
            let isIPv6Character: (UInt8) -> Bool = { byte in
                (0x30...0x39).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                    || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ".")
            }
            guard inner.contains(UInt8(ascii: ":")), inner.allSatisfy(isIPv6Character),
                Self.isIPv6(String(decoding: inner, as: UTF8.self))
            else { return nil }
            return lower
        }
        let labels = lower.split(separator: ".", omittingEmptySubsequences: false)
        for label in labels {
            guard (1...63).contains(label.utf8.count), label.first != "-", label.last != "-",
                label.utf8.allSatisfy({ byte in
                    (0x30...0x39).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                        || byte == UInt8(ascii: "-")
                })
            else { return nil }
        }
        // A host whose last label starts with a digit is an IPv4 address to URL parsers and resolvers: only the
        // canonical dotted quad is accepted, so that no other spelling reaches an address the list does not name.
        if let last = labels.last?.utf8.first, (0x30...0x39).contains(last) {
            guard labels.count == 4,
                labels.allSatisfy({ label in
                    label.utf8.allSatisfy({ (0x30...0x39).contains($0) }) && label.utf8.count <= 3
                        && (label == "0" || label.first != "0") && (Int(label).map { $0 <= 255 } ?? false)
                })
            else { return nil }
        }
        return lower
    }

    private static func isIPv6(_ text: String) -> Bool {
        var address = in6_addr()
        return inet_pton(AF_INET6, text, &address) == 1
    }

    private static func unbracketed(_ host: String) -> Substring {
        host.hasPrefix("[") && host.hasSuffix("]") ? host.dropFirst().dropLast() : Substring(host)
    }
}
