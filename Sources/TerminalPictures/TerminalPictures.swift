import CPictures

/// How a terminal can show a picture, best first.
public enum PictureMode: Sendable, Equatable, CustomStringConvertible {
    /// kitty's graphics protocol (APC `_G`).
    case kitty
    /// iTerm2's inline images (OSC 1337).
    case iterm
    /// DEC sixels (DCS `q`).
    case sixel
    /// Unicode block and half-block symbols in colour.
    case symbols(SymbolColors)
    /// Not drawn: a line names the picture.
    case off

    public var description: String {
        switch self {
        case .kitty: "kitty"
        case .iterm: "iterm"
        case .sixel: "sixel"
        case .symbols(let colors): "symbols (\(colors.rawValue))"
        case .off: "off"
        }
    }

    /// Whether the terminal draws pixels itself (the picture's size is then in pixels too).
    public var drawsPixels: Bool {
        switch self {
        case .kitty, .iterm, .sixel: true
        case .symbols, .off: false
        }
    }
}

public enum SymbolColors: String, Sendable, Equatable {
    case trueColor = "24-bit colour"
    case indexed256 = "256 colours"
    case indexed16 = "16 colours"
}

/// Why a picture cannot be drawn, in words for the reader.
public struct PictureDrawingError: Error, Sendable, Equatable, CustomStringConvertible {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}

/// A picture decoded (and already reduced towards the size it is shown at), in RGBA.
public final class DecodedPicture: @unchecked Sendable {
    fileprivate var image: cpic_image
    public var width: Int { Int(image.width) }
    public var height: Int { Int(image.height) }
    /// The picture's own size in pixels.
    public var originalWidth: Int { Int(image.original_width) }
    public var originalHeight: Int { Int(image.original_height) }

    fileprivate init(_ image: cpic_image) { self.image = image }
    deinit { cpic_image_free(&image) }

    /// Decodes PNG, JPEG, GIF (its first frame) or WebP with the format's own library, reduced
    /// while decoding to no less than it takes to fill a `box` of pixels with the aspect kept
    /// (`nil`: full size).
    public static func decode(_ bytes: [UInt8], box: (width: Int, height: Int)? = nil) throws(PictureDrawingError) -> DecodedPicture {
        var image = cpic_image()
        var error = [CChar](repeating: 0, count: 512)
        let status = bytes.withUnsafeBufferPointer { buffer in
            cpic_decode(buffer.baseAddress, buffer.count, Int32(clamping: box?.width ?? 0), Int32(clamping: box?.height ?? 0), &image, &error, error.count)
        }
        guard status == 0, image.pixels != nil else {
            cpic_image_free(&image)
            throw PictureDrawingError(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return DecodedPicture(image)
    }

    /// The pixels, row after row, four bytes (RGBA) each.
    public var pixels: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: image.pixels, count: width * height * 4) }
}

/// The size of a terminal cell in pixels, as the terminal reports it, or a usual one.
public struct CellSize: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) {
        self.width = max(1, width)
        self.height = max(1, height)
    }
    /// What most terminals use when they do not say: a cell twice as tall as it is wide.
    public static let usual = CellSize(width: 10, height: 20)
}

/// Where a picture goes: how many cells, from a window and a picture's shape.
public enum PictureLayout {
    /// The cells a `width` x `height` pixel picture takes when fitted into `columns` x `rows`
    /// cells of `cell` pixels with its aspect kept; never wider than `widest` columns (so a
    /// small picture is not blown up) and never less than one cell.
    public static func fit(width: Int, height: Int, columns: Int, rows: Int, cell: CellSize, widest: Int? = nil) -> (columns: Int, rows: Int) {
        guard width > 0, height > 0, columns > 0, rows > 0 else { return (max(1, columns), max(1, rows)) }
        var fittedColumns = max(1, min(columns, widest ?? columns))
        // The picture's height in cells at that width.
        var fittedRows = Int((Double(height) / Double(width) * Double(fittedColumns * cell.width) / Double(cell.height)).rounded())
        if fittedRows > rows {
            fittedRows = rows
            fittedColumns = Int((Double(width) / Double(height) * Double(fittedRows * cell.height) / Double(cell.width)).rounded())
        }
        return (min(columns, max(1, fittedColumns)), min(rows, max(1, fittedRows)))
    }
}

/// A picture ready for the terminal.
public struct DrawnPicture: Sendable, Equatable {
    /// The bytes to write (escape sequences and symbols), ending without a newline.
    public var text: String
    public var columns: Int
    public var rows: Int
}

public enum PictureDrawer {
    /// Decodes `bytes` and draws them in at most `columns` x `rows` cells, aspect kept.
    public static func draw(_ bytes: [UInt8], mode: PictureMode, columns: Int, rows: Int, cell: CellSize = .usual) throws(PictureDrawingError) -> DrawnPicture {
        guard mode != .off else { throw PictureDrawingError("pictures are off") }
        // Symbols sample 8 x 8 points a cell; protocols show the cell's own pixels.
        let perCell = mode.drawsPixels ? (cell.width, cell.height) : (8, 8)
        let picture = try DecodedPicture.decode(bytes, box: (columns * perCell.0, rows * perCell.1))
        return try draw(picture, mode: mode, columns: columns, rows: rows, cell: cell)
    }

    /// Draws a decoded picture in at most `columns` x `rows` cells, aspect kept.
    public static func draw(_ picture: DecodedPicture, mode: PictureMode, columns: Int, rows: Int, cell: CellSize = .usual) throws(PictureDrawingError) -> DrawnPicture {
        let how: Int32
        var colors = Int32(CPIC_COLORS_TRUE)
        switch mode {
        case .off: throw PictureDrawingError("pictures are off")
        case .kitty: how = Int32(CPIC_DRAW_KITTY)
        case .iterm: how = Int32(CPIC_DRAW_ITERM)
        case .sixel: how = Int32(CPIC_DRAW_SIXEL)
        case .symbols(let palette):
            how = Int32(CPIC_DRAW_SYMBOLS)
            colors = palette == .trueColor ? Int32(CPIC_COLORS_TRUE) : palette == .indexed256 ? Int32(CPIC_COLORS_256) : Int32(CPIC_COLORS_16)
        }
        // The shape comes from the picture's own size; a protocol shows at most one picture
        // pixel a screen pixel, symbols at most one a column.
        let widest = mode.drawsPixels ? (picture.originalWidth + cell.width - 1) / cell.width : picture.originalWidth
        let fitted = PictureLayout.fit(
            width: picture.originalWidth, height: picture.originalHeight, columns: columns, rows: rows, cell: cell, widest: widest)
        var length = 0
        var error = [CChar](repeating: 0, count: 512)
        let drawn = cpic_draw(
            &picture.image, how, colors, Int32(fitted.columns), Int32(fitted.rows), Int32(cell.width), Int32(cell.height), &length, &error, error.count)
        guard let drawn else { throw PictureDrawingError(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)) }
        defer { cpic_free(drawn) }
        let text = String(decoding: UnsafeRawBufferPointer(start: drawn, count: length), as: UTF8.self)
        return DrawnPicture(text: text, columns: fitted.columns, rows: fitted.rows)
    }
}
