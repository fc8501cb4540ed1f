import Testing
@testable import FlightService

@Suite("TOMLLineLocator")
struct TOMLLineLocatorTests {
    @Test("headers, plain keys, comments and blank lines")
    func basics() {
        let locator = TOMLLineLocator(text: """
            # comment with [fake] header and fake = key
            top = 1

            [gpsd]   # trailing comment
            host = "127.0.0.1"  # port = 1
            port = 2947
            [ follow ]
              standoff_m=6
            \t[\tfailsafe\t]
            geofence_m = 100
            """)
        #expect(locator.line(of: ["top"]) == 2)
        #expect(locator.line(of: ["gpsd"]) == 4)
        #expect(locator.line(table: "gpsd", key: "host") == 5)
        #expect(locator.line(table: "gpsd", key: "port") == 6)
        #expect(locator.line(of: ["follow"]) == 7)
        #expect(locator.line(table: "follow", key: "standoff_m") == 8)
        #expect(locator.line(of: ["failsafe"]) == 9)
        #expect(locator.line(table: "failsafe", key: "geofence_m") == 10)
        #expect(locator.line(of: ["fake"]) == nil)
        #expect(locator.line(of: ["gpsd", "fake"]) == nil)
        #expect(locator.line(table: "gpsd", key: "port") != 5)  // the `port = 1` in the comment is ignored
    }

    @Test("quoted, literal and dotted keys and headers")
    func quotedAndDotted() {
        let locator = TOMLLineLocator(text: """
            follow.standoff_m = 6
            "quoted key" = 1
            'literal.key' = 2
            [ "table with spaces" . sub ]
            "escaped \\" quote" = 3
            "\\u00e9t\\u00E9" = 4
            a . b . c = 5
            [[fleet]]
            name = "x"
            [[fleet]]
            name = "y"
            """)
        #expect(locator.line(of: ["follow"]) == 1)
        #expect(locator.line(table: "follow", key: "standoff_m") == 1)
        #expect(locator.line(of: ["quoted key"]) == 2)
        #expect(locator.line(of: ["literal.key"]) == 3)
        #expect(locator.line(of: ["table with spaces"]) == 4)
        #expect(locator.line(of: ["table with spaces", "sub"]) == 4)
        #expect(locator.line(of: ["table with spaces", "sub", "escaped \" quote"]) == 5)
        #expect(locator.line(of: ["table with spaces", "sub", "été"]) == 6)
        #expect(locator.line(of: ["table with spaces", "sub", "a", "b", "c"]) == 7)
        #expect(locator.line(of: ["table with spaces", "sub", "a"]) == 7)
        #expect(locator.line(of: ["fleet"]) == 8)  // first occurrence
        #expect(locator.line(of: ["fleet", "name"]) == 9)
    }

    @Test("strings, multi-line strings and arrays cannot fake headers or keys")
    func skipsValues() {
        let locator = TOMLLineLocator(text: #"""
            s = "[not_a_table] x = 1 # not a comment"
            m = """
            [also_not_a_table]
            y = 2 \"""
            still = "inside"
            """
            l = '''
            [nope]
            z = 3'''
            arr = [
              [1, 2],   # [comment]
              ["[x]", '[y]'],
              { k = 1 },
            ]
            [after]
            key = "a\"b" # c = 1
            quote_end = """ends with quotes"""""
            next = 1
            """#)
        #expect(locator.line(of: ["s"]) == 1)
        #expect(locator.line(of: ["m"]) == 2)
        #expect(locator.line(of: ["also_not_a_table"]) == nil)
        #expect(locator.line(of: ["y"]) == nil)
        #expect(locator.line(of: ["still"]) == nil)
        #expect(locator.line(of: ["l"]) == 7)
        #expect(locator.line(of: ["nope"]) == nil && locator.line(of: ["z"]) == nil)
        #expect(locator.line(of: ["arr"]) == 10)
        #expect(locator.line(of: ["x"]) == nil && locator.line(of: ["k"]) == nil)
        #expect(locator.line(of: ["after"]) == 15)
        #expect(locator.line(table: "after", key: "key") == 16)
        #expect(locator.line(table: "after", key: "c") == nil)
        #expect(locator.line(table: "after", key: "quote_end") == 17)
        #expect(locator.line(table: "after", key: "next") == 18)
    }

    @Test("inline tables record their keys, also nested and across lines of an array")
    func inlineTables() {
        let locator = TOMLLineLocator(text: """
            onboard = { device = "/dev/x", port = 2948 }
            [drone]
            limits = { climb = { max = 1 } }
            """)
        #expect(locator.line(of: ["onboard"]) == 1)
        #expect(locator.line(table: "onboard", key: "device") == 1)
        #expect(locator.line(table: "onboard", key: "port") == 1)
        #expect(locator.line(of: ["drone", "limits", "climb", "max"]) == 3)
    }

    @Test("CRLF line endings and a date-time with a space")
    func crlfAndDates() {
        let locator = TOMLLineLocator(text: "[a]\r\nwhen = 1979-05-27 07:32:00Z\r\n\r\nx = 1\r\n[b]\r\ny = 2")
        #expect(locator.line(of: ["a"]) == 1)
        #expect(locator.line(table: "a", key: "when") == 2)
        #expect(locator.line(table: "a", key: "x") == 4)
        #expect(locator.line(table: "b", key: "y") == 6)
    }

    @Test("malformed text does not hang or crash")
    func malformed() {
        for text in ["[", "[[", "a =", "= 1", "a = [1, 2", "a = {", "a = \"\"\"open", "]]]", "a = }", "\"\\u12"] {
            _ = TOMLLineLocator(text: text)
        }
    }

    @Test("agrees with the rendered configuration: every known key, on the line that writes it")
    func agreesWithRendering() throws {
        // (a MAVLink configuration: the rendering writes `protocol` and `[mavlink]` only for one)
        var configuration = FollowMeConfiguration.defaultsWithDevices
        configuration.drone.linkProtocol = .mavlink
        let text = configuration.renderedTOML()
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let locator = TOMLLineLocator(text: text)
        for (table, keys) in ConfigSchema.tables {
            let header = try #require(locator.line(of: [table]), "[\(table)]")
            #expect(lines[header - 1] == "[\(table)]")
            for key in keys {
                let line = try #require(locator.line(table: table, key: key), "\(table).\(key)")
                #expect(lines[line - 1].hasPrefix("\(key) = "))
            }
        }
    }
}
