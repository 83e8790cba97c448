extension Duration {
    /// Parses a duration written as configuration writes it: a whole number and `ms`, `s`, `m`, `h` or `d`, at most
    /// 3650 days; nil for anything else. For command-line options that take the same durations.
    public init?(configurationText text: String) {
        guard let duration = ConfigDuration.parse(text) else { return nil }
        self = duration
    }
}
