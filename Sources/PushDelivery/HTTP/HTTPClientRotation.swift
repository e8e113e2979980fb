import AsyncHTTPClient
import Synchronization

/// The AsyncHTTPClient a ``PushHTTPClient`` sends with, replaced by a new one after a request times out.
///
/// When many requests time out together on one AsyncHTTPClient (1.37) over HTTP/2, most of them waiting in its queue
/// for a stream (a push service that answers nothing for a while, with more requests out than it allows streams),
/// the client can be left handing out no stream at all: every later request waits until its own deadline, on a
/// connection with no stream open, and the sender stops for good (`HTTPStreamRecoveryTests`; the stream leases the
/// pool takes for requests cancelled before their stream exists appear never to be given back). So a request that
/// timed out retires the client it was sent with: the requests after it go to a new client (a new connection), and
/// the retired one is shut down when its last request has ended. A service that stays silent thus costs one new
/// connection per request timeout at most.
final class HTTPClientRotation: Sendable {
    private struct Entry {
        let client: HTTPClient
        var inFlight = 0
        var retired = false
    }

    private struct State {
        var current = 0
        var entries: [Int: Entry] = [:]
        var closed = false
    }

    private let makeClient: @Sendable () -> HTTPClient
    private let state: Mutex<State>

    /// Creates the rotation and its first client; `makeClient` makes each client, the first one now.
    init(makeClient: @escaping @Sendable () -> HTTPClient) {
        self.makeClient = makeClient
        let first = makeClient()
        state = Mutex(State(current: 0, entries: [0: Entry(client: first)]))
    }

    /// The client a new request is sent with, and the number to give back to ``checkIn(_:timedOut:)`` when it ends;
    /// nil after ``takeAll()``.
    func checkOut() -> (client: HTTPClient, number: Int)? {
        state.withLock { state -> (client: HTTPClient, number: Int)? in
            guard !state.closed, var entry = state.entries[state.current] else { return nil }
            entry.inFlight += 1
            state.entries[state.current] = entry
            return (entry.client, state.current)
        }
    }

    /// Ends a request sent with the client of `number`. A request that `timedOut` retires that client if it is still
    /// the current one. Returns the client to shut down now: a retired one whose last request this was.
    func checkIn(_ number: Int, timedOut: Bool) -> HTTPClient? {
        state.withLock { state -> HTTPClient? in
            guard var entry = state.entries[number] else { return nil }
            entry.inFlight -= 1
            if timedOut && number == state.current {
                entry.retired = true
                state.current = number + 1
                state.entries[number + 1] = Entry(client: makeClient())
            }
            if entry.retired && entry.inFlight == 0 {
                state.entries[number] = nil
                return entry.client
            }
            state.entries[number] = entry
            return nil
        }
    }

    /// Every client not shut down yet, the current one included, for the last shutdown; none are used afterwards.
    func takeAll() -> [HTTPClient] {
        state.withLock { state in
            defer {
                state.entries = [:]
                state.closed = true
            }
            return state.entries.values.map(\.client)
        }
    }
}
