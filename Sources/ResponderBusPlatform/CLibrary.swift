// The C library of the system the package is built for, given to every module of the package
// through this one: the calls spelled alike on Linux and Darwin (`open`, `read`, `write`, `poll`,
// `stat`, `kill`, `waitpid`, the pthread mutexes and condition variables, …) are used as they are;
// a call that differs between the two, in its Swift signature or in what it does, is a function of
// this module with a branch for each, one file per concern: threads (SystemThread), processes and
// signals (SystemProcess), files and descriptors (SystemFiles), the dynamic loader and library
// names (LoadedImages). No other module of the package imports Glibc, Musl or Darwin, or reads
// `/proc`: `.ci/platform-layer` checks it. The Darwin branches are written from Apple's
// documentation and the XNU, dyld and ld64 sources; they have not been compiled on a Mac (README,
// "Platforms").
#if canImport(Glibc)
    @_exported import Glibc
#elseif canImport(Musl)
    @_exported import Musl
#elseif canImport(Darwin)
    @_exported import Darwin
#else
    #error("ResponderBusPlatform: no C library for this system (Linux's Glibc or Musl, or Darwin)")
#endif
