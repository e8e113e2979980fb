/// A device as ``DirectoryStore`` keeps it: a ``Device`` whose APNs token of 32 bytes (the length APNs gives
/// today) is kept as those 32 bytes rather than as 64 hexadecimal characters in a text of its own. Made a
/// ``Device`` again when it is looked up.
struct StoredDevice: Equatable {
    var id: String
    var audience: String
    var app: String?
    var address: Address

    /// Where the platform reaches the device, compactly.
    enum Address: Equatable {
        /// An APNs token of 32 bytes, in four words (big-endian: the first word holds the first 8 bytes).
        case apns32(UInt64, UInt64, UInt64, UInt64, APNsEnvironment)
        /// Any other address, as the device has it.
        case other(Device.Address)
    }

    /// `device`, its address made compact when it can be.
    init(_ device: Device) {
        id = device.id
        audience = device.audience
        app = device.app
        if case .apns(let token, let environment) = device.address, let words = Self.words(ofHex: token) {
            address = .apns32(words.0, words.1, words.2, words.3, environment)
        } else {
            address = .other(device.address)
        }
    }

    var platform: Platform {
        switch address {
        case .apns32: .apns
        case .other(let address): address.platform
        }
    }

    /// The device as it was stored.
    var device: Device {
        switch address {
        case .apns32(let first, let second, let third, let fourth, let environment):
            let token = String(unsafeUninitializedCapacity: 64) { buffer in
                func write(_ word: UInt64, at start: Int) {
                    for nibble in 0..<16 {
                        buffer[start + nibble] = Self.hexDigits[Int((word >> (60 - 4 * nibble)) & 0xF)]
                    }
                }
                write(first, at: 0)
                write(second, at: 16)
                write(third, at: 32)
                write(fourth, at: 48)
                return 64
            }
            return Device(id: id, audience: audience, app: app, address: .apns(token: token, environment: environment))
        case .other(let address):
            return Device(id: id, audience: audience, app: app, address: address)
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// The four words of a token of exactly 64 lowercase hexadecimal digits; `nil` for any other text (it is
    /// kept as it is, so that the device is given back exactly as it came).
    private static func words(ofHex token: String) -> (UInt64, UInt64, UInt64, UInt64)? {
        token.utf8.withContiguousStorageIfAvailable { bytes -> (UInt64, UInt64, UInt64, UInt64)? in
            guard bytes.count == 64 else { return nil }
            func word(at start: Int) -> UInt64? {
                var word: UInt64 = 0
                for byte in bytes[start..<start + 16] {
                    switch byte {
                    case UInt8(ascii: "0")...UInt8(ascii: "9"): word = word << 4 | UInt64(byte - UInt8(ascii: "0"))
                    case UInt8(ascii: "a")...UInt8(ascii: "f"): word = word << 4 | UInt64(byte - UInt8(ascii: "a") + 10)
                    default: return nil
                    }
                }
                return word
            }
            guard let first = word(at: 0), let second = word(at: 16), let third = word(at: 32),
                let fourth = word(at: 48)
            else { return nil }
            return (first, second, third, fourth)
        } ?? nil
    }
}
