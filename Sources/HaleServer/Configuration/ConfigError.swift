/// Why a configuration could not be loaded. The message names the key or file at fault.
public struct ConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, naming the key or file.
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
