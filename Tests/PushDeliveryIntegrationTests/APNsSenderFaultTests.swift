import Crypto
import Foundation
import Logging
import PushDelivery
import PushModel
import PushgateTestSupport
import Testing

/// The APNs sender when the provider token, the connection or the answer fails: new tokens, timeouts, GOAWAY,
/// closed connections, an untrusted certificate, and logs that never name a token.
struct APNsSenderFaultTests {
    typealias Answer = APNsStandIn.Answer
    let record = APNsSenderIntegrationTests.record()

    func device(_ token: String, id: String = "device-1") -> Device { APNsSenderIntegrationTests.device(token, id: id) }

    func token(_ number: Int) -> String { String(format: "%064x", 0xB000 + number) }

    @Test func expiredProviderTokenMakesANewTokenAndTheRequestSucceeds() async throws {
        let standIn = try await APNsStandIn(answers: [token(0): [Answer(status: 403, reason: "ExpiredProviderToken")]])
        let answer = try await APNsSenderIntegrationTests.withSender(standIn) { sender in
            await sender.send(DevicePush(record: record, device: device(token(0))))
        }
        #expect(answer.details.status == 200)
        let requests = try standIn.requests(token: token(0))
        try #require(requests.count == 2)
        #expect(requests.map(\.answer.reason) == ["ExpiredProviderToken", nil])
        #expect(requests[0].jwt?.digest != requests[1].jwt?.digest, "the second request carries a new token")
        #expect(requests[0].headers["apns-id"] == requests[1].headers["apns-id"])
    }

    @Test func manyRequestsRefusedTogetherMakeOneNewToken() async throws {
        let count = 8
        let tokens = (1...count).map(token)
        let standIn = try await APNsStandIn(
            answers: Dictionary(
                uniqueKeysWithValues: tokens.map {
                    ($0, [Answer(status: 403, reason: "ExpiredProviderToken", delay: 1)])
                }
            ))
        let answers = try await APNsSenderIntegrationTests.withSender(standIn) { sender in
            await withTaskGroup(of: PushAnswer.self) { group in
                for (index, token) in tokens.enumerated() {
                    group.addTask {
                        await sender.send(DevicePush(record: record, device: device(token, id: "d\(index)")))
                    }
                }
                return await group.reduce(into: [PushAnswer]()) { $0.append($1) }
            }
        }
        #expect(answers.allSatisfy { $0.details.status == 200 })
        let requests = try standIn.requests().filter { $0.path?.hasPrefix("/3/device/") == true }
        let refused = Set(requests.filter { $0.answer.status == 403 }.compactMap(\.jwt?.digest))
        let accepted = Set(requests.filter { $0.answer.status == 200 }.compactMap(\.jwt?.digest))
        #expect(requests.count == 2 * count)
        #expect(refused.count == 1 && accepted.count == 1 && refused != accepted)
    }

    @Test func aNewTokenRefusedAsExpiredTooIsACredentialsProblem() async throws {
        let expired = Answer(status: 403, reason: "ExpiredProviderToken")
        let standIn = try await APNsStandIn(answers: [token(0): [expired, expired]])
        let answer = try await APNsSenderIntegrationTests.withSender(standIn) { sender in
            await sender.send(DevicePush(record: record, device: device(token(0))))
        }
        #expect(
            answer
                == .credentials(
                    AnswerDetails(status: 403, reason: "ExpiredProviderToken", apnsID: answer.details.apnsID)))
        #expect(try standIn.requests(token: token(0)).count == 2)
    }

    @Test func aTokenSignedWithAnotherKeyOrTeamIsRefusedByTheStandInAndIsACredentialsProblem() async throws {
        let standIn = try await APNsStandIn()
        let otherKey = try await APNsSenderIntegrationTests.withSender(standIn, key: P256.Signing.PrivateKey()) {
            sender in
            await sender.send(DevicePush(record: record, device: device(token(0))))
        }
        let otherTeam = try await APNsSenderIntegrationTests.withSender(standIn, teamID: "OTHERTEAM1") { sender in
            await sender.send(DevicePush(record: record, device: device(token(0))))
        }
        for answer in [otherKey, otherTeam] {
            #expect(
                answer
                    == .credentials(
                        AnswerDetails(status: 403, reason: "InvalidProviderToken", apnsID: answer.details.apnsID)))
        }
    }

    @Test func noAnswerWithinTheRequestTimeoutIsATransientTimeout() async throws {
        let standIn = try await APNsStandIn(answers: [
            token(0): [Answer(action: "no_answer")], token(1): [Answer(delay: 0.4)],
        ])
        let started = ContinuousClock.now
        let (silent, slow, after) = try await APNsSenderIntegrationTests.withSender(
            standIn, requestTimeout: .seconds(4)
        ) {
            sender in
            (
                await sender.send(DevicePush(record: record, device: device(token(0)))),
                await sender.send(DevicePush(record: record, device: device(token(1)))),
                await sender.send(DevicePush(record: record, device: device(token(2))))
            )
        }
        let elapsed = ContinuousClock.now - started
        #expect(silent == .transient(AnswerDetails(reason: "timeout", apnsID: silent.details.apnsID), retryAfter: nil))
        #expect(elapsed >= .seconds(4) && elapsed < .seconds(20))
        #expect(slow.details.status == 200, "an answer slower than others but within the timeout is taken")
        #expect(after.details.status == 200, "the sender goes on after a timeout")
    }

    /// An answer whose head comes but whose body never does ends after the request timeout without a byte, with the
    /// head's status; without a limit on the body the send never returned.
    @Test(.timeLimit(.minutes(1))) func anAnswerWhoseBodyStallsEndsWithItsStatus() async throws {
        let standIn = try await APNsStandIn(answers: [
            token(0): [Answer(status: 410, reason: "Unregistered", action: "stall_body")]
        ])
        let (stalled, after) = try await APNsSenderIntegrationTests.withSender(standIn, requestTimeout: .seconds(3)) {
            sender in
            (
                await sender.send(DevicePush(record: record, device: device(token(0)))),
                await sender.send(DevicePush(record: record, device: device(token(1))))
            )
        }
        #expect(stalled.details.status == 410, "the head's status is kept")
        #expect(after.details.status == 200, "the sender goes on")
    }

    /// A request sent while the client has not yet seen the connection close may fail the same way; the worker
    /// tries again, as the test does (at most three times).
    @Test(arguments: ["goaway", "close", "reset"])
    func aConnectionEndedBeforeTheAnswerIsTransientAndTheNextPushGoesThrough(action: String) async throws {
        let standIn = try await APNsStandIn(answers: [token(0): [Answer(reason: "Shutdown", action: action)]])
        let answers = try await APNsSenderIntegrationTests.withSender(standIn) { sender in
            var answers: [PushAnswer] = []
            repeat {
                answers.append(await sender.send(DevicePush(record: record, device: device(token(0)))))
            } while answers.count < 4 && answers.last?.details.status != 200
            return answers
        }
        #expect(
            answers.count >= 2 && answers.count <= 4 && answers.last?.details.status == 200, "\(action): \(answers)")
        for answer in answers.dropLast() {
            guard case .transient(let details, nil) = answer else {
                Issue.record("\(action): \(answer)")
                continue
            }
            #expect(details.status == nil && details.reason == "connection_closed", "\(action): \(details)")
        }
        let actions = try standIn.requests(token: token(0)).map(\.answer.action)
        #expect(actions.first == action && actions.last == "answer" && actions.count <= answers.count)
    }

    @Test func withoutTheStandInsCAInTheTrustRootsTheTLSHandshakeFails() async throws {
        let standIn = try await APNsStandIn()
        let answer = try await APNsSenderIntegrationTests.withSender(standIn, trustCA: false) { sender in
            await sender.send(DevicePush(record: record, device: device(token(0))))
        }
        guard case .transient(let details, _) = answer else {
            Issue.record("\(answer)")
            return
        }
        #expect(details.reason == "tls_failed", "\(details)")
        #expect(try standIn.requests().isEmpty)
    }

    @Test func aRefusedConnectionIsTransient() async throws {
        let standIn = try await APNsStandIn()
        let closedPort = try freePort()
        let started = ContinuousClock.now
        let answer = try await APNsSenderIntegrationTests.withSender(
            standIn, requestTimeout: .seconds(5), productionPort: closedPort
        ) { sender in
            await sender.send(DevicePush(record: record, device: device(token(0))))
        }
        guard case .transient(let details, _) = answer else {
            Issue.record("\(answer)")
            return
        }
        #expect(details.reason == "connect_failed", "\(details)")
        #expect(ContinuousClock.now - started < .seconds(8))
    }

    @Test func nothingLoggedNamesADeviceTokenOrAProviderToken() async throws {
        let expired = Answer(status: 403, reason: "ExpiredProviderToken")
        let standIn = try await APNsStandIn(
            answers: [
                token(0): [expired], token(1): [Answer(action: "close")], token(2): [Answer(action: "no_answer")],
            ])
        let log = CapturedLog(metadata: true)
        let logger = Logger(label: "apns-test") { label in log.handler(label: label) }
        try await APNsSenderIntegrationTests.withSender(standIn, requestTimeout: .seconds(1), logger: logger) {
            sender in
            for number in 0...3 { _ = await sender.send(DevicePush(record: record, device: device(token(number)))) }
        }
        let text = log.text
        #expect(!text.isEmpty, "the sender logged what happened")
        for number in 0...3 { #expect(!text.contains(token(number))) }
        #expect(!text.contains("eyJ") && !text.lowercased().contains("bearer"))
    }

    private func freePort() throws -> Int {
        let socket = try #require(Optional(Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)))
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(socket, pointer, length) == 0 && getsockname(socket, pointer, &length) == 0
            }
        }
        try #require(bound)
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
