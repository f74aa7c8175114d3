import { decodeCmsdDynamic, decodeCmsdStatic } from '@svta/cml-cmsd';
import { describe, expect, it } from 'vitest';
import { ageSeconds, cmsdDynamic, cmsdStatic } from '../src/http/cmsdHeaders.js';

describe('CMSD and Age', () => {
  it('says what the object is (static) and what this edge measured (dynamic), as the library decodes it', () => {
    expect(cmsdStatic('manifest', 'hls')).toBe('ot=m,sf=h,st=l');
    expect(cmsdStatic('segment', 'dash', 2)).toBe('sf=d,st=l,d=2000');
    expect(cmsdStatic('init', 'dash')).toBe('ot=i,sf=d,st=l');
    expect(decodeCmsdStatic(cmsdStatic('segment', 'hls', 3.84))).toMatchObject({ d: 3840 });
    expect(cmsdDynamic('ethle-edge', 42.5)).toBe('"ethle-edge";etp=42500');
    expect(decodeCmsdDynamic(cmsdDynamic('mec-7', 0.0001))[0]).toMatchObject({ value: 'mec-7', params: { etp: 1 } });
    expect(cmsdDynamic('ethle-edge', undefined)).toBe('"ethle-edge"');
  });

  it('dynamic values are made once and stay right past the bound on remembered ones', () => {
    for (let kbps = 1; kbps <= 5000; kbps++) expect(cmsdDynamic('mec-8', kbps / 1000)).toBe(`"mec-8";etp=${kbps}`);
    expect(cmsdDynamic('mec-8', 1.5)).toBe('"mec-8";etp=1500');
    expect(cmsdDynamic('mec-8', undefined)).toBe('"mec-8"');
    expect(cmsdDynamic('mec-9', undefined)).toBe('"mec-9"');
  });

  it('counts Age in whole seconds, never negative', () => {
    expect(ageSeconds(1000, 1999)).toBe(0);
    expect(ageSeconds(1000, 4500)).toBe(3);
    expect(ageSeconds(5000, 4000)).toBe(0);
  });
});
