/**
 * What a relay process's end means, for the line that reports it: a relay that ends while its
 * testbed is up takes its link down, and "signal SIGXCPU" alone sends the reader to the man pages.
 */
export function relayExitMeaning(code: number | null, signal: NodeJS.Signals | null): string {
  switch (signal) {
    case null:
      return code === 0
        ? 'it exited by itself (its IPC channel to the testbed closed)'
        : 'it failed: an uncaught error in its receiving or sending thread, whose message is on stderr above';
    case 'SIGXCPU':
      return (
        'one of its threads stayed on a core at real-time priority for its RLIMIT_RTTIME (makeRealtime maxSpinMs, 10 s by default) ' +
        'without a blocking call — a loop in the relay that spun, not the load (docs/netlab.md, "Timing under CPU load")'
      );
    case 'SIGKILL':
      return (
        'killed: by the hard RLIMIT_RTTIME a second after SIGXCPU — then its receiving thread was the one that spun, as a spin ' +
        "elsewhere is reported and ends it by SIGXCPU — by the kernel's OOM killer (see dmesg) or by another process"
      );
    case 'SIGTERM':
    case 'SIGINT':
    case 'SIGHUP':
      return 'another process ended it (a test harness or CI cleanup, ^C)';
    case 'SIGSEGV':
    case 'SIGBUS':
    case 'SIGILL':
    case 'SIGFPE':
    case 'SIGABRT':
    case 'SIGTRAP':
      return 'it crashed in native code (Node or V8)';
    default:
      return 'a signal it does not handle ended it';
  }
}
