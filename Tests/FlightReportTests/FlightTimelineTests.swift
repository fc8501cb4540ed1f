import FlightReport
import Testing

@Suite("FlightTimeline")
struct FlightTimelineTests {
    @Test("a timeline keeps its title")
    func keepsTitle() {
        #expect(FlightTimeline(title: "flight").title == "flight")
    }
}
