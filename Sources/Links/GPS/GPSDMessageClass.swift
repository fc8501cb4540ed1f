/// The `class` of a gpsd JSON report, read from the raw line libgps hands back.
///
/// libgps' `set` mask cannot say which report it just parsed (bits survive across reports,
/// docs/gpsd.md §1.2), so we dispatch on the line itself. gpsd always writes `class` first.
public enum GPSDMessageClass: Sendable, Hashable {
    case tpv, att, device, devices, sky, error, version, watch
    /// gpsd's time offset report (sent to a `"pps":true` watcher): parsed from the line, not by libgps.
    case toff
    case other

    /// Classifies a gpsd JSON line by its leading `{"class":"NAME"` (exact prefix; the comma after
    /// DEVICE matters, or DEVICES lists would match too).
    public init(line: some StringProtocol) {
        guard line.hasPrefix(#"{"class":""#) else { self = .other; return }
        let rest = line.dropFirst(10)
        if rest.hasPrefix(#"TPV""#) { self = .tpv }
        else if rest.hasPrefix(#"ATT""#) { self = .att }
        else if rest.hasPrefix(#"DEVICE""#) { self = .device }
        else if rest.hasPrefix(#"DEVICES""#) { self = .devices }
        else if rest.hasPrefix(#"SKY""#) { self = .sky }
        else if rest.hasPrefix(#"ERROR""#) { self = .error }
        else if rest.hasPrefix(#"VERSION""#) { self = .version }
        else if rest.hasPrefix(#"WATCH""#) { self = .watch }
        else if rest.hasPrefix(#"TOFF""#) { self = .toff }
        else { self = .other }
    }
}
