import PushDelivery
import Testing

/// Base64url without padding (RFC 4648 section 5), with RFC 4648's test vectors.
struct Base64URLCodingTests {
    @Test func rfc4648VectorsWithoutPadding() {
        let vectors = [
            "": "", "f": "Zg", "fo": "Zm8", "foo": "Zm9v", "foob": "Zm9vYg", "fooba": "Zm9vYmE", "foobar": "Zm9vYmFy",
        ]
        for (plain, encoded) in vectors {
            #expect(Base64URLCoding.encode(Array(plain.utf8)) == encoded)
            #expect(Base64URLCoding.decode(encoded) == Array(plain.utf8))
        }
    }

    @Test func theURLAlphabetIsUsedAndEveryByteSurvivesARoundTrip() {
        #expect(Base64URLCoding.encode([0xFB, 0xFF, 0xBF]) == "-_-_")
        let bytes = (0...255).map { UInt8($0) }
        #expect(Base64URLCoding.decode(Base64URLCoding.encode(bytes)) == bytes)
        #expect(Base64URLCoding.decode("Zg==") == Array("f".utf8))
        #expect(Base64URLCoding.decode("Zm9v+") == nil && Base64URLCoding.decode("Z") == nil)
        #expect(Base64URLCoding.decode("Zg=A") == nil, "a = before the end")
        #expect(Base64URLCoding.decode("Zg") == Array("f".utf8))
    }
}
