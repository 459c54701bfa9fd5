import Foundation

/// One readable line for an error: what failed, the system's reason and its errno, where the error
/// carries them.
///
/// Foundation's errors print as whole dictionaries (`Error Domain=NSCocoaErrorDomain Code=640 …
/// UserInfo={NSUnderlyingError=…}`); a report needs `…/document-0: No space left on device (errno
/// 28)`. The errno is looked for in the error itself (`POSIXError`, `NSPOSIXErrorDomain`) and then
/// in its chain of underlying errors.
public func describeError(_ error: any Error) -> String {
    if let posix = error as? POSIXError {
        return "\(String(cString: strerror(posix.code.rawValue))) (errno \(posix.code.rawValue))"
    }
    let nsError = error as NSError
    let path = (nsError.userInfo[NSFilePathErrorKey] as? String) ?? (nsError.userInfo[NSURLErrorKey] as? URL)?.path
    let prefix = path.map { "\($0): " } ?? ""
    if let code = posixCode(of: nsError) {
        return prefix + "\(String(cString: strerror(code))) (errno \(code))"
    }
    if nsError.domain == NSCocoaErrorDomain {
        return prefix + nsError.localizedDescription
    }
    return String(describing: error)
}

/// The POSIX error code (errno) that `error` carries, itself or through its underlying errors, if
/// any: for telling an environment's failure (`ENOSPC`) from a program's own.
public func posixErrorCode(of error: any Error) -> Int32? {
    if let posix = error as? POSIXError { return posix.code.rawValue }
    return posixCode(of: error as NSError)
}

/// The POSIX error code of `error` or of the first underlying error that has one.
private func posixCode(of error: NSError) -> Int32? {
    var current: NSError? = error
    var depth = 0
    while let candidate = current, depth < 8 {
        if candidate.domain == NSPOSIXErrorDomain { return Int32(truncatingIfNeeded: candidate.code) }
        // Bridged through `any Error`: on Linux an underlying Swift error does not cast to NSError directly.
        current = (candidate.userInfo[NSUnderlyingErrorKey] as? any Error).map { $0 as NSError }
        depth += 1
    }
    return nil
}
