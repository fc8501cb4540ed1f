/// The software version: what `followme --version` prints and every flight log's start record
/// carries (`software_version`), so a log says which build flew. Our choice: semantic versioning,
/// raised by hand with a release.
public enum FollowMeVersion {
    public static let current = "0.1.0"
}
