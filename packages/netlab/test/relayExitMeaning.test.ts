import { describe, expect, it } from 'vitest';
import { relayExitMeaning } from '../src/relay/relayExitMeaning.js';

describe('relayExitMeaning', () => {
  it('says what ended a relay: its RLIMIT_RTTIME for SIGXCPU, the hard limit or a killer for SIGKILL, an error for a non-zero code', () => {
    expect(relayExitMeaning(null, 'SIGXCPU')).toMatch(/RLIMIT_RTTIME.*without a blocking call/);
    expect(relayExitMeaning(null, 'SIGKILL')).toMatch(/hard RLIMIT_RTTIME.*receiving thread.*OOM killer/);
    expect(relayExitMeaning(1, null)).toMatch(/uncaught error/);
    expect(relayExitMeaning(0, null)).toMatch(/IPC channel/);
    expect(relayExitMeaning(null, 'SIGSEGV')).toMatch(/crashed/);
    expect(relayExitMeaning(null, 'SIGUSR2')).toMatch(/signal it does not handle/);
  });
});
