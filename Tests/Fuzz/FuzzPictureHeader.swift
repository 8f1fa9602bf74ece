// libFuzzer entry point for the picture header reader alone (CYD608-610: PNG, JPEG, GIF, WebP
// and EXIF parsing). The story target reads every input as a picture header too, at the pace of
// a whole check; this one runs only the reader, thousands of times faster.
// Built by `FUZZ_TARGET=picture-header scripts/fuzz.sh`; not part of the package build.
import StoryCheck

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPictureHeader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    switch PictureHeader.read(bytes) {
    case .success(let header)?:
        precondition(header.width > 0 && header.height > 0, "a header read with no size")
        if let position = header.position { _ = position.words }
    case .failure(let failure)?:
        precondition(!failure.reason.isEmpty, "a failure without a reason")
    case nil:
        break
    }
    return 0
}
