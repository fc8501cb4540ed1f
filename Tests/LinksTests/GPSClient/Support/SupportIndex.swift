// Test support for the gpsd integration tests.
//
// Shared with the other integration test targets, in the TestSupport target (Tests/TestSupport):
//   ChildProcess          posix_spawn runner; stop by PID (SIGTERM → SIGKILL to it and its
//                         children), bounded waits; runs children as `nobody` when root.
//   LoopbackPorts         free port via bind(127.0.0.1:0); wait until a port accepts.
//   TestClock, Blocking   CLOCK_MONOTONIC as MonotonicTime; blocking work off the cooperative pool.
//   TestDirectory         per-test TMPDIR/HOME.
//   GPSDProcesses         gpsd / gpsfake start with port retry and device-pool check.
//   GPSDProbe             raw gpsd protocol (`?DEVICES;`, `?WATCH`) for readiness and diagnostics.
//   EventRecorder<Event>  drains an event stream; bounded `waitUntil`.
//   GPSEvents             GPSEvent filters (fixes, headings, losses, gpsd errors).
// Here (they know GPSClient, this target's fixtures or its NMEA sources):
//   NMEA.swift            the sources' sentences, written by Simulation's NMEASentence, plus a
//                         corrupt checksum and the position gpsd decodes.
//   ScriptedNMEAServer.swift  a scripted `tcp://` NMEA source for gpsd, recording what it sent.
//   EpochNMEAServer.swift  a `tcp://` NMEA source stamped with real UTC epochs, written a fixed delay after them.
//   GPSDCheckFile.swift   parser for gpsd regression `.chk` files.
//   TestDirectory.swift   `Fixtures` (this bundle's resources) and `copyFixture`.
//   ClientHarness.swift   starts a GPSClient with a recorder; `reportTiming`.
//   TestSources.swift     the two test walks and position matching.
//
// Rules these helpers follow (docs/style.md habit 20, docs/gpsd.md §2.3): no fixed ports,
// a private TMPDIR per test, every process stopped by its PID in a `defer`, every wait
// bounded, nothing that blocks Swift's cooperative pool for long.
