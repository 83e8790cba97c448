import Fluent
import SQLKit

/// Deleting an account never deletes other people's data: a fitness challenge's `creator_account_id` becomes
/// nullable and its foreign key `ON DELETE SET NULL` instead of `CASCADE`, so a challenge outlives its creator for
/// its other members, with their progress.
///
/// PostgreSQL alters the column and swaps the constraint. SQLite cannot alter a foreign key: the table is rebuilt as
/// SQLite's documentation prescribes (§7 of "ALTER TABLE"), on one connection with foreign keys off, or dropping the
/// old table would cascade to every membership. Reverting deletes the challenges that have no creator.
struct M0027_KeepChallengesOfDeletedCreators: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await change(on: database, nullable: true)
    }

    func revert(on database: any Database) async throws {
        try await change(on: database, nullable: false)
    }

    private func change(on database: any Database, nullable: Bool) async throws {
        guard let sql = database as? any SQLDatabase else { return }
        if !nullable {
            try await sql.raw("DELETE FROM fitness_challenges WHERE creator_account_id IS NULL").run()
        }
        if sql.dialect.name == "postgresql" {
            try await Self.postgres(sql, nullable: nullable)
        } else {
            try await database.withConnection { connection in
                guard let pinned = connection as? any SQLDatabase else { return }
                try await Self.sqlite(pinned, nullable: nullable)
            }
        }
    }

    private static func postgres(_ sql: any SQLDatabase, nullable: Bool) async throws {
        let constraints = try await sql.raw(
            """
            SELECT conname FROM pg_constraint
            WHERE conrelid = 'fitness_challenges'::regclass AND confrelid = 'accounts'::regclass AND contype = 'f'
            """
        ).all().map { try $0.decode(column: "conname", as: String.self) }
        for name in constraints {
            try await sql.raw("ALTER TABLE fitness_challenges DROP CONSTRAINT \(ident: name)").run()
        }
        try await sql.raw(
            nullable
                ? "ALTER TABLE fitness_challenges ALTER COLUMN creator_account_id DROP NOT NULL"
                : "ALTER TABLE fitness_challenges ALTER COLUMN creator_account_id SET NOT NULL"
        ).run()
        try await sql.raw(
            """
            ALTER TABLE fitness_challenges ADD CONSTRAINT fitness_challenges_creator_account_id_fkey
                FOREIGN KEY (creator_account_id) REFERENCES accounts (id)
                ON DELETE \(unsafeRaw: nullable ? "SET NULL" : "CASCADE")
            """
        ).run()
    }

    /// Rebuilds the table with the creator's new rule; `sql` is one connection, outside any transaction.
    private static func sqlite(_ sql: any SQLDatabase, nullable: Bool) async throws {
        let creator =
            nullable
            ? #""creator_account_id" UUID REFERENCES "accounts" ("id") ON DELETE SET NULL ON UPDATE NO ACTION"#
            : #""creator_account_id" UUID NOT NULL REFERENCES "accounts" ("id") ON DELETE CASCADE ON UPDATE NO ACTION"#
        let columns =
            "id, creator_account_id, name, type, goal, start_day, end_day, visibility, includes_user_entered, created_at"
        try await sql.raw("PRAGMA foreign_keys = OFF").run()
        do {
            try await sql.raw("BEGIN IMMEDIATE").run()
            try await sql.raw(
                """
                CREATE TABLE "fitness_challenges_rebuilt" ("id" UUID PRIMARY KEY, \(unsafeRaw: creator),
                    "name" TEXT NOT NULL, "type" TEXT NOT NULL, "goal" DOUBLE NOT NULL, "start_day" INTEGER NOT NULL,
                    "end_day" INTEGER NOT NULL, "visibility" TEXT NOT NULL,
                    "includes_user_entered" INTEGER NOT NULL DEFAULT FALSE, "created_at" REAL NOT NULL)
                """
            ).run()
            try await sql.raw(
                """
                INSERT INTO fitness_challenges_rebuilt (\(unsafeRaw: columns))
                SELECT \(unsafeRaw: columns) FROM fitness_challenges
                """
            ).run()
            try await sql.raw("DROP TABLE fitness_challenges").run()
            try await sql.raw("ALTER TABLE fitness_challenges_rebuilt RENAME TO fitness_challenges").run()
            try await sql.create(index: "fitness_challenges_type_window").on("fitness_challenges")
                .column("type").column("start_day").column("end_day").run()
            try await sql.create(index: "fitness_challenges_visibility_created").on("fitness_challenges")
                .column("visibility").column("created_at").run()
            let violations = try await sql.raw("PRAGMA foreign_key_check").all()
            guard violations.isEmpty else {
                throw MigrationError(
                    "fitness_challenges: \(violations.count) rows break a foreign key after rebuilding")
            }
            try await sql.raw("COMMIT").run()
        } catch {
            try? await sql.raw("ROLLBACK").run()
            try? await sql.raw("PRAGMA foreign_keys = ON").run()
            throw error
        }
        try await sql.raw("PRAGMA foreign_keys = ON").run()
    }
}

/// A migration found the data in a state it cannot carry forward.
struct MigrationError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
