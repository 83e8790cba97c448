import Foundation
import HaleTesting
import Testing

@testable import HaleServer

@Suite("Configuration")
struct ConfigurationTests {
    @Test func defaultsNeedNoConfiguration() throws {
        let config = try HaleConfiguration(ConfigValues())
        #expect(config.server.host == "127.0.0.1")
        #expect(config.server.port == 8080)
        #expect(config.server.maxBodySize == 64 << 10)
        #expect(config.database.location == .sqlite(path: "hale.sqlite"))
        #expect(config.tokens.accessTokenLifetime == .seconds(900))
        #expect(config.tokens.refreshReuseGracePeriod == .seconds(10))
    }

    @Test func yamlSectionsSetKeys() throws {
        let yaml = """
            server:
              port: 9090
              maxBodySize: 512KiB
            database:
              url: postgres://hale@db:5432/hale
            tokens:
              accessTokenLifetime: 5m
            """
        let config = try HaleConfiguration(try ConfigValues.load(yaml: yaml, environment: [:]))
        #expect(config.server.port == 9090)
        #expect(config.server.maxBodySize == 512 * 1024)
        #expect(config.database.location == .postgres(url: "postgres://hale@db:5432/hale"))
        #expect(config.tokens.accessTokenLifetime == .seconds(300))
    }

    @Test func environmentOverridesTheFile() throws {
        let values = try ConfigValues.load(
            yaml: "server:\n  port: 9090\n",
            environment: ["HALE_SERVER_PORT": "7070", "HALE_DATABASE_URL": "sqlite:other.sqlite", "HOME": "/root"])
        let config = try HaleConfiguration(values)
        #expect(config.server.port == 7070)
        #expect(config.database.location == .sqlite(path: "other.sqlite"))
    }

    @Test func environmentVariableNamesAreUpperSnakeCasePaths() {
        #expect(ConfigKey.named("database.url")?.environmentVariable == "HALE_DATABASE_URL")
        #expect(ConfigKey.named("server.port")?.environmentVariable == "HALE_SERVER_PORT")
        #expect(ConfigKey.named("server.maxBodySize")?.environmentVariable == "HALE_SERVER_MAX_BODY_SIZE")
        #expect(ConfigKey.named("server.publicURL")?.environmentVariable == "HALE_SERVER_PUBLIC_URL")
        #expect(
            ConfigKey.named("health.imports.maxXMLBytes")?.environmentVariable == "HALE_HEALTH_IMPORTS_MAX_XML_BYTES")
        #expect(
            ConfigKey.named("rateLimits.healthImportsPerIp")?.environmentVariable
                == "HALE_RATE_LIMITS_HEALTH_IMPORTS_PER_IP")
        let origins = ConfigKey(path: "passkeys.origins", kind: .list, defaultValue: "", summary: "")
        #expect(origins.environmentVariable == "HALE_PASSKEYS_ORIGINS")
    }

    @Test func aSecretComesFromTheFileItsFileVariableNames() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("hale-kek-\(UUID())")
        try Data("\(testKeyEncryptionKey)\n".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let values = try ConfigValues.load(
            yaml: nil, environment: ["HALE_SECRETS_KEY_ENCRYPTION_KEY_FILE": file.path])
        #expect(values["secrets.keyEncryptionKey"] == testKeyEncryptionKey, "the line break is not the value's")
        #expect(values.warnings.isEmpty)
        #expect(throws: ConfigError.self, "both") {
            try ConfigValues.load(
                yaml: nil,
                environment: [
                    "HALE_SECRETS_KEY_ENCRYPTION_KEY_FILE": file.path, "HALE_SECRETS_KEY_ENCRYPTION_KEY": "x",
                ])
        }
        #expect(throws: ConfigError.self, "a file that is not there") {
            try ConfigValues.load(yaml: nil, environment: ["HALE_SECRETS_KEY_ENCRYPTION_KEY_FILE": "/nonexistent/kek"])
        }
    }

    @Test func listsAreCommaSeparatedInTheEnvironmentAndSequencesInYAML() throws {
        var values = ConfigValues()
        values["logging.level"] = "a, b,,c"
        #expect(try values.list("logging.level") == ["a", "b", "c"])
        let fromYAML = try ConfigValues.load(yaml: "logging:\n  level: [x, y]\n", environment: [:])
        #expect(try fromYAML.list("logging.level") == ["x", "y"])
    }

    @Test func unknownKeysAreRejected() {
        #expect(throws: ConfigError("unknown configuration key server.prot")) {
            try ConfigValues.load(yaml: "server:\n  prot: 1\n", environment: [:])
        }
    }

    @Test(arguments: [
        ("server.port", "eighty"),
        ("server.port", "70000"),
        ("tokens.accessTokenLifetime", "15 minutes"),
        ("tokens.accessTokenLifetime", "0s"),
        ("server.maxBodySize", "1 megabyte"),
        ("database.url", "mysql://x"),
        ("database.migrateOnStart", "perhaps"),
        ("logging.level", "loud"),
        ("tokens.signingKeyRotationInterval", "1m"),
        ("tokens.refreshTokenLifetime", "999999999999999999d"),
        ("tokens.refreshTokenLifetime", "3651d"),
        ("tokens.refreshReuseGracePeriod", "2h"),
        ("socialSignIn.google.keySetUrl", "http://www.googleapis.com/oauth2/v3/certs"),
        ("socialSignIn.apple.keySetUrl", "ftp://appleid.apple.com/auth/keys"),
        ("socialSignIn.facebook.graphUrl", "graph.facebook.com"),
        ("socialSignIn.facebook.keySetUrl", "http://10.0.0.1/jwks"),
        ("socialSignIn.facebook.appId", "1234"),
        ("socialSignIn.clockSkew", "1h"),
        ("health.maxSteps", "0"),
        ("health.maxDistance", "1000000000001"),
        ("health.maxSampleDuration", "*:8d"),
        ("health.maxSampleDuration", "sleep:1d"),
        ("health.maxSampleDuration", "steps:1d,steps:2d"),
        ("health.maxSampleDuration", "steps"),
        ("health.sampleWindow.past", "0s"),
    ])
    func badValuesAreRejectedByName(key: String, value: String) {
        var values = ConfigValues()
        values[key] = value
        #expect(throws: ConfigError.self) { try HaleConfiguration(values) }
    }

    @Test func thePlausibilityTableComesFromTheHealthKeys() throws {
        var values = ConfigValues()
        values["health.maxSteps"] = "50000"
        values["health.maxDuration"] = "7200"
        values["health.maxSampleDuration"] = "*:12h,workouts:3d"
        values["health.sampleWindow.past"] = "30d"
        values["health.sampleWindow.future"] = "10m"
        let table = try HaleConfiguration(values).health.plausibility
        #expect(table.limit(for: .steps) == .init(maximumPerDay: 50_000, longestSample: 43_200))
        #expect(table.limit(for: .activeMinutes) == .init(maximumPerDay: 7_200, longestSample: 43_200))
        #expect(table.limit(for: .workouts) == .init(maximumPerDay: 7_200, longestSample: 259_200))
        #expect(table.limit(for: .distance).maximumPerDay == 250_000)
        #expect(table.limit(for: .oxygenSaturation).maximumPerDay == 100)
        #expect(table.oldestStart == 30 * 86_400)
        #expect(table.newestStart == 600)
        #expect(try HaleConfiguration(ConfigValues()).health.plausibility == .standard)
    }

    @Test("a HALE_ variable that names no key is a warning naming the closest key; tools' own variables are not")
    func typosInTheEnvironmentAreLoud() throws {
        let environment = [
            "HALE_DATABSE_URL": "sqlite:x.sqlite", "HALE_SERVER_PROT": "80", "HALE_FROBNICATE_EVERYTHING": "1",
            "HALE_TEST_POSTGRES_URL": "postgres://x", "HALE_HOSTILE_URL": "http://x", "HALE_BINARY": "/x",
            "HALE_SERVER_PORT": "9000", "HOME": "/root",
        ]
        let configuration = try HaleConfiguration(try ConfigValues.load(yaml: nil, environment: environment))
        #expect(
            configuration.warnings == [
                "HALE_DATABSE_URL is not a configuration variable; it is ignored. Did you mean HALE_DATABASE_URL (database.url)?",
                "HALE_FROBNICATE_EVERYTHING is not a configuration variable; it is ignored",
                "HALE_SERVER_PROT is not a configuration variable; it is ignored. Did you mean HALE_SERVER_PORT (server.port)?",
            ])
        #expect(configuration.server.port == 9000)
        #expect(ConfigKey.editDistance(Array("kitten".utf8), Array("sitting".utf8)) == 3)
    }

    @Test func malformedYAMLIsRejected() {
        #expect(throws: ConfigError.self) { try ConfigValues.load(yaml: "server: [1, 2\n", environment: [:]) }
        #expect(throws: ConfigError.self) { try ConfigValues.load(yaml: "- a\n- b\n", environment: [:]) }
        #expect(throws: ConfigError("tokens.issuer has no value")) {
            try ConfigValues.load(yaml: "tokens:\n  issuer:\n", environment: [:])
        }
    }

    @Test func providerEndpointsMayBePlainHTTPOnlyOnLoopback() throws {
        var values = ConfigValues()
        values["socialSignIn.google.keySetUrl"] = "http://127.0.0.1:9000/certs"
        values["socialSignIn.facebook.graphUrl"] = "http://localhost:9000"
        values["socialSignIn.facebook.appId"] = "1234"
        values["socialSignIn.facebook.appSecret"] = "secret"
        let configuration = try HaleConfiguration(values)
        #expect(configuration.socialSignIn.googleKeySetURL == "http://127.0.0.1:9000/certs")
    }

    @Test func theConfigurationReferenceIsCurrent() throws {
        let file = packageRoot.appendingPathComponent(ConfigurationReference.path)
        let committed = try String(contentsOf: file, encoding: .utf8)
        #expect(
            committed == ConfigurationReference.markdown(),
            "docs/configuration.md is stale: run `swift run hale config reference --output docs/configuration.md`")
    }

    @Test func theConfigurationReferenceNamesEveryKeyAndVariable() {
        let reference = ConfigurationReference.markdown()
        for key in ConfigKey.all {
            #expect(reference.contains("| `\(key.path)` | `\(key.environmentVariable)` |"), "no row for \(key.path)")
        }
    }

    @Test func aSeeAlsoLinksFromTheDocsFolder() {
        #expect(ConfigurationReference.link(to: "docs/operations.md#traces") == "operations.md#traces")
        #expect(ConfigurationReference.link(to: "README.md") == "../README.md")
    }

    @Test(arguments: [
        ("sqlite:hale.sqlite", DatabaseLocation.sqlite(path: "hale.sqlite")),
        ("sqlite:///var/lib/hale.sqlite", .sqlite(path: "/var/lib/hale.sqlite")),
        ("postgres://u:p@h:5432/d", .postgres(url: "postgres://u:p@h:5432/d")),
        ("postgresql://u@h/d", .postgres(url: "postgresql://u@h/d")),
    ])
    func databaseURLs(url: String, location: DatabaseLocation) throws {
        #expect(try DatabaseLocation(url: url) == location)
    }
}

/// The package's root folder, for tests that read its documents.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

@Suite("configuration: the data and imports directories")
struct DataDirectoryTests {
    private func configuration(_ settings: [String: String]) throws -> HaleConfiguration {
        try HaleConfiguration(ConfigValues(settings))
    }

    @Test func byDefaultTheSQLiteFilesFolderHoldsTheImports() throws {
        let embedded = try configuration(["database.url": "sqlite:/srv/one/../one/hale.sqlite"])
        #expect(embedded.server.dataDirectory.path == "/srv/one")
        #expect(embedded.health.importsDirectory.path == "/srv/one/imports")
        let postgres = try configuration(["database.url": "postgres://hale@db.example.com:5432/hale"])
        #expect(postgres.server.dataDirectory.path == FileManager.default.currentDirectoryPath + "/hale-data")
        let chosen = try configuration([
            "database.url": "postgres://hale@db.example.com:5432/hale", "server.dataDirectory": "/var/lib/hale",
        ])
        #expect(chosen.health.importsDirectory.path == "/var/lib/hale/imports")
        let both = try configuration(["server.dataDirectory": "/var/lib/hale", "health.imports.directory": "/data/in"])
        #expect(both.health.importsDirectory.path == "/data/in")
    }

    @Test func aMissingDirectoryIsMadeForHaleAlone() throws {
        let parent = try privateTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: parent) }
        let made = parent.appendingPathComponent("data/imports")
        try PrivateDirectory.prepare(made, setting: "health.imports.directory")
        let mode = try FileManager.default.attributesOfItem(atPath: made.path)[.posixPermissions] as? Int
        #expect(mode == 0o700)
    }

    @Test func aDirectoryOthersMayWriteIsRefused() throws {
        let directory = try privateTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for mode in [0o777, 0o770, 0o702] {
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: directory.path)
            #expect(throws: ConfigError.self, "mode \(String(mode, radix: 8))") {
                try PrivateDirectory.prepare(directory, setting: "server.dataDirectory")
            }
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
        try PrivateDirectory.prepare(directory, setting: "server.dataDirectory")
    }

    @Test func aDirectoryOfAnotherUserIsRefused() throws {
        // Only root can give a directory away: run unprivileged, the test has nothing to try.
        guard geteuid() == 0 else { return }
        let directory = try privateTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(chown(directory.path, 65_534, 65_534) == 0)
        do {
            try PrivateDirectory.prepare(directory, setting: "server.dataDirectory")
            Issue.record("a directory of uid 65534 was accepted")
        } catch let error as ConfigError {
            #expect(error.description.contains("belongs to another user (uid 65534)"))
        }
    }

    @Test func theWholeImportsDirectoryIsNotAFile() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("hale-not-a-dir-\(UUID())")
        try Data("x".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(throws: ConfigError.self) { try PrivateDirectory.prepare(file, setting: "health.imports.directory") }
    }
}
