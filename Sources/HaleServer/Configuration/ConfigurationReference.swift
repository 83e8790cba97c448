/// `docs/configuration.md`, generated from `ConfigKey.all` by `hale config reference`; a test fails while the file in
/// the repository differs from what this makes.
public enum ConfigurationReference {
    /// Where the reference is kept, from the repository's root.
    public static let path = "docs/configuration.md"

    /// The whole document, in Markdown.
    public static func markdown(keys: [ConfigKey] = ConfigKey.all) -> String {
        var document = introduction
        for (section, sectionKeys) in sections(of: keys) {
            document += "\n## `\(section)`\n\n"
            document += "| key | environment variable | kind | default | meaning |\n"
            document += "|---|---|---|---|---|\n"
            for key in sectionKeys { document += row(key) + "\n" }
        }
        return document
    }

    /// The keys grouped by their first path component, sections in the order they first appear.
    static func sections(of keys: [ConfigKey]) -> [(String, [ConfigKey])] {
        var order: [String] = []
        var grouped: [String: [ConfigKey]] = [:]
        for key in keys {
            let section = String(key.path.prefix { $0 != "." })
            if grouped[section] == nil { order.append(section) }
            grouped[section, default: []].append(key)
        }
        return order.map { ($0, grouped[$0] ?? []) }
    }

    static func row(_ key: ConfigKey) -> String {
        let defaultValue = key.defaultValue.isEmpty ? "(none)" : "`\(key.defaultValue)`"
        var meaning = key.summary.replacingOccurrences(of: "|", with: #"\|"#)
        if let seeAlso = key.seeAlso { meaning += " [More](\(link(to: seeAlso)))." }
        return "| `\(key.path)` | `\(key.environmentVariable)` | \(key.kind.rawValue) | \(defaultValue) | \(meaning) |"
    }

    /// `seeAlso`, a path from the repository's root, as a link from `docs/`.
    static func link(to seeAlso: String) -> String {
        seeAlso.hasPrefix("docs/") ? String(seeAlso.dropFirst("docs/".count)) : "../" + seeAlso
    }

    static let introduction = """
        # Configuration reference

        <!-- Generated from ConfigKey.all by `swift run hale config reference --output docs/configuration.md`; \
        edit the keys there, not this file. -->

        Hale reads one YAML file (`--config FILE`) whose sections are the first part of each key:

        ```yaml
        server:
          port: 8080
        database:
          url: postgres://hale:secret@db.internal:5432/hale
        tokens:
          accessTokenLifetime: 15m
        ```

        - **Environment.** Every key can be overridden by an environment variable: `HALE_` and the key's path in upper \
        snake case. Lists are comma-separated in the environment.
        - **Secrets.** Keep them in the environment, not in the file. Every variable has a twin ending in `_FILE` that \
        names a file holding the value (`HALE_SECRETS_KEY_ENCRYPTION_KEY_FILE=/run/secrets/hale-kek`), as container \
        secrets are mounted. Setting both is an error.
        - **Values.** Durations are a number and `ms`, `s`, `m`, `h` or `d`; sizes a number and `B`, `KiB`, `MiB` or \
        `GiB`.
        - **Mistakes.** An unknown key or a bad value stops Hale with a message naming it. A `HALE_` variable that names \
        no key (`HALE_DATABSE_URL`) is logged as a warning at start, naming the closest key. Variables of Hale's own \
        tests and tools (`HALE_TEST_…`, `HALE_HOSTILE_…`, `HALE_FUZZ_…`, `HALE_BINARY`, `HALE_URL`, `HALE_TOKEN`) are not.
        - **Push.** Security alerts to an account's other devices are off until `push.apns.*` or `push.fcm.*` is set: \
        see [push](push.md).

        """
}
