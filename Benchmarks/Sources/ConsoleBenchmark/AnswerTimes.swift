import BenchProcess
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The console's API on 127.0.0.1.
struct ConsoleClient: Sendable {
    let port: Int

    /// The answer to `GET path` (or `POST` with `body`) as a JSON object; throws on any status but 200.
    func json(_ path: String, post body: String? = nil) async throws -> [String: Any] {
        guard let url = URL(string: "http://127.0.0.1:\(port)\(path)") else { throw BenchmarkError("bad path \(path)") }
        var request = URLRequest(url: url, timeoutInterval: 120)
        if let body {
            request.httpMethod = "POST"
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(body.utf8)
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard status == 200, let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw BenchmarkError("\(path): HTTP \(status): \(String(decoding: data.prefix(300), as: UTF8.self))")
        }
        return object
    }
}

/// How long each kind of request takes once the console has read the topic.
struct AnswerTimes {
    let client: ConsoleClient
    let letters: Int
    let timeout: Int

    struct Result {
        /// Each request's name and seconds, in the order made.
        var all: [(name: String, seconds: Double)] = []
        /// Seconds until the text search was done.
        var search: Double = 0
    }

    func measure() async throws -> Result {
        var result = Result()
        func timed(_ name: String, _ path: String, post: String? = nil) async throws -> [String: Any] {
            let start = ContinuousClock.now
            let answer = try await client.json(path, post: post)
            result.all.append((name, (ContinuousClock.now - start).seconds))
            return answer
        }
        let first = try await timed("counts and the first page", "/api/dead-letters")
        guard (first["total"] as? Int) == letters, let page = first["letters"] as? [[String: Any]],
            let newest = page.first, let newestMs = newest["timestamp_ms"] as? Int
        else { throw BenchmarkError("the first page is not of \(letters) letters: \(first.keys)") }
        let from = newestMs - letters / 2
        let filters = [
            ("code", "code=invalid_url"), ("stage", "stage=parse"), ("source", "topic=push.unified&partition=3"),
            ("key", "key=user-77"), ("time", "from_ms=\(from)&to_ms=\(from + 10_000)"),
            ("code, next page", "code=invalid_url&cursor=" + (first["cursor"] as? String ?? "")),
        ]
        var oldest: [String: Any]?
        for (name, query) in filters {
            let answer = try await timed("filter by \(name)", "/api/dead-letters?\(query)")
            guard let matching = answer["matching"] as? Int, matching > 0 else {
                throw BenchmarkError("filter \(query) matched nothing")
            }
            if name == "key" { oldest = (answer["letters"] as? [[String: Any]])?.last }
        }
        for (name, letter) in [("a new letter", newest), ("an old letter", oldest ?? newest)] {
            _ = try await timed("\(name)'s detail", "/api/dead-letters/\(letter["partition"]!)/\(letter["offset"]!)")
        }
        let body = #"{"letters":[{"partition":\#(newest["partition"]!),"offset":\#(newest["offset"]!)}]}"#
        let redrive = try await timed("a re-drive", "/api/redrive", post: body)
        guard redrive["written"] as? Int == 1 else { throw BenchmarkError("the re-drive wrote \(redrive)") }
        _ = try await timed("the ids of a code", "/api/dead-letter-ids?code=too_long")

        // Quoted: needle-7 alone is in needle-70 too.
        let needle = "%22needle-\(min(7, (letters - 1) / 1_000))%22"
        let start = ContinuousClock.now
        var answers = 0
        while true {
            let answer = try await client.json("/api/dead-letters?q=\(needle)")
            answers += 1
            let search = answer["search"] as? [String: Any]
            if search?["done"] as? Bool == true {
                guard answer["matching"] as? Int == 1 else {
                    throw BenchmarkError(
                        "q=\(needle) found \(answer["matching"] ?? "?") letters, not 1: \(search ?? [:])")
                }
                break
            }
            guard ContinuousClock.now - start < .seconds(timeout) else {
                throw BenchmarkError("the text search was not done in \(timeout) s: \(search ?? [:])")
            }
            if answers == 1 { result.all.append(("q, first answer (partial)", (ContinuousClock.now - start).seconds)) }
            try await Task.sleep(for: .milliseconds(500))
        }
        result.search = (ContinuousClock.now - start).seconds
        result.all.append(("q", result.search))
        return result
    }
}
