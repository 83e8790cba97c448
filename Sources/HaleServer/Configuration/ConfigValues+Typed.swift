import Foundation

extension ConfigValues {
    /// The value at `path` as text, or the key's default.
    func string(_ path: String) throws -> String {
        if let value = values[path] {
            return value
        }
        guard let key = ConfigKey.named(path) else {
            throw ConfigError("unknown configuration key \(path)")
        }
        return key.defaultValue
    }

    /// The value at `path` as a whole number.
    func integer(_ path: String) throws -> Int {
        let text = try string(path).trimmingCharacters(in: .whitespaces)
        guard let value = Int(text) else {
            throw ConfigError("\(path) must be a whole number, not \"\(text)\"")
        }
        return value
    }

    /// The value at `path` as `true` or `false`.
    func boolean(_ path: String) throws -> Bool {
        switch try string(path).trimmingCharacters(in: .whitespaces).lowercased() {
        case "true", "1", "yes": return true
        case "false", "0", "no": return false
        case let other: throw ConfigError("\(path) must be true or false, not \"\(other)\"")
        }
    }

    /// The value at `path` as a length of time.
    func duration(_ path: String) throws -> Duration {
        let text = try string(path)
        guard let duration = ConfigDuration.parse(text), duration > .zero else {
            throw ConfigError(
                "\(path) must be a positive duration of at most 3650d, such as 30s, 15m, 12h or 30d, not \"\(text)\"")
        }
        return duration
    }

    /// The value at `path` as a length of time, or zero for `off`.
    func durationOrOff(_ path: String) throws -> Duration {
        try string(path).trimmingCharacters(in: .whitespaces).lowercased() == "off" ? .zero : duration(path)
    }

    /// The value at `path` as a number of bytes.
    func byteSize(_ path: String) throws -> Int {
        let text = try string(path)
        guard let size = ConfigByteSize.parse(text), size > 0 else {
            throw ConfigError("\(path) must be a positive size such as 512KiB or 1MiB, not \"\(text)\"")
        }
        return size
    }

    /// The value at `path` as a list; empty items are dropped.
    func list(_ path: String) throws -> [String] {
        try string(path).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
