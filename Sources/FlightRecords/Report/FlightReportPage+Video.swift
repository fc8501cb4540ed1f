import FollowCore

// The flight's video on the page (docs/video.md §7): a `<section id="video">` after the summary and
// the plan view, one `<figure class="recording">` per recording with its `<video controls>` (the MP4
// by a relative URL, the one file the page does not hold) or the command that makes the MP4, and the
// thumbnail strip (inline JPEGs). The figure's `data-map` is its time table (MP4 seconds,timeline
// seconds pairs); the script turns the video's time into the timeline's and moves the plan view's
// person and drone markers (`#plan-cursor`) and the charts' cursor line there.

extension FlightReportPage {
    /// The most track points the plan view's cursor carries per track (evenly by index, the last kept):
    /// our choice, about 60 kB of attribute per track, finer than the cursor moves on screen.
    static let maxCursorTrackPoints = 3000

    /// The markers the cursor moves on the plan view, hidden until a time is shown; each track as
    /// `data-person` / `data-drone`: `t,x,y` triples (timeline seconds, viewBox pixels) by time.
    func planCursor(_ projection: TrackPlot.Projection) -> String {
        let t = timeline
        func attribute(_ track: [FlightTimeline.TrackPoint]) -> String {
            let points = track.filter { $0.t.isFinite && $0.plane.isFinite }.sorted { $0.t < $1.t }
            guard !points.isEmpty else { return "" }
            let stride = max(1, (points.count + Self.maxCursorTrackPoints - 2) / max(Self.maxCursorTrackPoints - 1, 1))
            var kept = Swift.stride(from: 0, to: points.count, by: stride).map { points[$0] }
            if let last = points.last, kept.last != last { kept.append(last) }
            return kept.map { "\(fixed($0.t, decimals: 2)),\(fixed(projection.x($0.plane.east), decimals: 1)),"
                + "\(fixed(projection.y($0.plane.north), decimals: 1))" }.joined(separator: " ")
        }
        var out = "<g id=\"plan-cursor\" visibility=\"hidden\" data-person=\"\(attribute(t.personTrack))\" "
        out += "data-drone=\"\(attribute(t.droneTrack))\">\n"
        out += "<line class=\"cursor-link\" x1=\"0\" y1=\"0\" x2=\"0\" y2=\"0\" stroke=\"#37474f\" stroke-width=\"1.5\" "
        out += "stroke-dasharray=\"4 3\"/>\n"
        out += "<circle class=\"cursor-person\" cx=\"0\" cy=\"0\" r=\"8\" fill=\"\(FlightReportStyle.person)\" stroke=\"#fff\" "
        out += "stroke-width=\"3\"><title>person</title></circle>\n"
        out += "<rect class=\"cursor-drone\" x=\"-7\" y=\"-7\" width=\"14\" height=\"14\" fill=\"\(FlightReportStyle.drone)\" "
        out += "stroke=\"#fff\" stroke-width=\"3\"><title>drone</title></rect>\n"
        out += "<text class=\"cursor-label\" x=\"0\" y=\"0\"></text>\n"
        out += "</g>\n"
        return out
    }

    /// The video section; empty without recordings.
    func videoSection() -> String {
        guard !videos.isEmpty else { return "" }
        var out = "<section id=\"video\" class=\"card\">\n<h2>Video <span class=\"method\">(the drone's front camera"
        out += videos.contains { $0.mp4Href != nil }
            ? ": the plan view's markers and the charts' line follow the picture; click a chart or a thumbnail to seek)"
            : ")"
        out += "</span></h2>\n"
        for video in videos { out += recordingFigure(video) }
        out += "</section>\n"
        return out
    }

    /// One recording: the player (or the mux command), its caption, its strip.
    func recordingFigure(_ video: FlightReportVideo) -> String {
        let span = video.timelineSpan
        var out = "<figure class=\"recording\" id=\"recording-\(xmlEscaped(video.id))\" data-map=\"\(video.mapAttribute)\""
        if let span {
            out += " data-start-s=\"\(fixed(span.lowerBound, decimals: 3))\" data-end-s=\"\(fixed(span.upperBound, decimals: 3))\""
        }
        out += ">\n"
        if let href = video.mp4Href {
            out += "<video class=\"flight-video\" controls=\"controls\" preload=\"metadata\" "
            out += "src=\"\(xmlEscaped(href))\">the MP4 beside this page: \(xmlEscaped(href))</video>\n"
        } else {
            out += "<div class=\"no-mp4\"><p>Only the raw stream was found (\(xmlEscaped(video.rawPath))): no MP4 to play. "
            out += "To make it (ffmpeg, no re-encoding), then write this page again:</p>\n"
            out += "<pre class=\"mux-command\">\(xmlEscaped(video.muxCommand))</pre></div>\n"
        }
        out += "<div class=\"thumbs\">\n"
        for thumbnail in video.thumbnails {
            let at = seconds(thumbnail.timelineSeconds)
            out += "<button type=\"button\" class=\"thumb\" data-video-s=\"\(fixed(thumbnail.videoSeconds, decimals: 3))\" "
            out += "data-t=\"\(fixed(thumbnail.timelineSeconds, decimals: 3))\" title=\"\(at) on the time axis\">"
            out += "<img alt=\"the camera at \(at)\" src=\"data:image/jpeg;base64,\(FlightReportVideo.base64(thumbnail.jpeg))\"/>"
            out += "<span>\(at)</span></button>\n"
        }
        if let note = video.thumbnailsNote { out += "<p class=\"thumbs-note\">\(xmlEscaped(note))</p>\n" }
        out += "</div>\n<figcaption>"
        var caption = "\(video.id): \(video.frameCount) frames at \(fixed(video.framesPerSecond, decimals: 1)) fps, "
        caption += seconds(video.videoSeconds)
        if let span { caption += "; on the time axis \(seconds(span.lowerBound)) – \(seconds(span.upperBound))" }
        out += xmlEscaped(caption)
        if let href = video.mp4Href {
            out += "; the MP4 (not in this page: copy it with the page): <a href=\"\(xmlEscaped(href))\">\(xmlEscaped(href))</a>"
        }
        for note in video.notes { out += "<br/>\(xmlEscaped(note))" }
        out += "</figcaption>\n</figure>\n"
        return out
    }
}
