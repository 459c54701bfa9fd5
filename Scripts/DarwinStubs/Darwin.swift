// The stub module `Darwin` that Scripts/typecheck-darwin builds from this folder, so that RaceLab's
// `import Darwin` resolves on Linux. Never built into a product; nothing here runs.
//
// It re-exports Glibc: where Glibc and Darwin agree (open, fcntl, flock, kill, errno, the F_*, O_*,
// LOCK_* and SIG* names, struct flock, pid_t...), the check uses Glibc's declarations. The other
// files of this folder declare what Darwin has and Glibc has not, or has with another type, each with
// the signature Apple's SDK imports into Swift and a comment naming the header or page it comes from.
// A type declared here whose name Glibc also uses is written `Darwin.<name>` in the checked copy
// (Swift finds both otherwise); typecheck-darwin derives that list from these files.
@_exported import Glibc
