@testable import Links
import Testing

/// The line splitter behind `followme watch`'s socket reader.
@Suite("LineSplitter and UnixSocketAddress")
struct LineSplitterTests {
    @Test("lines split across chunks come out whole, in order; a trailing partial line waits for its end")
    func chunks() {
        var splitter = LineSplitter()
        #expect(splitter.append(Array("{\"a\":1}\n{\"b\"".utf8)) == [#"{"a":1}"#])
        #expect(splitter.append(Array(":2}".utf8)) == [])
        #expect(splitter.append(Array("\n\nx\n".utf8)) == [#"{"b":2}"#, "", "x"])
    }

    @Test("a socket path longer than sun_path is refused with a message, never truncated")
    func pathTooLong() {
        let long = "/tmp/" + String(repeating: "x", count: 200)
        #expect(throws: UnixSocketAddress.Failure.self) { _ = try UnixSocketAddress.connectStream(path: long) }
        #expect(throws: UnixSocketAddress.Failure.self) { _ = try UnixSocketAddress.with(path: long) { _, _ in 0 } }
    }

    @Test("connecting to a socket nobody serves names the reason")
    func nobodyThere() {
        do {
            _ = try UnixSocketAddress.connectStream(path: "/nonexistent-dir/status.sock")
            Issue.record("connected to nothing")
        } catch {
            #expect(error.description == "connect: No such file or directory")
        }
    }
}
