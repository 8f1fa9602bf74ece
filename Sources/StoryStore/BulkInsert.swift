import GRDB
import GRDBSQLite

/// One prepared INSERT run many times, binding values through SQLite's C API without building
/// GRDB's argument arrays. Only for use inside a write transaction of `db`.
struct BulkInsert {
    enum Value {
        case integer(Int64)
        case text(String)
        case optionalText(String?)
    }

    private let statement: Statement

    /// `INSERT INTO table (a, b) VALUES (?, ?)`.
    static func insertStatement(table: String, columns: [String]) -> String {
        "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))"
    }

    init(_ db: Database, _ sql: String) throws {
        statement = try db.cachedStatement(sql: sql)
    }

    func run(_ values: [Value]) throws {
        let handle = statement.sqliteStatement
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        // Strings are bound SQLITE_STATIC and stepped inside `withUTF8`, so no copy is made.
        try bind(values[...], index: 1, handle)
    }

    private func bind(_ values: ArraySlice<Value>, index: Int32, _ handle: SQLiteStatement) throws {
        guard let value = values.first else {
            let code = sqlite3_step(handle)
            guard code == SQLITE_DONE else {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(sqlite3_db_handle(handle))))
            }
            return
        }
        switch value {
        case .integer(let number):
            sqlite3_bind_int64(handle, index, number)
            try bind(values.dropFirst(), index: index + 1, handle)
        case .optionalText(nil):
            sqlite3_bind_null(handle, index)
            try bind(values.dropFirst(), index: index + 1, handle)
        case .text(var text), .optionalText(.some(var text)):
            try text.withUTF8 { bytes in
                if let base = bytes.baseAddress {
                    sqlite3_bind_text(handle, index, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self), Int32(bytes.count), nil)
                } else {
                    // An empty string: SQLite copies it (SQLITE_TRANSIENT), as there is no buffer.
                    sqlite3_bind_text(handle, index, "", 0, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
                }
                try bind(values.dropFirst(), index: index + 1, handle)
            }
        }
    }
}

extension StoryLibrary {
    /// The SQLite library in use (run-time version, not the headers').
    public static var sqliteVersion: String { String(cString: sqlite3_libversion()) }
}
