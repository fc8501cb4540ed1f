// Test support for gpsd integration tests — written to be copied into other test targets.
//
// Self-contained (Glibc, Synchronization, Foundation only):
//   ChildProcess.swift    posix_spawn runner; stop by PID (SIGTERM → SIGKILL to it and its
//                         children), bounded waits; runs children as `nobody` when root.
//   LoopbackPorts.swift   free port via bind(127.0.0.1:0); wait until a port accepts.
//   TestClock.swift       CLOCK_MONOTONIC as Telemetry.MonotonicTime (needs Telemetry);
//                         `Blocking.run` keeps blocking work off the cooperative pool.
//   NMEA.swift            NMEA 0183 sentences (RMC, GGA, HDT) with correct or corrupt checksums.
//   NMEATCPServer.swift   a `tcp://` NMEA source for gpsd, recording what it sent.
//   GPSDProbe.swift       raw gpsd protocol (`?DEVICES;`, `?WATCH`) for readiness and diagnostics.
//   GPSDCheckFile.swift   parser for gpsd regression `.chk` files.
// Need the test target's resources (`resources: [.copy("Fixtures")]`, for `Bundle.module`):
//   TestDirectory.swift   per-test TMPDIR/HOME, fixture copies.
//   GPSDProcesses.swift   gpsd / gpsfake start with port retry and device-pool check.
// Need GPSClient (and Logging):
//   EventRecorder.swift   drains `GPSClient.events`; bounded `waitUntil`.
//   ClientHarness.swift   starts a GPSClient with a recorder; `reportTiming`.
//   TestSources.swift     the two test walks and position matching.
//
// Rules these helpers follow (docs/style.md habit 20, docs/gpsd.md §2.3): no fixed ports,
// a private TMPDIR per test, every process stopped by its PID in a `defer`, every wait
// bounded, nothing that blocks Swift's cooperative pool for long.
