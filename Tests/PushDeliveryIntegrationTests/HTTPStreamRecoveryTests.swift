import Foundation
import PushDelivery
import PushModel
import Testing

/// A push service that leaves every stream of a connection unanswered (a stand-in that never answers, in the
/// deliver fault matrix) must not leave the sender unable to send once it answers again.
struct HTTPStreamRecoveryTests {
    typealias Answer = APNsStandIn.Answer
    let record = APNsSenderIntegrationTests.record()

    func token(_ number: Int) -> String { String(format: "%064x", 0xC000 + number) }

    func sendAll(_ sender: APNsSender, tokens: [String]) async -> [PushAnswer] {
        await withTaskGroup(of: PushAnswer.self) { group in
            for (index, token) in tokens.enumerated() {
                group.addTask {
                    await sender.send(
                        DevicePush(
                            record: record, device: APNsSenderIntegrationTests.device(token, id: "d\(index)")))
                }
            }
            return await group.reduce(into: [PushAnswer]()) { $0.append($1) }
        }
    }

    /// Ten times more unanswered requests at once than the stand-in's 100 concurrent streams: every one times out
    /// (some on a stream, most waiting for one); then 150 pushes to other devices, which the stand-in answers at
    /// once, are all delivered. Without ``HTTPClientRotation`` none of them was (every one timed out).
    @Test func requestsThatTimedOutOnEveryStreamDoNotWedgeTheNextOnes() async throws {
        let silent = (0..<1000).map(token)
        let answered = (1000..<1150).map(token)
        let standIn = try await APNsStandIn(
            answers: Dictionary(uniqueKeysWithValues: silent.map { ($0, [Answer(action: "no_answer")]) }))
        let (first, second) = try await APNsSenderIntegrationTests.withSender(standIn, requestTimeout: .seconds(4)) {
            sender in
            (await sendAll(sender, tokens: silent), await sendAll(sender, tokens: answered))
        }
        #expect(first.allSatisfy { $0.details.status == nil }, "the first round is not answered")
        let delivered = second.filter { $0.details.status == 200 }.count
        let reasons = Set(second.compactMap { $0.details.status == 200 ? nil : $0.details.reason })
        #expect(
            delivered == answered.count, "after the timeouts every push is answered (\(delivered) were: \(reasons))")
    }
}
