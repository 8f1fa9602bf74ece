/// An error the user can act on: printed as "cyd: message", exit 2.
public struct CLIError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
