import Foundation
import Yams

/// The configuration as flat `path → value` text, after the YAML file and the environment have been merged.
///
/// Values stay text until `HaleConfiguration` reads them with the kind its key declares, so a YAML file and an
/// environment variable are parsed by the same code.
public struct ConfigValues: Sendable, Equatable {
    /// Values by dotted path. Lists hold their items joined by commas.
    public private(set) var values: [String: String]
    /// Mistakes worth a warning that do not stop Hale: `HALE_` variables that name no key.
    public private(set) var warnings: [String] = []

    /// Values given directly, as tests and tools do.
    public init(_ values: [String: String] = [:]) {
        self.values = values
    }

    /// Loads the YAML text (if any), then applies every `HALE_…` variable of `environment`, and every `HALE_…_FILE`
    /// variable's file.
    public static func load(yaml: String?, environment: [String: String]) throws -> ConfigValues {
        var config = ConfigValues()
        if let yaml {
            try config.merge(yaml: yaml)
        }
        try config.applyEnvironment(environment)
        return config
    }

    /// Loads the file at `path` (if given), then the environment.
    public static func load(file path: String?, environment: [String: String]) throws -> ConfigValues {
        guard let path else { return try load(yaml: nil, environment: environment) }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8)
        else {
            throw ConfigError("cannot read the configuration file \(path)")
        }
        return try load(yaml: text, environment: environment)
    }

    /// The text value at `path`, or `nil` when it is not set.
    public subscript(path: String) -> String? {
        get { values[path] }
        set { values[path] = newValue }
    }

    private mutating func merge(yaml: String) throws {
        let root: Any?
        do {
            root = try Yams.load(yaml: yaml)
        } catch {
            throw ConfigError("the configuration file is not valid YAML: \(error)")
        }
        guard let root else { return }
        guard let mapping = root as? [String: Any] else {
            throw ConfigError("the configuration file must be a mapping of sections")
        }
        try flatten(mapping, prefix: "")
    }

    private mutating func flatten(_ mapping: [String: Any], prefix: String) throws {
        for (name, value) in mapping {
            let path = prefix.isEmpty ? name : "\(prefix).\(name)"
            if let section = value as? [String: Any] {
                try flatten(section, prefix: path)
                continue
            }
            guard ConfigKey.named(path) != nil else {
                throw ConfigError("unknown configuration key \(path)")
            }
            values[path] = try Self.text(of: value, at: path)
        }
    }

    private static func text(of value: Any, at path: String) throws -> String {
        if let list = value as? [Any] {
            return try list.map { try text(of: $0, at: path) }.joined(separator: ",")
        }
        if value is [String: Any] {
            throw ConfigError("\(path) must be a value, not a section")
        }
        if value is NSNull {
            throw ConfigError("\(path) has no value")
        }
        return "\(value)"
    }

    private mutating func applyEnvironment(_ environment: [String: String]) throws {
        for key in ConfigKey.all {
            if let value = environment[key.environmentVariable] {
                values[key.path] = value
            }
            guard let path = environment[key.fileVariable] else { continue }
            guard environment[key.environmentVariable] == nil else {
                throw ConfigError("\(key.environmentVariable) and \(key.fileVariable) are both set; set one")
            }
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ConfigError("cannot read \(key.fileVariable)'s file \(path)")
            }
            // A file ends in a line break more often than not; the value does not.
            var text = String(decoding: data, as: UTF8.self)
            while text.hasSuffix("\n") || text.hasSuffix("\r") { text.removeLast() }
            values[key.path] = text
        }
        warnings += ConfigKey.unknownVariables(in: environment.keys).map(\.warning)
    }
}
