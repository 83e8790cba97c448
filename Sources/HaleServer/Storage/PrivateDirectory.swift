import Foundation

/// A directory that only Hale's own user may change: made `0700` when missing, refused when another user owns it or
/// others may write to it (they could read, replace or plant the files Hale keeps there).
public enum PrivateDirectory {
    /// Makes `url` if it is missing, and checks whose it is; the error names `setting`, the key that chose it.
    public static func prepare(_ url: URL, setting: String) throws {
        let path = url.path
        var info = stat()
        if stat(path, &info) != 0 {
            do {
                try FileManager.default.createDirectory(
                    at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw ConfigError("cannot make \(setting) \(path): \(error.localizedDescription)")
            }
            guard stat(path, &info) == 0 else { throw ConfigError("cannot read \(setting) \(path)") }
        }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw ConfigError("\(setting) \(path) is not a directory") }
        guard info.st_uid == geteuid() else {
            throw ConfigError(
                "\(setting) \(path) belongs to another user (uid \(info.st_uid)), who could read or replace Hale's"
                    + " files there: give Hale a directory of its own user's")
        }
        guard info.st_mode & 0o022 == 0 else {
            throw ConfigError(
                "\(setting) \(path) may be written by other users (mode \(String(info.st_mode & 0o777, radix: 8))),"
                    + " who could replace Hale's files there: `chmod go-w` it, or choose another")
        }
    }
}
