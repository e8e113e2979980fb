import PushDelivery
import Testing

/// The directory in memory (SPEC 10.1, 10.2 step 1): replacement, tombstones, invalid values, gone marks.
struct DeviceDirectoryTests {
    static func apns(_ id: String, audience: String = "user-1", token: String = "aa") -> Device {
        Device(id: id, audience: audience, app: "com.example", address: .apns(token: token, environment: .production))
    }

    static func fcm(_ id: String, audience: String = "user-1") -> Device {
        Device(id: id, audience: audience, app: nil, address: .fcm(token: "t-\(id)"))
    }

    static let violation = DirectoryViolation(.value(pointer: "/audience"), "is required")

    @Test func devicesAreFoundByAudienceAndPlatform() {
        let directory = DeviceDirectory()
        directory.apply(.device(Self.apns("a")))
        directory.apply(.device(Self.apns("b")))
        directory.apply(.device(Self.fcm("c")))
        directory.apply(.device(Self.apns("d", audience: "user-2")))
        #expect(Set(directory.devices(audience: "user-1", platform: .apns).map(\.id)) == ["a", "b"])
        #expect(directory.devices(audience: "user-1", platform: .fcm).map(\.id) == ["c"])
        #expect(directory.devices(audience: "user-1", platform: .webpush).isEmpty)
        #expect(directory.devices(audience: "user-3", platform: .apns).isEmpty)
        #expect(directory.deviceCount == 4 && directory.deviceCount(platform: .apns) == 3)
        #expect(directory.deviceCount(platform: .fcm) == 1 && directory.deviceCount(platform: .webpush) == 0)
    }

    @Test func aNewValueReplacesTheEarlierOneAudienceAndPlatformIncluded() {
        let directory = DeviceDirectory()
        directory.apply(.device(Self.apns("a", token: "01")))
        directory.apply(.device(Self.apns("a", token: "02")))
        #expect(
            directory.devices(audience: "user-1", platform: .apns).map(\.address) == [
                .apns(token: "02", environment: .production)
            ])
        directory.apply(.device(Self.fcm("a", audience: "user-9")))
        #expect(directory.devices(audience: "user-1", platform: .apns).isEmpty)
        #expect(directory.devices(audience: "user-9", platform: .fcm).map(\.id) == ["a"])
        #expect(directory.deviceCount == 1 && directory.deviceCount(platform: .apns) == 0)
    }

    @Test func aTombstoneRemovesTheDevice() {
        let directory = DeviceDirectory()
        directory.apply(.device(Self.apns("a")))
        directory.apply(.device(Self.apns("b")))
        directory.apply(.tombstone(id: "a"))
        #expect(directory.devices(audience: "user-1", platform: .apns).map(\.id) == ["b"])
        #expect(directory.device(id: "a") == nil && directory.deviceCount == 1)
        directory.apply(.tombstone(id: "never-seen"))
        #expect(directory.deviceCount == 1 && directory.ignoredRecordCount == 0)
    }

    @Test func anInvalidValueRemovesTheEarlierDeviceAndIsCounted() {
        let directory = DeviceDirectory()
        directory.apply(.device(Self.apns("a")))
        directory.apply(.invalid(id: "a", Self.violation))
        #expect(directory.devices(audience: "user-1", platform: .apns).isEmpty)
        #expect(directory.device(id: "a") == nil && directory.ignoredRecordCount == 1)
        directory.apply(.invalid(id: nil, DirectoryViolation(.key, "is missing (a null key)")))
        #expect(directory.ignoredRecordCount == 2)
        directory.apply(.device(Self.apns("a")))
        #expect(directory.devices(audience: "user-1", platform: .apns).map(\.id) == ["a"])
    }

    @Test func aGoneDeviceIsLeftOutUntilItsRecordIsWrittenAgain() {
        let rewrites: [DirectoryEntry] = [
            .device(Self.apns("a")), .tombstone(id: "a"), .invalid(id: "a", Self.violation),
        ]
        for rewrite in rewrites {
            let directory = DeviceDirectory()
            directory.apply(.device(Self.apns("a")))
            directory.apply(.device(Self.apns("b")))
            directory.markGone(deviceID: "a")
            #expect(directory.isGone(id: "a"))
            #expect(directory.devices(audience: "user-1", platform: .apns).map(\.id) == ["b"])
            directory.apply(rewrite)
            #expect(!directory.isGone(id: "a"))
            let expected: Set<String> = rewrite == .device(Self.apns("a")) ? ["a", "b"] : ["b"]
            #expect(Set(directory.devices(audience: "user-1", platform: .apns).map(\.id)) == expected)
            // A device written again after a tombstone or invalid value is not gone either.
            directory.apply(.device(Self.apns("a")))
            #expect(Set(directory.devices(audience: "user-1", platform: .apns).map(\.id)) == ["a", "b"])
        }
    }

    @Test func aGoneAnswerForAnEarlierValueDoesNotMarkTheNewOne() {
        let directory = DeviceDirectory()
        let old = Self.apns("a", token: "01")
        directory.apply(.device(old))
        directory.apply(.device(Self.apns("a", token: "02")))
        directory.markGone(device: old)
        #expect(!directory.isGone(id: "a"))
        directory.markGone(device: Self.apns("a", token: "02"))
        #expect(directory.isGone(id: "a"))
    }

    @Test func markingAnUnknownDeviceGoneDoesNothing() {
        let directory = DeviceDirectory()
        directory.markGone(deviceID: "x")
        directory.apply(.device(Self.apns("x")))
        #expect(directory.devices(audience: "user-1", platform: .apns).map(\.id) == ["x"])
    }

    @Test func slotsAreReusedAndAudiencesShrinkBackCorrectly() {
        let directory = DeviceDirectory()
        for index in 0..<100 { directory.apply(.device(Self.apns("d\(index)", audience: "a\(index % 7)"))) }
        for index in stride(from: 0, to: 100, by: 2) { directory.apply(.tombstone(id: "d\(index)")) }
        for index in 100..<120 { directory.apply(.device(Self.fcm("d\(index)", audience: "a\(index % 7)"))) }
        #expect(directory.deviceCount == 70)
        for audience in 0..<7 {
            let apns = directory.devices(audience: "a\(audience)", platform: .apns).map(\.id)
            let expected = (0..<100).filter { $0 % 2 == 1 && $0 % 7 == audience }.map { "d\($0)" }
            #expect(Set(apns) == Set(expected) && apns.count == expected.count)
            let fcm = directory.devices(audience: "a\(audience)", platform: .fcm).map(\.id)
            #expect(Set(fcm) == Set((100..<120).filter { $0 % 7 == audience }.map { "d\($0)" }))
        }
        #expect(directory.allDevices().map(\.id) == directory.allDevices().map(\.id).sorted())
    }

    @Test func apnsTokensComeBackExactlyAsStored() {
        let directory = DeviceDirectory()
        let tokens = [
            String(repeating: "0123456789abcdef", count: 4),  // 32 bytes, lowercase: kept as bytes
            String(repeating: "0123456789ABCDEF", count: 4),  // uppercase: kept as written
            String(repeating: "f0", count: 200),  // 200 bytes
            String(repeating: "fedcba9876543210", count: 4),
        ]
        for (index, token) in tokens.enumerated() {
            directory.apply(.device(Self.apns("d\(index)", audience: "a\(index)", token: token)))
        }
        for (index, token) in tokens.enumerated() {
            #expect(directory.device(id: "d\(index)") == Self.apns("d\(index)", audience: "a\(index)", token: token))
            #expect(
                directory.devices(audience: "a\(index)", platform: .apns).map(\.address) == [
                    .apns(token: token, environment: .production)
                ])
        }
        // A gone answer for another token of the same id marks nothing; for the stored token, it does.
        let other = String(repeating: "0123456789abcdee", count: 4)
        directory.markGone(device: Self.apns("d0", audience: "a0", token: other))
        #expect(!directory.isGone(id: "d0"))
        directory.markGone(device: Self.apns("d0", audience: "a0", token: tokens[0]))
        #expect(directory.isGone(id: "d0"))
    }

    @Test func anAudienceGrowsAndShrinksInAnyOrder() {
        let directory = DeviceDirectory()
        let ids = ["a", "b", "c", "d"]
        for removalOrder in [
            ["a", "b", "c", "d"], ["d", "c", "b", "a"], ["b", "d", "a", "c"], ["c", "a", "d", "b"],
        ] {
            for (count, id) in ids.enumerated() {
                directory.apply(.device(Self.apns(id)))
                #expect(
                    Set(directory.devices(audience: "user-1", platform: .apns).map(\.id)) == Set(ids.prefix(count + 1)))
            }
            var left = Set(ids)
            for id in removalOrder {
                directory.apply(.tombstone(id: id))
                left.remove(id)
                #expect(Set(directory.devices(audience: "user-1", platform: .apns).map(\.id)) == left)
            }
            #expect(directory.deviceCount == 0)
        }
        // A device moved to another audience leaves the first.
        directory.apply(.device(Self.apns("a")))
        directory.apply(.device(Self.apns("b")))
        directory.apply(.device(Self.apns("b", audience: "user-2")))
        #expect(directory.devices(audience: "user-1", platform: .apns).map(\.id) == ["a"])
        #expect(directory.devices(audience: "user-2", platform: .apns).map(\.id) == ["b"])
    }
}
