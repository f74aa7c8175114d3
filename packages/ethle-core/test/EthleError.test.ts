import { describe, expect, it } from 'vitest';
import { EthleError, isEthleError } from '@ethle/core';

describe('EthleError', () => {
  it('carries its code in the message and as a field, with details', () => {
    const e = new EthleError('ERR_HLS_NOT_A_PLAYLIST', 'missing #EXTM3U', { firstLine: 'hello' });
    expect(e.code).toBe('ERR_HLS_NOT_A_PLAYLIST');
    expect(e.message).toMatch(/^ERR_HLS_NOT_A_PLAYLIST: missing #EXTM3U$/);
    expect(e.details).toEqual({ firstLine: 'hello' });
    expect(isEthleError(e)).toBe(true);
    expect(isEthleError(new Error('x'))).toBe(false);
  });
});
